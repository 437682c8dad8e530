"""Read-only sessions to the engines a pair side may live in besides Spark.

parity only reads, and it is pointed at production databases, so read-only-ness is built into
the session rather than trusted to the SQL: every PostgreSQL query runs in a read-only
transaction of its own (the server refuses any write) through the extended query protocol (the
server refuses a second statement); a DuckDB database is opened read-only in a DuckDB of its
own that reads no file but the source's allowed paths, installs and loads no extension, and
whose settings no query can change, and a query that is not exactly one SELECT is refused
before it runs (read-only DuckDB still lets `copy ... to` write a file); a MySQL (or MariaDB)
session is set read-only and every query runs in a transaction of its own, rolled back (the
server refuses any write), over a client that does not enable multiple statements (the server
refuses a second one), and a query that is not one SELECT, or that holds a comment or `into`,
is refused before it runs (mysql_guard). Every query is bounded by a statement timeout (the
plan's: an hour unless the source says otherwise), and one still running when the process is
interrupted or stops is cancelled on the server (sessions_in_flight).

A failure says whether retrying can help (``transient``), from the driver's error class and code:
a lost connection, a server shutting down or starting up, a deadlock or a lock not granted may
pass; a refused query, a statement timeout or an overflow will not (a timeout is the drill-down's
to work around, by smaller queries).

The connection string comes only from the environment variable the source's meta names; it is
never logged or written, and errors name the variable and the driver's reason with any secret
removed.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit

from parity.errors import ParityError
from parity.sides.mysql_guard import INTO, refusal
from parity.sides.published_errors import published as _scrubbed
from parity.sides.published_errors import secrets_of as _secrets
from parity.sides.sessions_in_flight import running

# The client each engine needs, and the pip extra that installs it.
DRIVERS = {
    "duckdb": ("duckdb", "duckdb"),
    "postgres": ("psycopg", "postgres"),
    "mysql": ("pymysql", "mysql"),
}
# What a driver's message says went wrong, for a person to act on, by the first pattern found.
FAILURES = [
    # MySQL: (1045, "Access denied for user 'parity'@'localhost' (using password: YES)").
    (
        "authentication failed",
        re.compile(
            r"authentication failed|no password supplied|access denied for user \S+ \(using", re.I
        ),
    ),
    # PostgreSQL: database "x" does not exist; DuckDB, a missing file: database does not exist;
    # MySQL: (1049, "Unknown database 'x'"), or to a user who may not see it (1044, "Access
    # denied for user 'parity'@'%' to database 'x'"): MySQL tells the two apart to no one else.
    (
        "unknown database",
        re.compile(r"database (\S+ )?does not exist|unknown database|to database", re.I),
    ),
    # MySQL: (2003, "Can't connect to MySQL server on 'h' ([Errno 111] Connection refused)").
    ("connection refused", re.compile(r"connection refused", re.I)),
    ("timed out", re.compile(r"timeout expired|timed out", re.I)),
    ("unknown host", re.compile(r"could not translate host name|name or service not known", re.I)),
]
# SQLSTATEs of PostgreSQL failures a retry may get past: admin shutdown, crash shutdown, cannot
# connect now, serialization failure, deadlock, lock not available (and class 08, connection).
TRANSIENT_SQLSTATES = {"57P01", "57P02", "57P03", "40001", "40P01", "55P03"}
# MySQL and MariaDB error codes a retry may get past: cannot connect, server gone, connection lost
# during a query, lock wait timeout, deadlock.
TRANSIENT_MYSQL_CODES = {2003, 2006, 2013, 1205, 1213}
# What a driver says when it could not reach a server that is restarting (PostgreSQL's connection
# failures carry no SQLSTATE).
RESTARTING = re.compile(
    r"connection refused|the database system is (starting up|shutting down|in recovery mode)"
    r"|server closed the connection|connection is (lost|closed)",
    re.I,
)


# The application_name of parity's PostgreSQL sessions, where the URL names none.
PARITY_APPLICATION = "parity"


class ReadOnlyConnection:
    """One read-only session; ``query`` runs exactly one statement and returns its rows."""

    def __init__(
        self,
        dialect: str,
        handle: Any,
        timeout: float | None,
        secrets: list[str],
        cancel: Callable[[], None],
    ):
        self.dialect = dialect
        self.handle = handle
        self.timeout = timeout
        self.secrets = secrets
        # What stops this session's running query on its server, from another thread.
        self.cancel = cancel

    def query(self, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
        try:
            with running(self.cancel):
                if self.dialect == "duckdb":
                    return self._duckdb(sql, params)
                if self.dialect == "mysql":
                    return self._mysql(sql, params)
                return self._postgres(sql, params)
        except Exception as error:  # each driver has its own error classes
            reason = _scrubbed(str(error), self.secrets)
            raise QueryError(reason, self.timeout, transient(error)) from None

    def close(self) -> None:
        """Closes the session; one the server already dropped closes quietly."""
        # A lost connection may fail to say goodbye; it is gone either way.
        with contextlib.suppress(Exception):
            self.handle.close()

    def _postgres(self, sql: str, params: list[Any] | None) -> list[tuple[Any, ...]]:
        # prepare=True: the extended protocol, one statement; read_only: BEGIN READ ONLY.
        try:
            cursor = self.handle.execute(sql, params, prepare=True)
            return cursor.fetchall()
        finally:
            # A session the server dropped has no transaction left, and rolling back would hide
            # why it was dropped.
            if not self.handle.closed:
                self.handle.rollback()

    def _mysql(self, sql: str, params: list[Any] | None) -> list[tuple[Any, ...]]:
        # The session's transactions are read only (SET SESSION TRANSACTION READ ONLY); this
        # query's opens with its first statement and is rolled back. Only a SELECT runs, so no
        # query can change the session (SET) or commit through DDL. Parameters are user
        # variables (parity.query_parameter: @__parity_1...), set by the client with its own
        # escaping in one statement of parity's; the plan's SQL itself goes as written, so a
        # `%` in it is never read as a placeholder. A SELECT that holds a comment (MySQL runs
        # `/*! */` as code) or `into` (a file written) never reaches the server (mysql_guard).
        refused = refusal(sql)
        if refused == INTO:
            raise ValueError(f"parity never selects into a file or a variable in MySQL: {refused}")
        if refused:
            raise ValueError(f"parity runs exactly one select per query in MySQL: {refused}")
        try:
            with self.handle.cursor() as cursor:
                if params:
                    assigned = ", ".join(f"@__parity_{n} = %s" for n in range(1, len(params) + 1))
                    cursor.execute(f"set {assigned}", [_mysql_parameter(p) for p in params])
                cursor.execute(sql)
                return list(cursor.fetchall())
        finally:
            if self.handle.open:  # as for PostgreSQL: a dropped session has nothing to undo
                self.handle.rollback()

    def _duckdb(self, sql: str, params: list[Any] | None) -> list[tuple[Any, ...]]:
        import duckdb

        statements = self.handle.extract_statements(sql)
        if len(statements) != 1 or statements[0].type != duckdb.StatementType.SELECT:
            raise ValueError("parity runs exactly one select per query in DuckDB; refused")
        timer = threading.Timer(self.timeout, self.handle.interrupt) if self.timeout else None
        if timer:
            timer.start()
        try:
            return self.handle.execute(sql, params or []).fetchall()
        finally:
            if timer:
                timer.cancel()


class QueryError(RuntimeError):
    """A query the engine refused or stopped, with its reason (no secret in it), and whether
    running it again may succeed."""

    def __init__(self, reason: str, timeout: float | None, transient: bool = False) -> None:
        stopped = timeout and re.search(r"statement timeout|interrupt", reason, re.I)
        super().__init__(f"statement timeout of {timeout:g} s: {reason}" if stopped else reason)
        self.transient = transient


class ConnectFailed(ParityError):
    """A session that could not be opened; ``transient`` when the server looked restarting or
    unreachable for now rather than misconfigured (worth a retry once it has been reached
    before)."""

    def __init__(self, pair_name: str, problem: str, transient: bool) -> None:
        super().__init__(pair_name, problem)
        self.transient = transient


def transient(error: BaseException, connecting: bool = False) -> bool:
    """Whether a driver's error is one a retry on a new session may get past. A statement
    timeout (PostgreSQL 57014, MariaDB 1969, MySQL 3024) is not: the same query would take as
    long again. ``connecting``: the error of opening a session, where a driver's error class
    alone does not tell a server restarting from a wrong password."""
    module = type(error).__module__
    if module.startswith("psycopg"):
        import psycopg

        state = getattr(error, "sqlstate", None)
        if state:
            return state.startswith("08") or state in TRANSIENT_SQLSTATES
        # No SQLSTATE: the client lost the server (a closed or broken connection).
        lost = isinstance(error, (psycopg.OperationalError, psycopg.InterfaceError))
        return lost and not connecting
    if module.startswith("pymysql"):
        import pymysql

        code = error.args[0] if error.args else None
        # InterfaceError: a query on a session pymysql already knows is closed.
        closed = isinstance(error, pymysql.err.InterfaceError) and not connecting
        return code in TRANSIENT_MYSQL_CODES or closed
    return False


def connect(
    dialect: str,
    connection_env: str,
    pair_name: str,
    where: str,
    statement_timeout_seconds: float | None = None,
    allowed_paths: Sequence[str] = (),
) -> ReadOnlyConnection:
    """A read-only session for reading ``where`` (a side or relation, for error messages);
    ``allowed_paths``: the files and directories a DuckDB database's views may read."""
    target = os.environ.get(connection_env)
    if not target:
        raise ParityError(
            pair_name, f"{where}: environment variable {connection_env} is not set or empty"
        )
    if dialect not in DRIVERS:
        raise ParityError(pair_name, f"{where}: parity cannot connect to {dialect} yet")
    package, extra = DRIVERS[dialect]
    try:
        __import__(package)
    except ImportError:
        raise ParityError(
            pair_name,
            f"{where}: a {dialect} side needs the {package} package:"
            f" pip install 'dbt-parity[{extra}]'",
        ) from None
    secrets = _secrets(target)
    try:
        if dialect == "duckdb":
            handle = _duckdb_session(target, allowed_paths)
        elif dialect == "mysql":
            handle = _mysql_session(target, statement_timeout_seconds)
        else:
            handle = _postgres_session(target, statement_timeout_seconds)
    except Exception as error:  # the driver's own error; its text may carry the target
        reason = _scrubbed(str(error), secrets)
        kind = next((name for name, pattern in FAILURES if pattern.search(reason)), None)
        if kind is None and type(error).__name__ == "ProgrammingError":
            kind = "malformed URL"
        raise ConnectFailed(
            pair_name,
            f"{where}: cannot connect to {dialect} through {connection_env}: "
            + (f"{kind}: {reason}" if kind else reason),
            dialect != "duckdb" and bool(RESTARTING.search(reason) or transient(error, True)),
        ) from None
    if dialect == "duckdb":
        cancel = handle.interrupt
    elif dialect == "mysql":
        cancel = functools.partial(_mysql_kill, handle, handle.thread_id())
    else:
        cancel = functools.partial(handle.cancel_safe, timeout=5)
    return ReadOnlyConnection(dialect, handle, statement_timeout_seconds, secrets, cancel)


