"""With the standard OTEL_ variables pointing at a real OTLP/HTTP receiver on 127.0.0.1, a dbt
run sends one span for the run and one under it for each pair, reconciled two at a time, and the
pairs' metrics: each figure what parity_summary publishes for that pair, and nothing of the
compared values. One pair differs (its differing column masked), one passes, one cannot be
planned."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tests.integration.remote_tables import reconcile
from tests.otlp_receiver import OtlpReceiver

SOURCES = """
version: 2
sources:
  - name: telemetry_lake
    schema: "{{ env_var('PARITY_SCHEMA') }}"
    tables:
      - name: telemetry_source
      - name: telemetry_target
"""
SOURCE_ROWS = [
    (1, Decimal("10.50"), "quartz-owl"),
    (2, Decimal("20.00"), "amber-fox"),
    (3, Decimal("1.00"), "cobalt-elk"),
]
TARGET_ROWS = [(1, Decimal("10.50"), "quartz-owl"), (2, Decimal("20.01"), "amber-wolf")]
VALUES = ("quartz-owl", "amber-fox", "amber-wolf", "cobalt-elk", "10.50", "20.01", "20.00")
LAKE = ["telemetry_lake"]
KINDS = (
    "missing_in_target",
    "missing_in_source",
    "value_mismatch",
    "duplicate_in_source",
    "duplicate_in_target",
    "within_tolerance",
)


def pairs(schema: str) -> list[dict]:
    return [
        {
            "name": "telemetry_differs",
            "source": {"source": [*LAKE, "telemetry_source"]},
            "target": {"source": [*LAKE, "telemetry_target"]},
            "key": "id",
            "algorithm": "hashdiff",
            "sensitive_columns": ["note"],
        },
        {
            "name": "telemetry_same",
            "source": {"source": [*LAKE, "telemetry_source"]},
            "target": {"source": [*LAKE, "telemetry_source"]},
            "key": "id",
        },
        {
            "name": "telemetry_missing",
            "source": {"source": [*LAKE, "telemetry_source"]},
            "target": {"relation": [schema, "no_such_telemetry_target"]},
            "key": "id",
        },
    ]


def verdict(row: dict) -> str:
    """As the report's `_verdict` spells it."""
    if row["status"] == "error":
        return "ERROR"
    if row["passed"]:
        return "PASS"
    return "HALTED" if row["halted"] else "DIFFERENT"


@pytest.fixture(scope="module")
def received(scratch, spark):
    """What the receiver got from one run, the run's id and parity_summary's rows of it."""
    for table, rows in (("telemetry_source", SOURCE_ROWS), ("telemetry_target", TARGET_ROWS)):
        spark.createDataFrame(rows, "id int, amount decimal(10,2), note string").write.mode(
            "overwrite"
        ).saveAsTable(f"{scratch.schema}.{table}")
    with (
        scratch.file("models/telemetry_sources.yml", SOURCES),
        OtlpReceiver() as receiver,
        pytest.MonkeyPatch.context() as environment,
    ):
        environment.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
        environment.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
        run = reconcile(scratch, pairs(scratch.schema), None, parity_concurrent_pairs=2)
    assert run.success
    run_results = json.loads((scratch.path / "target" / "run_results.json").read_text())
    run_id = run_results["metadata"]["invocation_id"]
    summary = {
        row["pair_name"]: row.asDict()
        for row in spark.table(f"{scratch.schema}.parity_summary")
        .where("pair_name like 'telemetry_%'")
        .collect()
    }
    assert {row["run_id"] for row in summary.values()} == {run_id}
    return receiver.spans(), receiver.metric_points(), run_id, summary


def test_one_run_span_and_one_span_per_pair_under_it(received):
    spans, _, run_id, summary = received
    (run,) = [span for span in spans if span["name"] == "parity run"]
    assert run["attributes"] == {"parity.run_id": run_id, "parity.pairs": 3}
    assert run["resource"]["service.name"] == "parity"
    assert run["status"] == "STATUS_CODE_ERROR"
    pair_spans = [span for span in spans if span is not run]
    assert sorted(span["name"] for span in pair_spans) == sorted(
        f"parity pair {name}" for name in summary
    )
    for span in pair_spans:
        assert span["trace_id"] == run["trace_id"] and span["parent_span_id"] == run["span_id"]
        assert run["start"] <= span["start"] < span["end"] <= run["end"]


def test_each_pair_span_says_what_parity_summary_publishes(received):
    spans, _, _, summary = received
    by_pair = {
        span["attributes"]["parity.pair.name"]: span
        for span in spans
        if span["name"] != "parity run"
    }
    for name, row in summary.items():
        span = by_pair[name]
        attributes = span["attributes"]
        assert attributes["parity.verdict"] == verdict(row), name
        assert attributes["parity.status"] == row["status"], name
        assert attributes["parity.run_mode"] == row["run_mode"] == "compared", name
        for column in ("algorithm", "checksum_passes", "segments_checked", "rows_moved"):
            assert attributes[f"parity.{column}"] == row[column], (name, column)
        assert attributes["parity.differing_rows"] == row["differing_rows"], name
        assert attributes["parity.config_hash"] == row["config_hash"], name
        if row["source_rows"] is None:
            assert "parity.rows_scanned" not in attributes, name
        else:
            assert attributes["parity.rows_scanned"] == row["source_rows"] + row["target_rows"]
        if row["status"] == "error":
            assert span["status"] == "STATUS_CODE_ERROR"
            assert span["status_message"] == row["status_reason"]
        else:
            assert span["status"] == "STATUS_CODE_UNSET", name
    assert by_pair["telemetry_differs"]["attributes"]["parity.verdict"] == "DIFFERENT"
    assert by_pair["telemetry_differs"]["attributes"]["parity.rows_moved"] > 0
    assert by_pair["telemetry_same"]["attributes"]["parity.verdict"] == "PASS"
    assert by_pair["telemetry_missing"]["attributes"]["parity.verdict"] == "ERROR"


def test_the_metrics_count_what_parity_summary_counts(received):
    _, points, _, summary = received

    def value(name: str, pair: str, **more: str):
        wanted = {"parity.pair.name": pair, **more}
        (point,) = [p for p in points if p["name"] == name and p["attributes"] == wanted]
        return point

    for pair in ("telemetry_differs", "telemetry_same"):
        row = summary[pair]
        for kind in KINDS:
            counted = value("parity.differences", pair, **{"parity.difference.kind": kind})
            assert counted["value"] == row[f"{kind}_rows"], (pair, kind)
        within = value("parity.within_tolerance_values", pair)["value"]
        assert within == row["within_tolerance_values"]
        drift = value("parity.row_drift", pair)["value"]
        assert drift == pytest.approx(float(row["row_drift_pct"]))
    assert summary["telemetry_differs"]["value_mismatch_rows"] == 1
    assert summary["telemetry_differs"]["missing_in_target_rows"] == 1
    for pair, row in summary.items():
        elapsed = value("parity.pair.duration", pair)
        assert elapsed["unit"] == "s" and elapsed["count"] == 1
        assert elapsed["sum"] == pytest.approx(float(row["elapsed_seconds"]))
    # The pair that could not be planned compared nothing: its time only.
    missing = {p["name"] for p in points if "telemetry_missing" in p["attributes"].values()}
    assert missing == {"parity.pair.duration"}


def test_nothing_sent_holds_a_compared_value(received):
    spans, points, _, _ = received
    sent = repr([(s["name"], s["attributes"], s["status_message"]) for s in spans])
    sent += repr([(p["name"], p["attributes"]) for p in points])
    for text in VALUES:
        assert text not in sent
