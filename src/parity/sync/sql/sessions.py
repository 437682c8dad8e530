"""How an apply (or an undo) opens a writing transaction on each engine it writes to, apart from
the reading sessions (sides/connections.py): the connection from the variable the pair's
`sync.apply_connection_env` names, what keeps other writers out while it runs, what names a row
within it, how a statement takes its parameters, and the driver's errors."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from parity.errors import ParityError
from parity.plan import PairPlan, SidePlan
from parity.sides.connections import checks_its_client, mysql_client
from parity.sides.published_errors import published, secrets_of


@dataclass(frozen=True)
class WriteSession:
    connect: Callable[[str], Any]
    # Starts the transaction; empty: the first statement starts it.
    begin: str
    # Run first in the transaction, with the relation's name in place of {relation}.
    lock: str
    # The pseudo-column naming a row; None: a row is named by its canonical values, and each
    # statement that changes one changes one at most (`limit 1`).
    row_id: str | None
    # The mark of the n-th bound parameter (from 1) in a statement.
    mark: Callable[[int], str]
    # Runs one statement with its parameters, and returns its rows.
    run: Callable[[Any, str, Sequence[Any]], list[tuple[Any, ...]]]
    quote: str
    errors: Callable[[], tuple[type[BaseException], ...]]
    # The names of a select's columns, in order.
    columns: Callable[[Any, str], list[str]]
    # A type holding the apply's own text (ids and hashes) in a table it creates.
    text_type: str

    def marks(self, count: int, first: int = 1) -> list[str]:
        return [self.mark(n) for n in range(first, first + count)]

    def quoted(self, name: str) -> str:
        return self.quote + name.replace(self.quote, self.quote * 2) + self.quote


def _postgres(url: str) -> Any:
    import psycopg

    # RawCursor: parameters are PostgreSQL's own $1, $2..., so a `%` in the plan's SQL stays as
    # written (as in the reading sessions).
    connection = psycopg.connect(url, cursor_factory=psycopg.RawCursor)
    # Its transaction (its lock, its writes) ends as soon as a killed apply is gone.
    checks_its_client(connection)
    return connection


def _duckdb(path: str) -> Any:
    import duckdb

    return duckdb.connect(path)


def _mysql(url: str) -> Any:
    """As the reading sessions are set (connections.MYSQL_SESSION): UTC and no SQL mode, which
    the canonical SQL assumes; but not read only."""
    connection = mysql_client(url)
    with connection.cursor() as cursor:
        cursor.execute("set time_zone = '+00:00', sql_mode = ''")
    return connection


def _run(connection: Any, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    rows = connection.execute(sql, list(params))
    return rows.fetchall() if rows.description else []


def _columns(connection: Any, sql: str) -> list[str]:
    return [column[0] for column in connection.execute(sql).description]


def _mysql_columns(connection: Any, sql: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(sql)
        cursor.fetchall()
        return [column[0] for column in cursor.description]


def _mysql_run(connection: Any, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Parameters as user variables, set by the client with its own escaping: the statement
    itself goes as written, so a `%` in the plan's SQL is never read as a placeholder."""
    with connection.cursor() as cursor:
        if params:
            assigned = ", ".join(f"@__parity_{n} = %s" for n in range(1, len(params) + 1))
            cursor.execute(f"set {assigned}", list(params))
        cursor.execute(sql)
        return list(cursor.fetchall())


def _errors(module: str) -> Callable[[], tuple[type[BaseException], ...]]:
    def errors() -> tuple[type[BaseException], ...]:
        return (__import__(module).Error,)

    return errors


WRITE_SESSIONS = {
    # psycopg opens a transaction with the first statement; the lock lets readers go on.
    "postgres": WriteSession(
        _postgres,
        "",
        "lock table {relation} in share row exclusive mode",
        "ctid",
        lambda n: f"${n}",
        _run,
        '"',
        _errors("psycopg"),
        _columns,
        "text",
    ),
    # A DuckDB database opened to write is its process's alone: no other writer gets in.
    "duckdb": WriteSession(
        _duckdb,
        "begin transaction",
        "",
        "rowid",
        lambda _: "?",
        _run,
        '"',
        _errors("duckdb"),
        _columns,
        "varchar",
    ),
    # InnoDB: each key's rows are locked as they are read (`for update`).
    "mysql": WriteSession(
        _mysql,
        "",
        "",
        None,
        lambda n: f"@__parity_{n}",
        _mysql_run,
        "`",
        _errors("pymysql"),
        _mysql_columns,
        "char(64)",
    ),
}


@contextlib.contextmanager
def writing(pair: PairPlan, corrected: SidePlan, doing: str) -> Iterator[tuple[WriteSession, Any]]:
    """The session and a connection of the apply's own to the corrected side's engine, closed at
    the end (which rolls back what was not committed); a driver's error as the pair's, its text
    scrubbed, saying ``doing`` failed and nothing was written."""
    session = WRITE_SESSIONS[corrected.dialect]
    variable = pair.config["sync"]["apply_connection_env"]
    target = os.environ.get(variable)
    if not target:
        raise ParityError(pair.name, f"sync.apply_connection_env names {variable}, which is unset")
    try:
        connection = session.connect(target)
        try:
            yield session, connection
        finally:
            connection.close()
    except session.errors() as error:
        reason = published(str(error).strip(), secrets_of(target))
        raise ParityError(
            pair.name,
            f"{doing} {corrected.relation_name} failed, nothing was written: {reason}",
        ) from None
