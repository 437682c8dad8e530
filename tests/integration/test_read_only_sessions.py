"""parity only reads: every session to PostgreSQL or DuckDB is read-only and runs one statement
per query, whatever SQL reaches it; a statement timeout bounds each query; and a session that
cannot be opened says why, with no secret in the message. A DuckDB session alone, which needs no
server, is tested in tests/unit/test_duckdb_sessions.py; a missing driver in
tests/unit/test_missing_driver.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import duckdb
import psycopg
import pytest
import yaml

from parity.sides.connections import QueryError, connect
from tests.cancelled_query import stopped_within
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import (
    DUCKDB_ENV,
    POSTGRES_ENV,
    engine_sources,
    reconcile,
    remote_pair,
)
from tests.integration.run_results import PublishedRun, error_of, pair_error

INJECTION = (
    "true)) as canonical) as canonical group by __parity_k0) as per_key;"
    " drop table public.canary; commit; select 1 from (select 1 as __parity_k0 from"
    " (select 1 from (select 1 where (true"
)
# Each write, and why PostgreSQL refuses it: one statement per query, and that one read-only.
WRITES = [
    ("select 1; drop table public.canary", "multiple commands"),
    ("drop table public.canary", "cannot execute DROP TABLE in a read-only transaction"),
    (
        "select set_config('transaction_read_only', 'off', true); drop table public.canary",
        "multiple commands",
    ),
    ("select set_config('transaction_read_only', 'off', true)", "before any query"),
]


@pytest.fixture
def canary(postgres_url):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("create table if not exists public.canary (x int)")
    yield postgres_url


def canary_alive(url: str) -> bool:
    with psycopg.connect(url) as connection:
        return connection.execute("select to_regclass('public.canary') is not null").fetchone()[0]


def session(url, monkeypatch, dialect="postgres", timeout=None):
    monkeypatch.setenv("PARITY_TEST_SESSION", url)
    return connect(dialect, "PARITY_TEST_SESSION", "p", "source relation t", timeout)


@pytest.mark.parametrize(("sql", "reason"), WRITES)
def test_postgres_refuses_every_write_and_second_statement(canary, monkeypatch, sql, reason):
    connection = session(canary, monkeypatch)
    try:
        with pytest.raises(QueryError, match=reason):
            connection.query(sql)
        assert connection.query("select 1") == [(1,)]  # the session stays usable
    finally:
        connection.close()
    assert canary_alive(canary)


def test_postgres_statement_timeout_stops_a_query(postgres_url, monkeypatch):
    connection = session(postgres_url, monkeypatch, timeout=1)
    try:
        with pytest.raises(QueryError, match="statement timeout of 1 s"):
            connection.query("select pg_sleep(3)")
    finally:
        connection.close()


def test_a_query_changes_no_setting_of_the_next(postgres_url, monkeypatch):
    """Each query's transaction is rolled back, and a setting it changed with it: here, the
    statement timeout that a query switches off still stops the next one."""
    connection = session(postgres_url, monkeypatch, timeout=1)
    try:
        assert connection.query("select set_config('statement_timeout', '0', false)") == [("0",)]
        with pytest.raises(QueryError, match="statement timeout of 1 s"):
            connection.query("select pg_sleep(3)")
    finally:
        connection.close()


def test_postgres_plans_each_query_for_the_cells_it_lists(postgres_url, monkeypatch):
    """A prepared query keeps a plan made for its bound array past the fifth run, where a generic
    plan would test each row against the whole array of listed cells."""
    connection = session(postgres_url, monkeypatch)
    try:
        for cells in range(7):
            listed = connection.query(
                "select count(*) from generate_series(1, 100) as g(n)"
                " where n = any(cast($1 as numeric[]))",
                [list(range(cells))],
            )
            assert listed == [(max(cells - 1, 0),)]
        assert connection.query("show plan_cache_mode") == [("force_custom_plan",)]
    finally:
        connection.close()


def test_postgres_cancel_stops_a_running_query(postgres_url, monkeypatch):
    """What an interrupted dbt calls for each running query (sessions_in_flight)."""
    connection = session(postgres_url, monkeypatch)
    try:
        assert stopped_within(connection, "select pg_sleep(30)") < 10
        assert connection.query("select 1") == [(1,)]
    finally:
        connection.close()


def test_postgres_sessions_end_the_query_of_a_client_gone(postgres_url, monkeypatch):
    connection = session(postgres_url, monkeypatch)
    try:
        assert connection.query("select current_setting('client_connection_check_interval')") == [
            ("1s",)
        ]
    finally:
        connection.close()


def test_an_injected_filter_leaves_postgres_untouched(scratch, canary, remote_legacy):
    pair = remote_pair(
        "injected",
        "legacy_pg",
        {"ref": "legacy_orders"},
        where={"source": INJECTION, "target": "1=1"},
    )
    result = reconcile(scratch, [pair])
    assert not result.success
    message = error_text(result)
    assert "parity pair 'injected': the source side's where is refused (postgres)" in message
    assert INJECTION in message
    assert canary_alive(canary)


def password_of(url: str) -> str:
    return url.split("//", 1)[1].split("@", 1)[0].split(":", 1)[1]


# Each way a connection fails, and why the pair says it does: (dialect, the URL made from the
# working one, the reason). Each case is a source of its own, read through a variable of its own,
# so that every case is a pair of one run.
FAILURES = {
    "password": (
        "postgres",
        lambda url: url.replace(password_of(url), "wrong-password"),
        "authentication failed",
    ),
    "port": ("postgres", lambda url: url.rsplit(":", 1)[0] + ":1/postgres", "connection refused"),
    "database": ("postgres", lambda url: url.rsplit("/", 1)[0] + "/nosuchdb", "unknown database"),
    "url": ("postgres", lambda url: url.replace("parity:", "parity%zz:"), "malformed URL"),
    # The driver quotes the malformed token: here, the password itself.
    "url_password": (
        "postgres",
        lambda url: url.replace(f":{password_of(url)}@", f":%zz{password_of(url)}@"),
        "malformed URL",
    ),
    "duckdb_file": ("duckdb", lambda _: "/nonexistent/moved-away.duckdb", "unknown database"),
}
SCHEMAS = {"postgres": "public", "duckdb": "main"}


def variable(case: str) -> str:
    """The variable the case's source reads its connection from."""
    return f"PARITY_TEST_FAILING_{case.upper()}"


