"""Corrections written to a Spark side: a table or directory rewritten beside itself and swapped
in, a Delta or Iceberg table merged, and the versions kept for an undo."""