def _postgres_session(url: str, timeout: float | None) -> Any:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    settings = conninfo_to_dict(url)
    options: dict[str, Any] = {"connect_timeout": settings.get("connect_timeout", 10)}
    if timeout:
        # Appended to the URL's own options, which a keyword would otherwise replace.
        own = settings.get("options", "")
        # At least 1 ms: PostgreSQL reads 0 as no limit.
        milliseconds = max(1, round(timeout * 1000))
        options["options"] = f"{own} -c statement_timeout={milliseconds}".strip()
    # Named, so that a PostgreSQL fingerprint knows parity's own read-only sessions
    # (sides/pg_fingerprint.py); a URL's own name stands.
    if "application_name" not in settings:
        options["application_name"] = PARITY_APPLICATION
    # RawCursor: parameters are PostgreSQL's own $1, $2..., so a `%` in the plan's SQL (a `where`,
    # a format) stays as written.
    connection = psycopg.connect(url, cursor_factory=psycopg.RawCursor, **options)
    connection.read_only = True  # every transaction opens with BEGIN READ ONLY
    if connection.info.server_version >= 120000:
        # A plan for the cells each query lists, never a generic one: PostgreSQL hashes a bound
        # array's `= any` only in a plan made for it (macros/dialects/postgres.sql, cell_listed),
        # and a generic plan, chosen after five runs of a prepared query, scans the whole array
        # for every row.
        connection.execute("select set_config('plan_cache_mode', 'force_custom_plan', false)")
        connection.commit()
    checks_its_client(connection)
    return connection