def failing_sources() -> str:
    sources = [
        {
            "name": f"failing_{case}",
            "schema": SCHEMAS[dialect],
            "meta": {"parity": {"dialect": dialect, "connection_env": variable(case)}},
            "tables": [{"name": "orders"}],
        }
        for case, (dialect, _, _) in FAILURES.items()
    ]
    return yaml.safe_dump({"version": 2, "sources": sources})


# A second pair read through the wrong password's variable: one session, one failure, one line.
SHARING = "password_again"
PLANNED = "<parity_plan built>"


@pytest.fixture(scope="module")
def connection_failures(scratch, spark, remote_legacy) -> dict[str, Any]:
    """Each case's pair reconciled in one run, with a second pair sharing the wrong password's
    variable: by case, the URL it was given and the pair's error; and what the run logged, with
    a line where the plan was built."""
    urls = {case: change(remote_legacy) for case, (_, change, _) in FAILURES.items()}
    pairs = [remote_pair(case, f"failing_{case}", {"ref": "legacy_orders"}) for case in FAILURES]
    pairs.append(remote_pair(SHARING, "failing_password", {"ref": "lakehouse_orders"}))
    logged: list[str] = []
    try:
        with pytest.MonkeyPatch.context() as environment:
            for case, url in urls.items():
                environment.setenv(variable(case), url)
            scratch.write("models/failing_sources.yml", failing_sources())
            result = scratch.dbt(
                "run",
                "--select",
                "parity_remote_relations+",
                vars=scratch.demo_vars(parity={"pairs": pairs}),
                logged=logged,
                after_model={"parity_plan": lambda: logged.append(PLANNED)},
                parse_once=True,
            )
    finally:
        (scratch.path / "models/failing_sources.yml").unlink()
    assert result.success, error_text(result)
    summaries, _, _ = PublishedRun.read(spark, scratch.schema).of(pairs)
    errors = {name: (urls.get(name), error_of(summaries[name])) for name in [*FAILURES, SHARING]}
    return {"errors": errors, "logged": logged}


@pytest.mark.parametrize("case", FAILURES)
def test_connection_failures_say_why_without_the_secret(connection_failures, remote_legacy, case):
    dialect, _, reason = FAILURES[case]
    url, message = connection_failures["errors"][case]
    relation = f"{SCHEMAS[dialect]}.orders"
    assert (
        f"parity pair '{case}': source relation {relation}: cannot connect to {dialect} through"
        f" {variable(case)}: {reason}: "
    ) in message
    assert password_of(remote_legacy) not in message and url not in message


