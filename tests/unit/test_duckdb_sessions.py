"""parity only reads DuckDB: a session runs one SELECT per query and writes nothing, whatever SQL
reaches it; a statement timeout bounds each query, and a cancel stops it; a session reads no file
but its source's allowed paths, reaches no network, loads no extension and changes no setting;
and two sessions of one database each keep their own settings. (The PostgreSQL sessions, and
DuckDB sources in a dbt run: tests/integration/test_read_only_sessions.py.)"""

from __future__ import annotations

import duckdb
import pytest

from parity.sides.connections import QueryError, connect
from tests.cancelled_query import stopped_within


def session(url, monkeypatch, dialect="postgres", timeout=None):
    monkeypatch.setenv("PARITY_TEST_SESSION", url)
    return connect(dialect, "PARITY_TEST_SESSION", "p", "source relation t", timeout)


def test_duckdb_cancel_stops_a_running_query(tmp_path, monkeypatch):
    path = tmp_path / "legacy.duckdb"
    duckdb.connect(str(path)).close()
    connection = session(str(path), monkeypatch, dialect="duckdb")
    try:
        assert stopped_within(connection, "select count(*) from range(100000000000)") < 10
    finally:
        connection.close()


def test_duckdb_runs_one_select_and_writes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "legacy.duckdb"
    with duckdb.connect(str(path)) as writer:
        writer.execute("create table canary (x int)")
    connection = session(str(path), monkeypatch, dialect="duckdb", timeout=1)
    try:
        for sql in (
            f"copy (select 1) to '{tmp_path / 'out.csv'}'",
            "select 1; drop table canary",
            "drop table canary",
        ):
            with pytest.raises(QueryError, match="exactly one select"):
                connection.query(sql)
        assert connection.query("select count(*) from canary") == [(0,)]
        with pytest.raises(QueryError, match="statement timeout of 1 s"):
            connection.query("select count(*) from range(100000000000)")
    finally:
        connection.close()
    assert not (tmp_path / "out.csv").exists()


# What a DuckDB session may not do, whatever SQL reaches it: read a file its source did not
# allow, write one, reach the network, install or load an extension, attach another database,
# or change a setting. Each is one SELECT, or a statement DuckDB runs before any check of
# parity's (`extract_statements` only reads it).
DUCKDB_PROBES = [
    "select * from read_text('/proc/self/environ')",
    "select * from read_csv('/etc/passwd')",
    "select * from read_parquet('s3://parity-probe/x.parquet')",
    "select * from read_csv('https://parity.invalid/x.csv')",
    "select * from glob('/etc/*')",
    "select * from read_csv('{allowed}/../secret.csv')",
    "select * from read_csv('{tmp}/secret.csv')",
    "select * from from_secret_view",
]
# The session's settings, whatever a statement tries (run on the handle: parity's query would
# refuse them before DuckDB sees them).
DUCKDB_STATEMENTS = [
    "install httpfs",
    "load httpfs",
    "set enable_external_access = true",
    "reset lock_configuration",
    "set allowed_paths = ['/etc/passwd']",
    "attach '{tmp}/other.duckdb'",
    "copy (select 1) to '{tmp}/out.csv'",
]


@pytest.fixture
def duckdb_files(tmp_path):
    """A database with a view on an allowed file and one on a file not allowed."""
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "orders.csv").write_text("order_id,amount\n1,2.5\n")
    (tmp_path / "secret.csv").write_text("secret\nplanted-secret\n")
    path = tmp_path / "legacy.duckdb"
    with duckdb.connect(str(path)) as writer:
        writer.execute("create table canary (x int)")
        writer.execute(f"create view orders as select * from read_csv('{allowed}/orders.csv')")
        writer.execute(f"create view from_secret_view as select * from '{tmp_path}/secret.csv'")
    return tmp_path


def test_duckdb_reads_no_file_but_its_allowed_paths(duckdb_files, monkeypatch):
    tmp, allowed = duckdb_files, duckdb_files / "allowed"
    monkeypatch.setenv("PARITY_TEST_SESSION", str(tmp / "legacy.duckdb"))
    connection = connect("duckdb", "PARITY_TEST_SESSION", "p", "source relation t", 60, [allowed])
    try:
        assert connection.query("select * from orders") == [(1, 2.5)]
        for sql in DUCKDB_PROBES:
            with pytest.raises(QueryError, match="disabled by configuration") as raised:
                connection.query(sql.format(tmp=tmp, allowed=allowed))
            assert "planted-secret" not in str(raised.value)
        for sql in DUCKDB_STATEMENTS:
            with pytest.raises(duckdb.Error, match=r"disabled|locked"):
                connection.handle.execute(sql.format(tmp=tmp))
        assert connection.query("select count(*) from canary") == [(0,)]
        settings = connection.query(
            "select name, value from duckdb_settings() where name in ('enable_external_access',"
            " 'autoinstall_known_extensions', 'autoload_known_extensions', 'lock_configuration')"
            " order by name"
        )
        assert settings == [
            ("autoinstall_known_extensions", "false"),
            ("autoload_known_extensions", "false"),
            ("enable_external_access", "false"),
            ("lock_configuration", "true"),
        ]
    finally:
        connection.close()
    assert not (tmp / "out.csv").exists() and not (tmp / "other.duckdb").exists()


def test_duckdb_sessions_of_one_database_each_have_their_own_settings(duckdb_files, monkeypatch):
    """Two sessions at once of one database, the second allowing nothing: DuckDB would share one
    instance, and its locked settings, between them."""
    tmp = duckdb_files
    monkeypatch.setenv("PARITY_TEST_SESSION", str(tmp / "legacy.duckdb"))
    first = connect("duckdb", "PARITY_TEST_SESSION", "p", "t", None, [tmp / "allowed"])
    second = connect("duckdb", "PARITY_TEST_SESSION", "p", "t", None, [])
    try:
        assert first.query("select count(*) from orders") == [(1,)]
        with pytest.raises(QueryError, match="disabled by configuration"):
            second.query("select count(*) from orders")
        assert second.query("select count(*) from canary") == [(0,)]
    finally:
        first.close()
        second.close()
