"""A PostgreSQL table's change fingerprint, from the server's statistics counters: no scan. Every
change of its rows (an insert, an update, a delete, a TRUNCATE and reload of the same rows)
gives another; where it cannot be trusted (an unlogged or temporary table, a view, a
materialized view, a partitioned table, counters off, another session recently active or in a
transaction, another role's session hidden) it is refused with the reason, and the pair falls
back on its first pass's checksums. Checked against a scan: it never says unchanged where the
table's contents changed. Through dbt: an unchanged re-run of a PostgreSQL pair is kept by it,
with no first pass.

Each test works in a database of its own, so that no other test's sessions count as activity."""

from __future__ import annotations

import json
import random
import time
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

from parity.sides.connections import connect
from parity.sides.pg_fingerprint import FLUSH_WINDOW_SECONDS, postgres_fingerprint
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import POSTGRES_TABLE, engine_sources, reconcile
from tests.integration.run_results import PublishedRun

DATABASE = "parity_fingerprints"
ENV = "PARITY_TEST_FINGERPRINTS_PG"
SOURCES_FILE = "models/fingerprinted_sources.yml"
ROWS = (
    "insert into orders (order_id, customer_id, status)"
    " select i, i % 7, 'new' from generate_series(1, 50) as i"
)


def in_database(url: str, database: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{database}"))


@pytest.fixture(scope="module")
def url(postgres_admin_url, postgres_url) -> str:
    """A database of the tests' own, owned by the role parity reads as."""
    with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("drop database if exists {}").format(sql.Identifier(DATABASE)))
        admin.execute(sql.SQL("create database {} owner parity").format(sql.Identifier(DATABASE)))
    return in_database(postgres_url, DATABASE)


@pytest.fixture
def session(url, monkeypatch):
    """parity's read-only session to the database, as the plan opens it."""
    monkeypatch.setenv(ENV, url)
    connection = connect("postgres", ENV, "fingerprints", "the test")
    yield connection
    connection.close()


@pytest.fixture
def orders(url, session):
    """A fresh table `orders` of 50 rows, its writer gone, and every session of the tests before."""
    wait_gone_others(session)
    change(url, session, "drop table if exists orders cascade", POSTGRES_TABLE, ROWS)
    return "orders"


def wait_gone_others(session) -> None:
    """Until no session but parity's is left in the database (those of the tests above exit)."""
    deadline = time.monotonic() + 10
    others = (
        "select count(*) from pg_stat_activity where datname = current_database()"
        " and pid <> pg_backend_pid() and application_name is distinct from 'parity'"
        " and backend_type = 'client backend'"
    )
    while session.query(others)[0][0]:
        assert time.monotonic() < deadline, "another session stayed"
        time.sleep(0.05)


def change(url: str, session, *statements: str) -> None:
    """The statements in a session of their own, closed and gone: a backend flushes its counters
    before it leaves pg_stat_activity."""
    with psycopg.connect(url, autocommit=True) as writer:
        pid = writer.info.backend_pid
        for statement in statements:
            writer.execute(statement)
    wait_gone(session, pid)


def wait_gone(session, pid: int) -> None:
    """Until backend ``pid`` has left pg_stat_activity (its counters flushed)."""
    deadline = time.monotonic() + 10
    while session.query("select count(*) from pg_stat_activity where pid = $1", [pid])[0][0]:
        assert time.monotonic() < deadline, "the writer's backend did not exit"
        time.sleep(0.05)


def fingerprint(session, table: str, schema: str = "public") -> dict:
    return json.loads(postgres_fingerprint(session, schema, table))


def test_an_unchanged_table_keeps_its_fingerprint(session, orders):
    first = fingerprint(session, orders)
    assert first["kind"] == "pg_stats" and len(first["digest"]) == 64, first
    assert first["detail"] == "statistics counters: 50 inserted, 0 updated, 0 deleted"
    assert fingerprint(session, orders) == first


@pytest.mark.parametrize(
    "statements",
    [
        ["insert into orders (order_id) values (51)"],
        ["update orders set status = 'held' where order_id = 7"],
        # Nothing visible changes, the fingerprint does: a comparison, never a stale result.
        ["update orders set status = status where order_id = 7"],
        ["delete from orders where order_id = 7"],
        # The same rows again: a new file node, whatever the counts.
        ["truncate orders", ROWS],
        [
            "create table kept as select * from orders",
            "truncate orders",
            "insert into orders select * from kept",
            "drop table kept",
        ],
    ],
    ids=["insert", "update", "no-op update", "delete", "truncate and reload", "copied back"],
)
def test_every_change_gives_another_fingerprint(url, session, orders, statements):
    before = fingerprint(session, orders)
    change(url, session, *statements)
    after = fingerprint(session, orders)
    assert after["kind"] == "pg_stats", after
    assert after["digest"] != before["digest"]