def test_a_connection_fails_once_in_the_plan_for_every_pair_using_it(connection_failures):
    """The variable's session is opened once in the plan: its failure is one line naming both
    pairs, logged before the plan is built (not after the reconciliation), and both pairs are
    errors with the reason; the reconciliation does not say it again."""
    logged = connection_failures["logged"]
    said = [line for line in logged if "authentication failed" in line]
    reason = f"cannot connect to postgres through {variable('password')}: authentication failed"
    first = next(n for n, line in enumerate(logged) if reason in line)
    assert logged[first].startswith(f"parity: {reason}")
    assert logged[first].endswith(f"not planned: pairs 'password', '{SHARING}'")
    assert first < logged.index(PLANNED)
    # Besides it, only the report's line of each pair.
    assert [line for line in said if not line.startswith("  not reconciled: ")] == [logged[first]]
    errors = connection_failures["errors"]
    for name in ("password", SHARING):
        assert f"parity pair '{name}': source relation public.orders: {reason}" in errors[name][1]
    assert f"parity pair '{SHARING}': not reconciled: not planned (see the plan)" in logged


def test_the_password_appears_in_no_plan_result_or_log(scratch, spark, remote_legacy):
    logged: list[str] = []
    pair = remote_pair("migrated", "legacy_pg", {"ref": "lakehouse_orders"}, enforce_key="warn")
    assert reconcile(scratch, [pair], logged=logged).success
    password = password_of(remote_legacy)
    assert logged and not [line for line in logged if password in line]
    # Every relation of the schema (plan, remote relations and columns, results, history), and
    # everything dbt logged in this session's runs of the project, failed runs included.
    # (Less dbt's own leftovers, the temporary view of an incremental model a failed run left,
    # and the session's temporary views, which every schema lists: files parity read.)
    tables = [
        t.name
        for t in spark.catalog.listTables(scratch.schema)
        if not t.name.endswith("__dbt_tmp") and not t.isTemporary
    ]
    assert {"parity_plan", "parity_remote_relations", "parity_run_results"} <= set(tables)
    for table in tables:
        for row in spark.table(f"{scratch.schema}.{table}").collect():
            assert password not in str(row.asDict()), table
    assert password not in (scratch.path / "logs" / "dbt.log").read_text()


BOUNDED_SOURCES = "models/bounded_sources.yml"
FILES_ENV = "PARITY_TEST_FILES_DUCKDB"


def bounded_sources(files_folder: Path | None = None, **timeouts) -> str:
    """PostgreSQL sources of the legacy orders, each with the statement timeout it is given;
    with ``files_folder``, two DuckDB sources of a view reading the orders' Parquet files there,
    one allowing that folder and one not."""
    parity = {"dialect": "postgres", "connection_env": POSTGRES_ENV}
    sources = [
        {
            "name": name,
            "schema": "public",
            "meta": {"parity": {**parity, "statement_timeout_seconds": timeout}},
            "tables": [{"name": "orders"}, {"name": "slow_orders"}],
        }
        for name, timeout in timeouts.items()
    ]
    if files_folder:
        files = {"dialect": "duckdb", "connection_env": FILES_ENV}
        allowing = {**files, "allowed_paths": [str(files_folder / "orders.parquet")]}
        sources += [
            {
                "name": name,
                "schema": "main",
                "meta": {"parity": meta},
                "tables": [{"name": "orders"}],
            }
            for name, meta in (("files_allowed", allowing), ("files_denied", files))
        ]
    return yaml.safe_dump({"version": 2, "sources": sources})


def test_a_timeout_that_is_not_a_number_fails_the_run(scratch, remote_legacy):
    pair = remote_pair("bounded", "legacy_pg_bounded", {"ref": "legacy_orders"})
    try:
        scratch.write(BOUNDED_SOURCES, bounded_sources(legacy_pg_bounded="soon"))
        refused = reconcile(scratch, [pair])
    finally:
        (scratch.path / BOUNDED_SOURCES).unlink()
    assert not refused.success
    assert (
        "source legacy_pg_bounded.orders: parity.statement_timeout_seconds must be a number"
        " of seconds, 0 for no limit, not 'soon'"
    ) in error_text(refused)


def test_allowed_paths_that_are_not_a_list_of_paths_fail_the_run(scratch, remote_legacy):
    pair = remote_pair("allowing", "legacy_duckdb_allowing", {"ref": "legacy_orders"})
    sources = engine_sources(
        "legacy_duckdb_allowing", "duckdb", DUCKDB_ENV, "main", ["orders"], allowed_paths="/etc"
    )
    try:
        scratch.write(BOUNDED_SOURCES, sources)
        refused = reconcile(scratch, [pair])
    finally:
        (scratch.path / BOUNDED_SOURCES).unlink()
    assert not refused.success
    assert (
        "source legacy_duckdb_allowing.orders: parity.allowed_paths must be a list of paths"
        " (files or directories), not '/etc'"
    ) in error_text(refused)


