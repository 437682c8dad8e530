"""An apply killed while it writes leaves its PostgreSQL target as it was: its one transaction
ends with its client. dbt runs in a process of its own, on a metastore of its own; a trigger
holds the apply's first update, after its deletes and with the relation locked, until it is
killed. Let through, the same apply corrects the target."""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import psycopg
import pytest

from tests.integration.correction_tables import SOURCE, TARGET, model
from tests.integration.remote_tables import engine_sources
from tests.integration.separate_dbt import started_dbt
from tests.integration.test_apply_sql import CORRECTED, TABLE, ordered, typed
from tests.integration.test_stopped_runs import waited

ENV = "PARITY_TEST_KILLED_APPLY"
PAIR = {
    "name": "killed",
    "source": {"ref": "correction_source"},
    "target": {"source": ["killed_pg", "corrected"]},
    "key": ["id", "region"],
    "enforce_key": "warn",
    "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
    "sync": {"apply_connection_env": ENV, "max_corrections": 100},
}
HOLD = """
create function hold() returns trigger language plpgsql as
$$ begin perform pg_sleep(300); return new; end $$;
create trigger held before update on corrected for each row execute function hold();
"""
HELD = (
    "select count(*) from pg_stat_activity"
    " where state = 'active' and wait_event = 'PgSleep' and pid <> pg_backend_pid()"
    " and query ilike 'update %corrected%'"
)
ROWS = (
    "select id, region, amount, label, note,"
    " (extract(epoch from placed_at) * 1000000)::bigint from corrected"
)


def rows(url: str) -> list[tuple]:
    with psycopg.connect(url) as connection:
        return ordered(connection.execute(ROWS).fetchall())


def expected(table) -> list[tuple]:
    return ordered((*typed(r)[:5], r[5]) for r in table)


def dbt(project: Path, folder: Path, url: str, *args: str, apply: dict | None = None):
    extra: dict = {"parity": {"pairs": [PAIR]}}
    if apply is not None:
        extra["parity_apply"] = apply
    return started_dbt(project, folder, "parity_killed", list(args), extra, {ENV: url})


@pytest.fixture
def built(scratch, postgres_url, tmp_path):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop table if exists corrected cascade")
        connection.execute("drop function if exists hold cascade")
        connection.execute(TABLE)
        connection.cursor().executemany(
            "insert into corrected values (%s, %s, %s, %s, %s, %s)", [typed(r) for r in TARGET]
        )
    sources = engine_sources("killed_pg", "postgres", ENV, "public", ["corrected"])
    with (
        scratch.file("models/correction_source.sql", model(SOURCE)),
        scratch.file("models/killed_sources.yml", sources),
    ):
        run = dbt(
            scratch.path,
            tmp_path,
            postgres_url,
            "run",
            "--select",
            "correction_source parity_remote_relations+",
        )
        assert run.wait(timeout=600) == 0
        yield scratch.path


def test_a_killed_apply_leaves_the_target_as_it_was(built, postgres_url, tmp_path):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(HOLD)
    apply = {"pair": "killed", "write": True}
    started = dbt(built, tmp_path, postgres_url, "run", "--select", "parity_applies", apply=apply)
    try:
        # Its deletes done, its first update held by the trigger.
        assert waited(lambda: _held(postgres_url) == 1, 300), "the apply never reached an update"
        os.killpg(started.pid, signal.SIGKILL)
        assert waited(lambda: _held(postgres_url) == 0, 30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(started.pid, signal.SIGKILL)
        started.wait(timeout=30)
    assert rows(postgres_url) == expected(TARGET)

    # Let through, the same apply corrects it.
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop trigger held on corrected")
    again = dbt(built, tmp_path, postgres_url, "run", "--select", "parity_applies", apply=apply)
    assert again.wait(timeout=600) == 0
    assert rows(postgres_url) == expected(CORRECTED)


def _held(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as connection:
        return connection.execute(HELD).fetchone()[0]