@pytest.mark.parametrize(
    ("statements", "relation", "reason"),
    [
        (
            ["create unlogged table loose as select * from orders"],
            "loose",
            "an unlogged table: a crash empties it, uncounted",
        ),
        (
            ["create view shown as select * from orders"],
            "shown",
            "a view: its rows change without its counters",
        ),
        (
            ["create materialized view frozen as select * from orders"],
            "frozen",
            "a materialized view: its rows change without its counters",
        ),
        (
            [
                "create table split (order_id bigint) partition by range (order_id)",
                "create table split_low partition of split for values from (0) to (100)",
            ],
            "split",
            "a partitioned table: its rows change without its counters",
        ),
    ],
    ids=["unlogged", "view", "materialized view", "partitioned"],
)
def test_a_relation_whose_counters_cannot_tell_is_refused(
    url, session, orders, statements, relation, reason
):
    change(url, session, *statements)
    assert fingerprint(session, relation) == {"kind": "none", "digest": "", "detail": reason}


def test_a_temporary_table_is_refused(url, session, orders):
    with psycopg.connect(url, autocommit=True) as owner:
        owner.execute("create temporary table scratch (id int)")
        schema = owner.execute("select pg_my_temp_schema()::regnamespace::text").fetchone()[0]
        found = fingerprint(session, "scratch", schema)
    assert found["kind"] == "none"
    assert found["detail"] == "a temporary table: its session's end empties it, uncounted"


def test_another_session_recently_active_or_in_a_transaction_is_refused(url, session, orders):
    with psycopg.connect(url, autocommit=True) as other:
        other.execute("update orders set status = 'held' where order_id = 8")
        # Idle now, but its counts may still be pending.
        found = fingerprint(session, orders)
        assert found["kind"] == "none", found
        assert found["detail"] == (
            f"1 other session(s) of the database active, in a transaction or active within"
            f" {FLUSH_WINDOW_SECONDS} s: their changes may not be counted yet"
        )
    with psycopg.connect(url) as other:  # a transaction left open
        other.execute("select 1")
        assert fingerprint(session, orders)["kind"] == "none"
    # parity's own sessions are read only, and do not count.
    extra = connect("postgres", ENV, "fingerprints", "another of parity's sessions")
    try:
        extra.query("select 1")
        wait_gone_others(session)
        assert fingerprint(session, orders)["kind"] == "pg_stats"
    finally:
        extra.close()


def test_another_roles_hidden_session_is_refused(url, postgres_admin_url, session, orders):
    with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
        admin.execute("drop role if exists stranger")
        admin.execute("create role stranger login password 'stranger'")
        admin.execute(
            sql.SQL("grant connect on database {} to stranger").format(sql.Identifier(DATABASE))
        )
    parts = urlsplit(url)
    stranger = urlunsplit(parts._replace(netloc=f"stranger:stranger@{parts.hostname}:{parts.port}"))
    try:
        with psycopg.connect(stranger, autocommit=True):
            found = fingerprint(session, orders)
        assert found["kind"] == "none", found
        assert found["detail"].startswith("pg_stat_activity hides the state of 1 session(s)")
    finally:
        with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("revoke connect on database {} from stranger").format(
                    sql.Identifier(DATABASE)
                )
            )
            admin.execute("drop role stranger")


def test_counters_off_are_refused(url, postgres_admin_url, monkeypatch, orders):
    with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
        admin.execute(
            sql.SQL("alter database {} set track_counts = off").format(sql.Identifier(DATABASE))
        )
    try:
        monkeypatch.setenv(ENV, url)
        fresh = connect("postgres", ENV, "fingerprints", "the test")
        try:
            found = fingerprint(fresh, orders)
        finally:
            fresh.close()
        assert found == {
            "kind": "none",
            "digest": "",
            "detail": "track_counts is off: the server counts no change",
        }
    finally:
        with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("alter database {} reset track_counts").format(sql.Identifier(DATABASE))
            )


def test_counters_set_apart_for_a_role_are_refused(postgres_admin_url, session, orders):
    with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
        admin.execute("drop role if exists uncounted")
        admin.execute("create role uncounted")
        admin.execute("alter role uncounted set track_counts = off")
    try:
        assert fingerprint(session, orders)["detail"] == (
            "track_counts is set for a role or database: another session may count no change"
        )
    finally:
        with psycopg.connect(postgres_admin_url, autocommit=True) as admin:
            admin.execute("drop role uncounted")