def checks_its_client(connection: Any) -> None:
    """The server checks every second that the client is still there, and ends the query (and
    the transaction) of one that went away (a dbt killed), rather than when it next speaks:
    PostgreSQL 14 and later, on Linux."""
    import psycopg

    if connection.info.server_version < 140000:
        return
    try:
        connection.execute("select set_config('client_connection_check_interval', '1s', false)")
        connection.commit()
    except psycopg.errors.InvalidParameterValue:  # a platform without the check
        connection.rollback()


# What a MySQL session is set to before parity's first query, so that nothing of the server's or
# the user's defaults reaches a canonical text or a filter (docs/canonical-encoding.md, "Session
# settings"):
# - time_zone UTC: a TIMESTAMP column compared with a time window's bound (a literal) is read in
#   the session's zone, and UTC has no DST gaps;
# - sql_mode empty: no mode that changes how the plan's SQL reads (ANSI_QUOTES,
#   PIPES_AS_CONCAT, NO_BACKSLASH_ESCAPES, MariaDB's EMPTY_STRING_IS_NULL and ORACLE) or what a
#   CHAR column returns (PAD_CHAR_TO_FULL_LENGTH);
# and every transaction of the session read only (a statement of its own: the variable behind it
# is named differently in MySQL and MariaDB). The character set is utf8mb4 (the client's
# `charset`), so that text of any plane travels whole.
MYSQL_SESSION = ["set time_zone = '+00:00', sql_mode = ''", "set session transaction read only"]


