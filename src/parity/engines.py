"""Connections to the engines a pair side may live in besides Spark.

The connection string comes only from the environment variable the source's meta names; it is
never logged or written, and errors name the variable, not its value.
"""

from __future__ import annotations

import os
from typing import Any

from parity.errors import ParityError


def connect(dialect: str, connection_env: str, pair_name: str, where: str) -> Any:
    """A DB-API connection for reading ``where`` (a side or relation, for error messages)."""
    target = os.environ.get(connection_env)
    if not target:
        raise ParityError(
            pair_name, f"{where}: environment variable {connection_env} is not set or empty"
        )
    if dialect == "duckdb":
        import duckdb

        try:
            return duckdb.connect(target, read_only=True)
        except duckdb.Error as error:
            raise ParityError(
                pair_name,
                f"{where}: cannot open the duckdb database named by {connection_env}: "
                f"{type(error).__name__}",
            ) from None
    raise ParityError(pair_name, f"{where}: parity cannot connect to {dialect} yet")


def catalog_columns(connection: Any, schema: str, table: str) -> list[tuple[str, str]]:
    """(name, data type) of a table's columns in order, from the engine's information_schema."""
    cursor = connection.cursor()
    cursor.execute(
        "select column_name, data_type from information_schema.columns"
        " where table_schema = ? and table_name = ? order by ordinal_position",
        [schema, table],
    )
    return [(name, data_type) for name, data_type in cursor.fetchall()]
