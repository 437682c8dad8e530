"""Faults of a real PostgreSQL server in the middle of a pair's drill-down: a session cut off,
the server restarted, queries past their statement timeout. Each run ends with the fault-free
run's findings, or with the cells it could not compare named as dead letters and nothing false
about the others; a run without the fault completes the work.

The plans are rendered once by dbt; each run opens the sides and drills down as the hashdiff
pipeline does (one test runs the pipeline itself), with the fault switched on in the server
(faulty_postgres.py)."""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from parity.algorithms import fallback
from parity.algorithms.hashdiff import DrillDown, hashdiff
from parity.errors import ParityError
from parity.pipelines import hashdiff as pipeline
from parity.pipelines.incremental import Rerun
from parity.plan import PairPlan, pairs_from_rows
from parity.sides.opened import opened_sides
from parity.sides.side import Side
from parity.spark_settings import parity_settings
from tests.integration.faulty_postgres import (
    CHECKSUMS,
    FIRST_PASS,
    VIEW,
    create_faulty_view,
    set_faults,
    terminate,
    watching,
)
from tests.integration.postgres_server import restart
from tests.integration.remote_tables import POSTGRES_ENV

FAULTY_SOURCES = f"""
version: 2
sources:
  - name: legacy_pg_faulty
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {POSTGRES_ENV}}}
    tables:
      - name: {VIEW}
"""


def faulty_pair(name: str, key: str | list[str], **options: Any) -> dict[str, Any]:
    """The faulty view of the legacy orders against their migrated copy (13 planted
    differences), in cells of at most 64 rows."""
    return {
        "name": name,
        "source": {"source": ["legacy_pg_faulty", VIEW]},
        "target": {"ref": "lakehouse_orders"},
        "key": key,
        "enforce_key": "warn",
        "bisection_threshold": 64,
        **options,
    }


@pytest.fixture(scope="module")
def plans(scratch, spark, remote_legacy) -> dict[str, PairPlan]:
    """`by_order`: a single integer key (the side's first pass is by block, its rows are read by
    their keys); `by_hash`: a compound key (cells of row-hash positions, checksums queried: its
    factor of 10 makes no cell below the whole a union of the first pass's hashed blocks, which
    would answer them, as test_hashed_blocks.py shows)."""
    create_faulty_view(remote_legacy)
    scratch.write("models/faulty_sources.yml", FAULTY_SOURCES)
    pairs = [
        faulty_pair("by_order", "order_id"),
        faulty_pair("by_hash", ["order_id", "status"], bisection_factor=10),
    ]
    try:
        rendered = scratch.dbt(
            "run",
            "--select",
            "parity_remote_relations+,+parity_plan",
            vars=scratch.demo_vars(parity={"pairs": pairs}),
        )
    finally:
        (scratch.path / "models/faulty_sources.yml").unlink()
    assert rendered.success
    rows = [r.asDict() for r in spark.table(f"{scratch.schema}.parity_plan").collect()]
    planned = {pair.name: pair for pair in pairs_from_rows(rows)}
    # The options' defaults (macros/config/_pair_defaults.sql).
    assert all((p.retries, p.retry_seconds) == (4, 60.0) for p in planned.values())
    return planned


@pytest.fixture
def faults(remote_legacy):
    """Sets the server's faults for one test, and clears them after it."""
    yield lambda **faults: set_faults(remote_legacy, **faults)
    set_faults(remote_legacy)


@pytest.fixture(scope="module")
def fault_free(spark, plans) -> dict[str, Counter]:
    """Each pair's differences without any fault."""
    found = {}
    for name, pair in plans.items():
        drilled = compared(spark, pair)
        assert not drilled.dead_letters
        found[name] = differences(drilled)
    assert sum(found["by_order"].values()) == 13
    return found


@contextmanager
def opened(
    spark, pair: PairPlan, timeout: float | None = None, **config: Any
) -> Iterator[tuple[PairPlan, Side, Side]]:
    """The pair, its source's statement timeout and its options (``config``) replaced, and its
    sides opened."""
    pair = replace(
        pair,
        source=replace(pair.source, statement_timeout_seconds=timeout),
        config={**pair.config, **config},
    )
    with parity_settings(spark), opened_sides(spark, pair) as (source, target):
        yield pair, source, target