def mysql_client(url: str) -> Any:
    """A MySQL (or MariaDB) client session to a mysql:// URL, in utf8mb4, that commits only when
    told: a reading session is then made read only, an apply's writing one is not
    (sync/sql/sessions.py)."""
    import pymysql

    parts = urlsplit(url)
    if parts.scheme != "mysql" or not parts.hostname or parts.query:
        raise ValueError(
            "malformed URL: expected mysql://user:password@host:port/database, without options"
        )
    return pymysql.connect(
        host=parts.hostname,
        port=parts.port or 3306,
        user=unquote(parts.username or ""),
        password=unquote(parts.password or ""),
        database=unquote(parts.path.lstrip("/")) or None,
        charset="utf8mb4",
        connect_timeout=10,
        autocommit=False,
    )


def _mysql_session(url: str, timeout: float | None) -> Any:
    connection = mysql_client(url)
    with connection.cursor() as cursor:
        for statement in MYSQL_SESSION:
            cursor.execute(statement)
        if timeout:
            cursor.execute("select version()")
            (version,) = cursor.fetchone()
            # MariaDB bounds any statement in seconds; MySQL bounds a SELECT in milliseconds
            # (at least 1: 0 is no limit).
            if "mariadb" in version.lower():
                cursor.execute(f"set max_statement_time = {timeout:.6f}")
            else:
                cursor.execute(f"set max_execution_time = {max(1, round(timeout * 1000))}")
    connection.commit()
    return connection


def _mysql_kill(session: Any, thread: int) -> None:
    """Stops the query ``session`` runs, from a session of its own with the same credentials
    (MySQL's protocol has no cancel)."""
    import pymysql

    connection = pymysql.connect(
        host=session.host,
        port=session.port,
        user=session.user,
        password=session.password,
        connect_timeout=5,
    )
    try:
        with connection.cursor() as cursor:
            cursor.execute("kill query %s", [thread])
    finally:
        connection.close()


def _mysql_parameter(value: Any) -> Any:
    """A list (cells, keys, blocks) as the JSON array parity's SQL reads with json_table."""
    return json.dumps(value) if isinstance(value, list) else value


def _duckdb_session(path: str, allowed_paths: Sequence[str]) -> Any:
    """The database at ``path``, read-only, in a DuckDB of its own that reads no other file but
    ``allowed_paths`` (files, and directories with all they hold: what the database's views
    read), installs and loads no extension, attaches no other database and whose settings no
    query can change. Its own instance: DuckDB shares one per file in a process, and a locked
    configuration would refuse the next session's settings."""
    import duckdb

    session = duckdb.connect(
        ":memory:",
        config={"autoinstall_known_extensions": False, "autoload_known_extensions": False},
    )
    try:
        session.execute(f"attach {_duckdb_text(path)} (read_only)")
        (name,) = session.execute(
            "select database_name from duckdb_databases() where not internal"
            " and database_name <> 'memory'"
        ).fetchone()
        session.execute(f"use {_duckdb_name(name)}")
        allowed = [os.path.abspath(entry) for entry in allowed_paths]
        directories = [os.path.join(entry, "") for entry in allowed if os.path.isdir(entry)]
        files = [entry for entry in allowed if not os.path.isdir(entry)]
        session.execute(f"set allowed_directories = {_duckdb_list(directories)}")
        session.execute(f"set allowed_paths = {_duckdb_list(files)}")
        session.execute("set enable_external_access = false")
        session.execute("set lock_configuration = true")
    except Exception:
        session.close()
        raise
    return session


def _duckdb_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _duckdb_name(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _duckdb_list(texts: list[str]) -> str:
    return "[" + ", ".join(_duckdb_text(text) for text in texts) + "]"
