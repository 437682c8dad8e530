"""Corrections written to a relation outside Spark (PostgreSQL, DuckDB, MySQL and MariaDB): the
writing sessions, the per-key reader, the rows kept for an undo, and the undo."""
