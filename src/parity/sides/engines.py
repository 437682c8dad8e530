"""Connections to the engines a pair side may live in besides Spark, and their catalogs.

The connection string comes only from the environment variable the source's meta names; it is
never logged or written, and errors name the variable, not its value.
"""

from __future__ import annotations

import os
from typing import Any

from parity.errors import ParityError

# Each engine's columns of one table, in order, as (name, declared type with its precision,
# whether it may hold NULL).
CATALOG_SQL = {
    "duckdb": (
        "select column_name, data_type, is_nullable = 'YES' from information_schema.columns"
        " where table_schema = ? and table_name = ? order by ordinal_position"
    ),
    "postgres": (
        "select a.attname, format_type(a.atttypid, a.atttypmod), not a.attnotnull"
        " from pg_attribute as a"
        " join pg_class as c on a.attrelid = c.oid"
        " join pg_namespace as n on c.relnamespace = n.oid"
        " where n.nspname = %s and c.relname = %s and a.attnum > 0 and not a.attisdropped"
        " order by a.attnum"
    ),
}


def connect(dialect: str, connection_env: str, pair_name: str, where: str) -> Any:
    """A DB-API connection for reading ``where`` (a side or relation, for error messages)."""
    target = os.environ.get(connection_env)
    if not target:
        raise ParityError(
            pair_name, f"{where}: environment variable {connection_env} is not set or empty"
        )
    if dialect not in CATALOG_SQL:
        raise ParityError(pair_name, f"{where}: parity cannot connect to {dialect} yet")
    try:
        if dialect == "duckdb":
            import duckdb

            return duckdb.connect(target, read_only=True)
        import psycopg

        return psycopg.connect(target, autocommit=True, connect_timeout=10)
    except Exception as error:  # the driver's own error; its text may carry the target
        raise ParityError(
            pair_name,
            f"{where}: cannot connect to {dialect} through {connection_env}: "
            f"{type(error).__name__}",
        ) from None


def catalog_columns(
    connection: Any, dialect: str, schema: str, table: str
) -> list[tuple[str, str, bool]]:
    cursor = connection.cursor()
    cursor.execute(CATALOG_SQL[dialect], [schema, table])
    return [(name, data_type, bool(nullable)) for name, data_type, nullable in cursor.fetchall()]
