"""parity only reads MySQL too (MariaDB 10.11 here): a session runs one SELECT per query in a
read-only transaction, whatever SQL reaches it; its settings make canonical text independent of
the server's defaults; a statement timeout bounds each query; and a session that cannot be
opened says why, with no secret in the message."""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

import pytest

from parity.errors import ParityError
from parity.sides.connections import QueryError, connect
from tests.cancelled_query import stopped_within
from tests.integration.mariadb_server import client

# Each write, and why it is refused: the server's read-only transaction, the client's single
# statement, parity's SELECT only.
WRITES = [
    ("select 1; drop table canary", "syntax"),
    ("select * from canary for update; drop table canary", "syntax"),
    ("drop table canary", "exactly one select"),
    ("set session transaction read write", "exactly one select"),
    ("/*! drop table canary */ select 1", "exactly one select"),
    ("select write_canary()", "READ ONLY transaction"),
    ("select * from canary into outfile '/tmp/parity_canary'", "selects into a file"),
    ("select 1 into\n dumpfile '/tmp/parity_canary'", "selects into a file"),
]


@pytest.fixture
def canary(mariadb_url):
    with client(mariadb_url) as connection, connection.cursor() as cursor:
        cursor.execute("create table if not exists canary (x int)")
        # A function that writes: a SELECT calling it is still refused by the transaction.
        cursor.execute(
            "create function if not exists write_canary() returns int modifies sql data"
            " begin insert into canary values (1); return 1; end"
        )
    yield mariadb_url


def canary_rows(url: str) -> int:
    with client(url) as connection, connection.cursor() as cursor:
        cursor.execute("select count(*) from canary")
        return cursor.fetchone()[0]


def session(url, monkeypatch, timeout=None):
    monkeypatch.setenv("PARITY_TEST_SESSION", url)
    return connect("mysql", "PARITY_TEST_SESSION", "p", "source relation t", timeout)


@pytest.mark.parametrize(("sql", "reason"), WRITES)
def test_mysql_refuses_every_write_and_second_statement(canary, monkeypatch, sql, reason):
    connection = session(canary, monkeypatch)
    try:
        with pytest.raises(QueryError, match=reason):
            connection.query(sql)
        assert connection.query("select 1") == [(1,)]  # the session stays usable
    finally:
        connection.close()
    assert canary_rows(canary) == 0


# What the tokenizer refuses before the server sees it (mysql_guard): a comment MySQL would run,
# `into` however spelled. Each would write the file, or read rows it was not asked for.
PROBES = [
    "select * from canary into/**/outfile '{file}'",
    "select 1 /*!into*/ /*!outfile '{file}'*/",
    "select 1 into outfile '{file}'",
    "select 1 from canary where (1=0 /*!) or (1=1 */)",
    "select 1 from canary # where 1=0",
    "select 1 from canary -- where 1=0",
    "select /*+ max_execution_time(0) */ sleep(0)",
]


@pytest.mark.parametrize("probe", PROBES)
def test_mysql_refuses_comments_and_into_before_the_server(canary, monkeypatch, probe):
    # Where the server (on this machine) would write it.
    written = Path(tempfile.gettempdir()) / f"parity_probe_{uuid.uuid4().hex}"
    connection = session(canary, monkeypatch)
    try:
        with pytest.raises(QueryError, match=r"in MySQL: (a comment|`into`)"):
            connection.query(probe.format(file=written))
        assert connection.query("select 1") == [(1,)]
    finally:
        connection.close()
    assert not written.exists() and canary_rows(canary) == 0


def test_mysql_quoted_text_is_data(canary, monkeypatch):
    connection = session(canary, monkeypatch)
    try:
        assert connection.query(
            "select 'into /*! outfile */ -- #', `into`.x from (select 1 as x) as `into`"
        ) == [("into /*! outfile */ -- #", 1)]
    finally:
        connection.close()


def test_mysql_cancel_stops_a_running_query(mariadb_url, monkeypatch):
    """What an interrupted dbt calls for each running query (sessions_in_flight): here
    `kill query` from a session of its own."""
    connection = session(mariadb_url, monkeypatch)
    try:
        stopped = stopped_within(connection, "select sleep(30)")
        assert stopped < 10
        assert connection.query("select 1") == [(1,)]  # the session itself lives on
    finally:
        connection.close()


def test_mysql_session_settings_and_parameters(mariadb_url, monkeypatch):
    """UTC, no sql_mode, utf8mb4 and read-only, whatever the server's defaults; parameters
    bound as user variables, lists as JSON, and a `%` in the SQL left as written."""
    connection = session(mariadb_url, monkeypatch)
    try:
        assert connection.query(
            "select @@time_zone, @@sql_mode, @@tx_read_only, @@character_set_connection, '%s'"
        ) == [("+00:00", "", 1, "utf8mb4", "%s")]
        assert connection.query(
            "select @__parity_1, @__parity_2, listed.item from json_table(@__parity_3,"
            " '$[*]' columns (item decimal(65, 0) path '$')) as listed",
            ["it's %s", 2**70, [2**64]],
        ) == [("it's %s", 2**70, 2**64)]
    finally:
        connection.close()


def test_mysql_statement_timeout_stops_a_query(mariadb_url, monkeypatch):
    connection = session(mariadb_url, monkeypatch, timeout=1)
    try:
        with pytest.raises(QueryError, match="statement timeout of 1 s"):
            connection.query("select sleep(3)")
    finally:
        connection.close()


def password_of(url: str) -> str:
    return url.split("//", 1)[1].split("@", 1)[0].split(":", 1)[1]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda url: url.replace(password_of(url), "wrong-password"), "authentication failed"),
        (lambda url: url.rsplit(":", 1)[0] + ":1/parity", "connection refused"),
        (lambda url: url.rsplit("/", 1)[0] + "/nosuchdb", "unknown database"),
        (lambda url: url + "?ssl=true", "malformed URL"),
        (lambda url: url.replace("mysql://", "mysq1://"), "malformed URL"),
    ],
    ids=["password", "port", "database", "options", "scheme"],
)
def test_mysql_connection_failures_say_why_without_the_secret(
    mariadb_url, monkeypatch, change, reason
):
    url = change(mariadb_url)
    with pytest.raises(ParityError) as raised:
        session(url, monkeypatch)
    message = str(raised.value)
    assert (
        f"source relation t: cannot connect to mysql through PARITY_TEST_SESSION: {reason}: "
        in message
    )
    assert password_of(mariadb_url) not in message and url not in message