def compared(spark, pair: PairPlan, timeout: float | None = None, **config: Any) -> DrillDown:
    """The pair's drill-down, as its pipeline runs it (pipelines/hashdiff.py), its differences
    read while the sides are open, as the pipeline's summary reads them."""
    with opened(spark, pair, timeout, **config) as (pair, source, target):
        drilled = hashdiff(
            pair.name, source, target, pair.bisection_factor, pair.bisection_threshold
        )
        kept = None if drilled.diffs is None else drilled.diffs.localCheckpoint()
        drilled.count_downloads()
        return replace(drilled, diffs=kept)


SIDES = ("source_values", "target_values")


def differences(drilled: DrillDown) -> Counter:
    """Every row difference found: key, kind, both sides' values."""
    if drilled.diffs is None:
        return Counter()
    return Counter(
        (tuple(row["key"]), row["kind"], *(tuple(row[side] or ()) for side in SIDES))
        for row in drilled.diffs.collect()
    )


def test_a_session_cut_off_mid_query_is_retried(
    spark, plans, fault_free, faults, caplog, remote_legacy
):
    """The first pass's query and a checksums query each lose their session; each is run again
    on a new one, and the run finds what a run without the fault does."""
    caplog.set_level(logging.INFO, logger="parity")
    faults(every_row=0.0002)  # each query long enough to be caught running
    with watching(remote_legacy, [FIRST_PASS, CHECKSUMS], terminate) as cut:
        drilled = compared(spark, plans["by_hash"])
    assert cut == [FIRST_PASS, CHECKSUMS]
    assert differences(drilled) == fault_free["by_hash"] and not drilled.dead_letters
    retried = [r.getMessage() for r in caplog.records if "; retry 1 of 4 in " in r.getMessage()]
    assert len(retried) == 2
    # The server says why it ends the session, unless the cut lands while the client reads: then
    # the client sees the socket close first.
    cause = re.compile(r"terminating connection|server closed the connection")
    assert all("source relation" in line and cause.search(line) for line in retried)


def test_a_server_restarted_mid_run_is_waited_for(spark, plans, fault_free, faults, remote_legacy):
    """A checksums query is cut off by a fast restart; the retries wait for the server to come
    back (refused connections included), and the run finds what a run without it does."""
    faults(every_row=0.0002)
    with watching(remote_legacy, [CHECKSUMS], lambda _, __: restart(remote_legacy)) as cut:
        drilled = compared(spark, plans["by_hash"])
    assert cut == [CHECKSUMS]
    assert differences(drilled) == fault_free["by_hash"] and not drilled.dead_letters


def test_without_retries_a_restart_fails_the_pair(spark, plans, faults, remote_legacy):
    """`retries: 0`: the same restart fails the pair, saying so, rather than passing it."""
    faults(every_row=0.0002)
    with (
        watching(remote_legacy, [CHECKSUMS], lambda _, __: restart(remote_legacy)),
        pytest.raises(ParityError) as failed,
    ):
        compared(spark, plans["by_hash"], retries=0)
    message = str(failed.value)
    assert message.startswith("parity pair 'by_hash': source relation")
    assert "(after 0 retries in 0 s)" in message


def test_checksums_past_the_timeout_are_asked_in_smaller_segments(
    spark, plans, fault_free, faults, caplog
):
    """Every query that lists cells reads 0.8 ms a row, and may take 1 s: the first checksums
    pass over all 3,000 rows cannot finish, smaller segments do (the first pass, which lists
    nothing, reads them all in well under 1 s)."""
    caplog.set_level(logging.INFO, logger="parity")
    faults(listed_row=0.0008)
    drilled = compared(spark, plans["by_hash"], timeout=1)
    assert differences(drilled) == fault_free["by_hash"] and not drilled.dead_letters
    fallbacks = [
        r.getMessage() for r in caplog.records if "failed (source relation" in r.getMessage()
    ]
    assert fallbacks and all("statement timeout of 1 s" in line for line in fallbacks)
    assert "checksums of 1 segment at depth 0 failed" in fallbacks[0]


