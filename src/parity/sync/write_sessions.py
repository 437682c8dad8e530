"""How an apply opens a writing transaction on each engine it writes to, apart from the reading
sessions (sides/connections.py): the connection from the variable the pair's
`sync.apply_connection_env` names, the statement that keeps other writers out while it runs, the
pseudo-column that names a row within it, and the driver's errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WriteSession:
    connect: Callable[[str], Any]
    # Run first in the transaction, with the relation's name in place of {relation}.
    lock: str
    row_id: str
    # The driver's mark of a bound parameter.
    mark: str
    errors: Callable[[], tuple[type[BaseException], ...]]


def _postgres(url: str) -> Any:
    import psycopg

    connection = psycopg.connect(url)
    if connection.info.server_version >= 140000:
        # The server checks every second that the apply is still there, and ends its
        # transaction (its lock, its writes) when it went away (a dbt killed), rather than when
        # it next speaks: PostgreSQL 14 and later, on Linux.
        try:
            connection.execute("select set_config('client_connection_check_interval', '1s', false)")
            connection.commit()
        except psycopg.errors.InvalidParameterValue:  # a platform without the check
            connection.rollback()
    return connection


def _postgres_errors() -> tuple[type[BaseException], ...]:
    import psycopg

    return (psycopg.Error,)


def _duckdb(path: str) -> Any:
    import duckdb

    connection = duckdb.connect(path)
    connection.execute("begin transaction")
    return connection


def _duckdb_errors() -> tuple[type[BaseException], ...]:
    import duckdb

    return (duckdb.Error,)


WRITE_SESSIONS = {
    # psycopg opens a transaction with the first statement; the lock lets readers go on.
    "postgres": WriteSession(
        _postgres,
        "lock table {relation} in share row exclusive mode",
        "ctid",
        "%s",
        _postgres_errors,
    ),
    # A DuckDB database opened to write is its process's alone: no other writer gets in.
    "duckdb": WriteSession(_duckdb, "", "rowid", "?", _duckdb_errors),
}
