"""Identical inputs and configuration publish identical results, whatever the machine's load: the
same pair reconciled twice, once with checksum passes that look free and once with passes that
look dear, publishes the same rows in parity_summary, parity_differences and parity_column_drift,
byte for byte, but for the run's id and times.

The pair is the kind a cost model priced by timings would drill differently: a text key (hashed
positions: cells never reach one unit), every value drifted within its relative tolerance so
that about a tenth of the rows straddle the tolerance grid, and some beyond it. Where the
drill-down stops decides which within-tolerance rows are seen, and how many passes it takes."""

from __future__ import annotations

import itertools

import pytest

import parity.algorithms.hashdiff
import parity.pipelines.hashdiff
from tests.integration.remote_tables import reconcile

ROWS = 20000

SOURCE = f"""
select concat('k', cast(id as string)) as k, cast(id as double) * 1.37 + 0.5 as x, id % 7 as n
from range({ROWS})
"""

# Every x within 1e-9 relative (about 11% of them cross a grid cell of 2^-30 relative), one row
# in 500 beyond it, one in 1,000 with n changed.
TARGET = """
select k,
    case when cast(substr(k, 2) as int) % 500 = 3 then x + 1 else x * (1 + 1e-10) end as x,
    case when cast(substr(k, 2) as int) % 1000 = 7 then n + 1 else n end as n
from {{ ref('determinism_source') }}
"""

PAIR = {
    "name": "deterministic",
    "source": {"ref": "determinism_source"},
    "target": {"ref": "determinism_target"},
    "key": "k",
    "algorithm": "hashdiff",
    "bisection_threshold": 64,
    "tolerance": {"columns": {"x": {"rel_tol": 1e-9}}},
}

# What differs between two runs of identical inputs: the run's id and times, nothing else.
NOT_COMPARED = {"run_id", "computed_run_id", "run_started_at", "elapsed_seconds"}
TABLES = ("parity_summary", "parity_differences", "parity_column_drift")


def clock(step: float):
    """A perf_counter that advances ``step`` seconds each time it is read."""
    ticks = itertools.count()
    return lambda: next(ticks) * step


@pytest.fixture(scope="module")
def built(scratch):
    scratch.write("models/determinism_source.sql", SOURCE)
    scratch.write("models/determinism_target.sql", TARGET)
    done = scratch.dbt(
        "run",
        "--select",
        "determinism_source determinism_target",
        vars=scratch.demo_vars(),
    )
    assert done.success
    yield scratch
    for name in ("determinism_source.sql", "determinism_target.sql"):
        (scratch.path / "models" / name).unlink()


def published(spark, project, monkeypatch, profile_step: float, pass_step: float) -> dict:
    """The pair reconciled with the first pass (profile) and each checksum pass taking the given
    seconds by the clocks the drill-down reads; its rows of each table, in an order of their
    own, each as its compared columns' text."""
    with monkeypatch.context() as patched:
        patched.setattr(parity.pipelines.hashdiff, "perf_counter", clock(profile_step))
        patched.setattr(parity.algorithms.hashdiff, "perf_counter", clock(pass_step))
        assert reconcile(project, [PAIR], None, "--full-refresh").success
    (run_id,) = {
        r["run_id"]
        for r in spark.table(f"{project.schema}.parity_summary")
        .where(f"pair_name = '{PAIR['name']}'")
        .collect()
    }
    rows = {}
    for table in TABLES:
        found = (
            spark.table(f"{project.schema}.{table}")
            .where(f"pair_name = '{PAIR['name']}' and run_id = '{run_id}'")
            .collect()
        )
        rows[table] = sorted(
            repr(sorted((k, v) for k, v in r.asDict().items() if k not in NOT_COMPARED))
            for r in found
        )
    return rows


def test_results_do_not_depend_on_timings(built, spark, monkeypatch):
    # Passes look free against a first pass of an hour: refining always pays, by timings.
    cheap = published(spark, built, monkeypatch, profile_step=3600.0, pass_step=0.0)
    # Passes look an hour long against a free first pass: refining never pays, by timings.
    dear = published(spark, built, monkeypatch, profile_step=0.0, pass_step=3600.0)
    (summary,) = cheap["parity_summary"]
    assert "('value_mismatch_rows', 60)" in summary, summary
    assert cheap["parity_differences"] and cheap["parity_column_drift"]
    for table in TABLES:
        assert cheap[table] == dear[table], table
