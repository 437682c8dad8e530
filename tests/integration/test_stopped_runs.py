"""A dbt stopped while parity's query runs on PostgreSQL leaves no query running there: killed,
the server sees its client gone (client_connection_check_interval); interrupted (Ctrl-C), dbt's
cancel of its connections cancels parity's queries too. dbt runs in a process of its own, on a
metastore of its own, reconciling a PostgreSQL view that sleeps two minutes."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import psycopg
import pytest

from tests.integration import separate_dbt
from tests.integration.remote_tables import POSTGRES_ENV, engine_sources, remote_pair

SLEEPY_SOURCES = "models/sleepy_sources.yml"
# parity's query on the view, as pg_stat_activity shows it: sleeping (its text is cut at 1 kB,
# before the relation's name).
RUNNING = (
    "select count(*) from pg_stat_activity"
    " where state = 'active' and wait_event = 'PgSleep' and pid <> pg_backend_pid()"
)


def running_queries(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as connection:
        return connection.execute(RUNNING).fetchone()[0]


def waited(condition, seconds: float, every: float = 0.5) -> bool:
    """Whether ``condition`` held within ``seconds``, polled ``every`` so many seconds."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


@pytest.fixture
def sleepy_source(scratch, remote_legacy):
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        connection.execute(
            "create or replace view public.sleepy_orders as"
            " select o.* from public.orders as o cross join pg_sleep(120)"
        )
    tables = ["orders", "sleepy_orders"]
    sources = engine_sources("legacy_pg_sleepy", "postgres", POSTGRES_ENV, "public", tables)
    with scratch.file(SLEEPY_SOURCES, sources):
        yield remote_legacy


def started_dbt(project: Path, folder: Path) -> subprocess.Popen:
    """`dbt run` of one pair whose source is the sleeping view, in a process of its own."""
    pair = remote_pair("sleepy", "legacy_pg_sleepy", {"source": ["legacy_pg_sleepy", "orders"]})
    pair["source"] = {"source": ["legacy_pg_sleepy", "sleepy_orders"]}
    args = ["run", "--select", "parity_remote_relations+"]
    return separate_dbt.started_dbt(
        project, folder, "parity_stopped", args, {"parity": {"pairs": [pair]}}
    )


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["killed", "interrupted"])
def test_a_stopped_dbt_leaves_no_query_running(scratch, sleepy_source, tmp_path, stop):
    assert running_queries(sleepy_source) == 0
    dbt = started_dbt(scratch.path, tmp_path)
    try:
        assert waited(lambda: running_queries(sleepy_source) > 0, 240), "the query never ran"
        assert dbt.poll() is None
        # Killed: the whole group, its Spark JVM with it; interrupted: dbt's process, as Ctrl-C.
        if stop == signal.SIGKILL:
            os.killpg(dbt.pid, stop)
        else:
            os.kill(dbt.pid, stop)
        assert waited(lambda: running_queries(sleepy_source) == 0, 10)
        if stop == signal.SIGINT:
            # Its query cancelled, dbt ends of itself (rather than waiting the view out).
            assert dbt.wait(timeout=60) != 0
    finally:
        # Whatever is left of the group (a Spark JVM that outlived dbt).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(dbt.pid, signal.SIGKILL)
        dbt.wait(timeout=30)