@pytest.fixture(scope="module")
def bounded_run(scratch, spark, remote_legacy) -> dict[str, Any]:
    """One run of pairs from sources with a statement timeout: one allowing 600 s, one allowing
    1 s that reads a view taking 3 s (its catalog reads in time; the pair's first query is
    stopped by PostgreSQL), one with no limit (0) and one that names none (the default); and of
    a DuckDB view reading Parquet files, from a source allowing their folder and one not. What
    each test reads of it, read as the run ends."""
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        connection.execute(
            "create or replace view public.slow_orders as"
            " select o.* from public.orders as o cross join pg_sleep(3)"
        )
    folder = Path(os.environ[DUCKDB_ENV]).parent
    files_database = folder / "files.duckdb"
    with duckdb.connect(str(files_database)) as writer:
        writer.execute(
            "create or replace view orders as select * from"
            f" read_parquet('{folder}/orders.parquet/*.parquet')"
        )
    bounded = remote_pair("bounded", "legacy_pg_bounded", {"ref": "legacy_orders"})
    slow = remote_pair("slow", "legacy_pg_hurried", {"ref": "legacy_orders"})
    slow["source"] = {"source": ["legacy_pg_hurried", "slow_orders"]}
    unlimited = remote_pair("unlimited", "legacy_pg_unlimited", {"ref": "legacy_orders"})
    defaulted = remote_pair("defaulted", "legacy_pg", {"ref": "legacy_orders"})
    allowed = remote_pair("files_allowed", "files_allowed", {"ref": "legacy_orders"})
    denied = remote_pair("files_denied", "files_denied", {"ref": "legacy_orders"})
    pairs = [bounded, slow, unlimited, defaulted, allowed, denied]
    try:
        with pytest.MonkeyPatch.context() as environment:
            environment.setenv(FILES_ENV, str(files_database))
            timeouts = bounded_sources(
                folder, legacy_pg_bounded=600, legacy_pg_hurried=1, legacy_pg_unlimited=0
            )
            scratch.write(BOUNDED_SOURCES, timeouts)
            result = reconcile(scratch, pairs)
    finally:
        (scratch.path / BOUNDED_SOURCES).unlink()
    assert result.success, error_text(result)
    plan = {row["pair_name"]: row for row in spark.table(f"{scratch.schema}.parity_plan").collect()}
    summaries, _, _ = PublishedRun.read(spark, scratch.schema).of(pairs)
    return {
        "timeouts": {
            name: plan[name]["source_statement_timeout_seconds"]
            for name in ("bounded", "unlimited", "defaulted")
        },
        "allowed_paths": {
            name: json.loads(plan[name]["source_allowed_paths"])
            for name in ("files_allowed", "files_denied")
        },
        "folder": folder,
        "passed": {name: summaries[name]["passed"] for name in summaries},
        "slow_error": pair_error(spark, scratch.schema, "slow"),
        "denied_error": pair_error(spark, scratch.schema, "files_denied"),
    }


def test_a_source_sets_its_statement_timeout(bounded_run):
    assert float(bounded_run["timeouts"]["bounded"]) == 600


def test_every_session_has_a_statement_timeout_unless_its_source_turns_it_off(bounded_run):
    assert float(bounded_run["timeouts"]["defaulted"]) == 3600
    assert bounded_run["timeouts"]["unlimited"] == ""
    assert bounded_run["passed"]["unlimited"] and bounded_run["passed"]["defaulted"]


def test_a_duckdb_view_reads_files_only_from_its_allowed_paths(bounded_run):
    folder = bounded_run["folder"]
    assert bounded_run["allowed_paths"] == {
        "files_allowed": [str(folder / "orders.parquet")],
        "files_denied": [],
    }
    assert bounded_run["passed"]["files_allowed"]
    message = bounded_run["denied_error"]
    assert "parity pair 'files_denied': source relation" in message
    assert "file system operations are disabled by configuration" in message


def test_a_query_past_its_timeout_fails_the_pair_naming_the_timeout(bounded_run):
    message = bounded_run["slow_error"]
    assert "parity pair 'slow': source relation" in message and "slow_orders" in message
    assert "could not run the pair's SQL: statement timeout of 1 s: " in message