def test_the_fingerprint_never_says_unchanged_where_a_scan_says_changed(url, session, orders):
    """Random changes, some of them none: wherever the table's contents differ from the last
    scan, so does its fingerprint."""
    scan = "select md5(coalesce(string_agg(t::text, ',' order by order_id), '')) from orders as t"
    statements = [
        "insert into orders (order_id, status)"
        " select coalesce(max(order_id), 0) + 1, 'x' from orders",
        "update orders set status = 'y' where order_id = (select min(order_id) from orders)",
        "update orders set status = status where order_id = 3",
        "delete from orders where order_id = (select max(order_id) from orders)",
        "update orders set customer_id = 0 where false",
        "select 1",
    ]
    generator = random.Random(48)
    last = (fingerprint(session, orders)["digest"], session.query(scan)[0][0])
    for _ in range(20):
        change(url, session, *generator.sample(statements, 2))
        now = (fingerprint(session, orders)["digest"], session.query(scan)[0][0])
        assert now[0], "refused"
        if now[1] != last[1]:
            assert now[0] != last[0], "the fingerprint missed a change the scan saw"
        last = now


# Through dbt: the pair's state carries the fingerprint.


def pg_pair(name: str, table: str) -> dict:
    return {
        "name": name,
        "source": {"source": ["fingerprinted_pg", table]},
        "target": {"ref": "legacy_orders"},
        "key": "order_id",
    }


@pytest.fixture(scope="module")
def fingerprinted_runs(scratch, spark, remote_legacy, url):
    """The legacy orders in the tests' database, as a table and behind a view: run, run again
    unchanged, then run after one row changed while another session was just active."""
    with psycopg.connect(remote_legacy, autocommit=True) as legacy:
        rows = legacy.execute("select * from orders").fetchall()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("drop table if exists legacy cascade")
        connection.execute(POSTGRES_TABLE.replace("table orders", "table legacy"))
        with connection.cursor() as cursor:
            marks = ", ".join(["%s"] * len(rows[0]))
            cursor.executemany(f"insert into legacy values ({marks})", rows)
        connection.execute("create view legacy_view as select * from legacy")
        writer = connection.info.backend_pid
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv(ENV, url)
        watcher = connect("postgres", ENV, "fingerprints", "the test")
        try:
            wait_gone(watcher, writer)
        finally:
            watcher.close()
    tables = ["legacy", "legacy_view"]
    with scratch.file(
        SOURCES_FILE, engine_sources("fingerprinted_pg", "postgres", ENV, "public", tables)
    ):
        pairs = [pg_pair("fingerprinted", "legacy"), pg_pair("through_view", "legacy_view")]
        found = []
        with pytest.MonkeyPatch.context() as environment:
            environment.setenv(ENV, url)
            for step in ("first", "unchanged", "changed"):
                logged: list[str] = []
                if step == "changed":
                    with psycopg.connect(url, autocommit=True) as other:
                        other.execute("update legacy set status = 'held' where order_id = 7")
                        result = reconcile(scratch, pairs, logged)
                else:
                    result = reconcile(scratch, pairs, logged)
                assert result.success, error_text(result)
                summaries, _, plans = PublishedRun.read(spark, scratch.schema).of(pairs)
                found.append((summaries, plans, logged))
        yield found


def test_an_unchanged_postgres_pair_is_kept_by_its_fingerprint_without_a_scan(fingerprinted_runs):
    (first, _, _), (second, plans, logged), _ = fingerprinted_runs
    kept = second["fingerprinted"]
    assert kept["run_mode"] == "unchanged", kept
    assert kept["run_mode_reason"] == f"unchanged since run {first['fingerprinted']['run_id']}"
    assert json.loads(plans["fingerprinted"].source.fingerprint)["kind"] == "pg_stats"
    # Nothing read: neither a first pass nor anything after it.
    assert any(
        line.startswith("parity pair 'fingerprinted': unchanged since run")
        and line.endswith(": nothing compared")
        for line in logged
    )


def test_a_view_is_refused_and_kept_by_its_checksums(fingerprinted_runs):
    (first, _, _), (second, _, logged), _ = fingerprinted_runs
    viewed = second["through_view"]
    assert viewed["run_mode"] == "unchanged", viewed
    assert viewed["run_mode_reason"] == (
        f"unchanged since run {first['through_view']['run_id']}: the source has no input"
        " fingerprint (a view: its rows change without its counters), but both sides'"
        " whole-table checksums are that run's"
    )
    # Read by its first pass, and nothing after it.
    assert any(
        line.startswith("parity pair 'through_view': unchanged since run")
        and line.endswith(": nothing more compared")
        for line in logged
    )


def test_a_change_made_beside_an_active_session_is_compared_by_checksums(fingerprinted_runs):
    (first, _, _), _, (third, _, _) = fingerprinted_runs
    for name in ("fingerprinted", "through_view"):
        row = third[name]
        assert row["run_mode"] == "compared", row
        assert row["run_mode_reason"].startswith("the source has no input fingerprint ("), row
        assert row["value_mismatch_rows"] == first[name]["value_mismatch_rows"] + 1, row
    assert "other session(s) of the database active" in third["fingerprinted"]["run_mode_reason"]