def test_rows_no_query_can_read_are_dead_letters_until_a_run_reads_them(
    spark, plans, fault_free, faults
):
    """Reading order 42's row takes 5 s, past the timeout of 1 s: the cell of keys around it
    is a dead letter, every other difference is found, and none is made up. Without the fault,
    the next run finds all of them."""
    faults(slow_key=42, slow_key_seconds=5)
    drilled = compared(spark, plans["by_order"], timeout=1)
    dead = drilled.dead_letters
    assert dead and {letter.side for letter in dead} == {"source"}
    assert all("statement timeout of 1 s" in letter.error for letter in dead)
    ranges = [(int(letter.low), int(letter.high)) for letter in dead]
    assert any(low <= 42 <= high for low, high in ranges)
    everything = fault_free["by_order"]
    unread = Counter({d: n for d, n in everything.items() if _within(int(d[0][0]), ranges)})
    assert unread and differences(drilled) == everything - unread

    faults()
    again = compared(spark, plans["by_order"], timeout=1)
    assert differences(again) == fault_free["by_order"] and not again.dead_letters


def test_once_the_fallback_has_spent_its_queries_the_rest_are_dead_letters(
    spark, plans, fault_free, faults, monkeypatch
):
    """Four queries allowed after the first failure: the rows around order 42 are left
    uncompared, as dead letters in ranges of row-hash positions, which the pipeline hands on;
    what was compared is true."""
    monkeypatch.setattr(fallback, "FALLBACK_QUERIES", 4)
    faults(slow_key=42, slow_key_seconds=5)
    with opened(spark, plans["by_hash"], timeout=1) as (pair, source, target):
        outcome = pipeline.run(
            pair, source, target, Rerun("compared", "first run", pair.run_id, {})
        )
    dead = outcome.dead_letters
    assert any(letter.error.endswith("(the fallback's 4 queries are spent)") for letter in dead)
    assert all(letter.low.startswith("hash position ") for letter in dead)
    found = outcome.findings.differing_rows
    assert 0 < found < sum(fault_free["by_hash"].values())


def _within(key: int, ranges: list[tuple[int, int]]) -> bool:
    return any(low <= key <= high for low, high in ranges)


def test_dead_letters_make_the_published_pair_incomplete_until_a_run_completes_it(
    scratch, spark, plans, faults
):
    """Through dbt: with order 42 unreadable within the source's timeout, the pair is published
    as incomplete, never passed, its dead letters naming the key range and the timeout, and the
    package's test fails the build; once the engine answers, the next run completes it."""
    pair = faulty_pair("faulty", "order_id")
    sources = FAULTY_SOURCES.replace(
        f"connection_env: {POSTGRES_ENV}}}",
        f"connection_env: {POSTGRES_ENV}, statement_timeout_seconds: 1}}",
    )
    scratch.write("models/faulty_sources.yml", sources)
    build = ["build", "--select", "parity_remote_relations+", "--exclude", "package:parity_demo"]
    try:
        faults(slow_key=42, slow_key_seconds=5)
        failed = scratch.dbt(
            *build, vars=scratch.demo_vars(parity={"pairs": [pair]}), parse_once=True
        )
        summary = spark.table(f"{scratch.schema}.parity_summary").collect()
        faults()
        completed = scratch.dbt(
            *build, vars=scratch.demo_vars(parity={"pairs": [pair]}), parse_once=True
        )
        again = spark.table(f"{scratch.schema}.parity_summary").collect()
    finally:
        (scratch.path / "models/faulty_sources.yml").unlink()
    (row,) = summary
    assert (row["status"], row["passed"]) == ("incomplete", False)
    letters = row["dead_letters"]
    assert row["status_reason"].startswith(f"{len(letters)} segment(s) could not be compared")
    assert letters and all(letter["side"] == "source" for letter in letters)
    assert all("statement timeout of 1 s" in letter["error"] for letter in letters)
    assert any(int(letter["low"]) <= 42 <= int(letter["high"]) for letter in letters)
    assert not failed.success
    (complete,) = [r for r in failed.result.results if r.node.name.startswith("parity_pairs")]
    assert str(complete.status) == "fail" and complete.failures == 1
    (row,) = again
    assert (row["status"], row["dead_letters"]) == ("complete", [])
    assert row["differing_rows"] > 0
    assert row["run_mode_reason"] == "its last result is incomplete"
    assert completed.success
