"""Every run that reconciles leaves the published verdict in target/parity_summary.json, per pair
and per column, for a CI step to read without starting Spark: the same figures as parity_summary
and parity_column_drift; a run that published nothing says so and holds the last published run."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from decimal import Decimal

import pytest

from tests.integration.remote_tables import reconcile

SOURCES = """
version: 2
sources:
  - name: summary_lake
    schema: "{{ env_var('PARITY_SCHEMA') }}"
    tables:
      - name: summary_source
      - name: summary_target
"""
SOURCE_ROWS = [(1, Decimal("10.50"), "a"), (2, Decimal("20.00"), "b"), (3, Decimal("1.00"), "c")]
TARGET_ROWS = [(1, Decimal("10.50"), "a"), (2, Decimal("20.01"), "b")]
LAKE = ["summary_lake"]
PAIRS = [
    {
        "name": "summary_differs",
        "source": {"source": [*LAKE, "summary_source"]},
        "target": {"source": [*LAKE, "summary_target"]},
        "key": "id",
    },
    {
        "name": "summary_same",
        "source": {"source": [*LAKE, "summary_source"]},
        "target": {"source": [*LAKE, "summary_source"]},
        "key": "id",
    },
]


def written(project) -> dict:
    return json.loads((project.path / "target" / "parity_summary.json").read_text())


def invocation(project) -> str:
    run_results = json.loads((project.path / "target" / "run_results.json").read_text())
    return run_results["metadata"]["invocation_id"]


@pytest.fixture(scope="module")
def published(scratch, spark):
    for table, rows in (("summary_source", SOURCE_ROWS), ("summary_target", TARGET_ROWS)):
        spark.createDataFrame(rows, "id int, amount decimal(10,2), note string").write.mode(
            "overwrite"
        ).saveAsTable(f"{scratch.schema}.{table}")
    with scratch.file("models/summary_sources.yml", SOURCES):
        assert reconcile(scratch, PAIRS).success
        first = (written(scratch), invocation(scratch))
        # The reconciliation runs, its run is not published: parity_runs is left out.
        assert reconcile(scratch, PAIRS, None, "--exclude", "parity_runs").success
        yield first, (written(scratch), invocation(scratch))


def test_the_file_holds_the_published_verdict_of_each_pair(published, scratch, spark):
    (document, run_id), _ = published
    assert document["run_id"] == run_id and document["published"] is True
    assert document["published_run"]["run_id"] == run_id
    assert document["passed"] is False
    by_name = {pair["pair_name"]: pair for pair in document["pairs"]}
    assert list(by_name) == ["summary_differs", "summary_same"]
    assert by_name["summary_same"]["passed"] is True
    differs = by_name["summary_differs"]
    assert differs["passed"] is False
    assert differs["value_mismatch_rows"] == 1 and differs["missing_in_target_rows"] == 1
    # Field for field what parity_summary publishes: numbers as numbers, times as ISO text in
    # UTC, arrays as arrays.
    row = spark.sql(
        "select *, date_format(to_utc_timestamp(run_started_at, current_timezone()),"
        " 'yyyy-MM-dd HH:mm:ss.SSSSSS') as started_text"
        f" from {scratch.schema}.parity_summary where pair_name = 'summary_differs'"
    ).first()
    for name, value in row.asDict(recursive=True).items():
        if name == "started_text":
            started = datetime.fromisoformat(differs["run_started_at"])
            assert started.utcoffset() == timedelta(0)
            assert started.strftime("%Y-%m-%d %H:%M:%S.%f") == value
        elif isinstance(value, Decimal):
            assert differs[name] == pytest.approx(float(value)), name
        elif not isinstance(value, datetime):
            assert differs[name] == value, name
    columns = {column["column_name"]: column for column in differs["columns"]}
    assert set(columns) == {"amount", "note"}
    assert columns["amount"]["out_of_tolerance"] == 1
    assert columns["note"]["out_of_tolerance"] == 0
    assert columns["amount"]["max_abs_error"] == pytest.approx(0.01)


def test_a_run_that_published_nothing_says_so_and_holds_the_last_published(published):
    (first, first_run), (document, run_id) = published
    assert run_id != first_run
    assert document["run_id"] == run_id and document["published"] is False
    assert document["published_run"]["run_id"] == first_run
    assert document["pairs"] == first["pairs"]
