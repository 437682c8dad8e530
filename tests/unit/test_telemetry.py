"""A run's telemetry without Spark or dbt: which signals the standard variables turn on, nothing
of OpenTelemetry imported without them, and with them the spans and metrics a real OTLP/HTTP
receiver gets, every exporter thread gone once the run is over. Pairs and results are stand-ins
holding only what the telemetry reads; tests/integration/test_telemetry.py holds a dbt run's
to what parity_summary publishes."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from parity.telemetry.run import SIGNALS, observed_run, signals
from tests.conftest import REPO
from tests.otlp_receiver import OtlpReceiver

ENDPOINT = "http://127.0.0.1:4318"
KINDS = {
    "missing_in_target": 1,
    "missing_in_source": 0,
    "value_mismatch": 2,
    "duplicate_in_source": 0,
    "duplicate_in_target": 0,
    "within_tolerance": 3,
}


@pytest.fixture(autouse=True)
def no_otel_variables(monkeypatch):
    for name in [name for name in os.environ if name.startswith("OTEL_")]:
        monkeypatch.delenv(name)


def pair(name: str) -> SimpleNamespace:
    return SimpleNamespace(name=name, run_id="run-1")


def result(name: str, **changes) -> SimpleNamespace:
    """A compared pair that differs, as a PairResult says it."""
    fields = {
        "pair_name": name,
        "algorithm": "hashdiff",
        "status": "complete",
        "status_reason": "",
        "run_mode": "compared",
        "computed_run_id": "run-1",
        "config_hash": "c0ffee",
        "passed": False,
        "halted": False,
        "data_compared": True,
        "checksum_passes": 2,
        "segments_checked": 40,
        "rows_moved": 12,
        "differing_rows": 3,
        "source_rows": 100,
        "target_rows": 99,
        "within_tolerance_values": 4,
        "row_drift_pct": 1.0,
        "elapsed_seconds": 0.5,
        **{f"{kind}_rows": rows for kind, rows in KINDS.items()},
    }
    return SimpleNamespace(**{**fields, **changes})


RESULTS = {
    "differs": result("differs"),
    "same": result(
        "same",
        passed=True,
        algorithm="joindiff",
        differing_rows=0,
        row_drift_pct=0.0,
        within_tolerance_values=0,
        rows_moved=0,
        **{f"{kind}_rows": 0 for kind in KINDS},
    ),
    "broken": result(
        "broken",
        status="error",
        status_reason="Spark could not run the pair's SQL: ...",
        data_compared=False,
        source_rows=None,
        target_rows=None,
        row_drift_pct=None,
        checksum_passes=0,
    ),
}


def reconciled(spark, planned) -> SimpleNamespace:
    return RESULTS[planned.name]


@pytest.mark.parametrize(
    ("variables", "sent"),
    [
        ({}, ()),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT}, SIGNALS),
        ({"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": f"{ENDPOINT}/v1/traces"}, ("traces",)),
        ({"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": f"{ENDPOINT}/v1/metrics"}, ("metrics",)),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT, "OTEL_SDK_DISABLED": "True"}, ()),
        ({"OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT, "OTEL_METRICS_EXPORTER": "none"}, ("traces",)),
        (
            {
                "OTEL_EXPORTER_OTLP_ENDPOINT": ENDPOINT,
                "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf",
            },
            ("traces", "metrics"),
        ),
    ],
)
def test_the_standard_variables_say_which_signals_are_sent(monkeypatch, variables, sent):
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert signals() == sent


def test_a_protocol_parity_does_not_send_is_refused_with_a_warning(monkeypatch, caplog):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/protobuf")
    with caplog.at_level(logging.WARNING, logger="parity"):
        assert signals() == ("metrics",)
    assert "OpenTelemetry traces not sent: the protocol asked is grpc" in caplog.text


def test_without_the_variables_nothing_of_opentelemetry_is_imported():
    """In a process of its own: this one may have imported the SDK for another test."""
    script = (
        "import json, sys\n"
        "from parity.telemetry.run import observed_run\n"
        "def reconcile(spark, pair): return pair\n"
        "with observed_run([]) as observed:\n"
        "    assert observed(reconcile) is reconcile\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('opentelemetry'))))\n"
    )
    environment = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=environment,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == []


def test_a_run_sends_a_span_per_pair_under_its_own_and_their_metrics(monkeypatch):
    before = set(threading.enumerate())
    with OtlpReceiver() as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")
        monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=ci")
        pairs = [pair(name) for name in RESULTS]
        with observed_run(pairs) as observed, ThreadPoolExecutor(2) as pool:
            traced = observed(reconciled)
            results = list(pool.map(lambda p: traced(None, p), pairs))
        assert results == list(RESULTS.values())
        spans = {span["name"]: span for span in receiver.spans()}
        points = receiver.metric_points()
    # Every exporter's thread has stopped with the run.
    assert set(threading.enumerate()) <= before

    run = spans.pop("parity run")
    assert run["parent_span_id"] == ""
    assert run["attributes"] == {"parity.pairs": 3, "parity.run_id": "run-1"}
    assert run["status"] == "STATUS_CODE_ERROR" and run["status_message"] == "not complete: broken"
    assert run["resource"]["service.name"] == "parity"
    assert run["resource"]["deployment.environment"] == "ci"
    assert set(spans) == {f"parity pair {name}" for name in RESULTS}
    for span in spans.values():
        assert span["trace_id"] == run["trace_id"] and span["parent_span_id"] == run["span_id"]
        assert run["start"] <= span["start"] <= span["end"] <= run["end"]
    differs = spans["parity pair differs"]["attributes"]
    assert differs == {
        "parity.pair.name": "differs",
        "parity.algorithm": "hashdiff",
        "parity.status": "complete",
        "parity.run_mode": "compared",
        "parity.config_hash": "c0ffee",
        "parity.verdict": "DIFFERENT",
        "parity.checksum_passes": 2,
        "parity.segments_checked": 40,
        "parity.rows_moved": 12,
        "parity.differing_rows": 3,
        "parity.data_compared": True,
        "parity.rows_scanned": 199,
    }
    assert spans["parity pair same"]["attributes"]["parity.verdict"] == "PASS"
    assert spans["parity pair differs"]["status"] == "STATUS_CODE_UNSET"
    broken = spans["parity pair broken"]
    assert broken["attributes"]["parity.verdict"] == "ERROR"
    assert "parity.rows_scanned" not in broken["attributes"]
    assert broken["status"] == "STATUS_CODE_ERROR"
    assert broken["status_message"] == RESULTS["broken"].status_reason

    found = {
        (p["name"], tuple(sorted(p["attributes"].items()))): p.get("value", p.get("count"))
        for p in points
    }
    for name in ("differs", "same"):
        for kind, rows in KINDS.items():
            counted = rows if name == "differs" else 0
            key = (
                "parity.differences",
                (("parity.difference.kind", kind), ("parity.pair.name", name)),
            )
            assert found[key] == counted
    assert found[("parity.row_drift", (("parity.pair.name", "differs"),))] == 1.0
    assert found[("parity.within_tolerance_values", (("parity.pair.name", "differs"),))] == 4
    # A pair in error compared nothing: its time only.
    assert {key[0] for key in found if ("parity.pair.name", "broken") in key[1]} == {
        "parity.pair.duration"
    }
    durations = [p for p in points if p["name"] == "parity.pair.duration"]
    assert {p["unit"] for p in durations} == {"s"} and len(durations) == 3
    assert all(p["count"] == 1 for p in durations)


def test_a_pair_whose_last_result_stands_says_so_and_counts_nothing(monkeypatch):
    kept = result("kept", run_mode="unchanged", computed_run_id="run-0", data_compared=False)
    with OtlpReceiver() as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint)
        with observed_run([pair("kept")]) as observed:
            observed(lambda spark, planned: kept)(None, pair("kept"))
        (span,) = [s for s in receiver.spans() if s["name"] == "parity pair kept"]
        names = {p["name"] for p in receiver.metric_points()}
    assert span["attributes"]["parity.run_mode"] == "unchanged"
    assert span["attributes"]["parity.computed_run_id"] == "run-0"
    assert "parity.verdict" not in span["attributes"]
    assert names == {"parity.pair.duration"}


def test_an_unreachable_receiver_fails_nothing(monkeypatch):
    with socket.socket() as closed:  # a port of 127.0.0.1 nothing listens on once closed
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "1")
    with observed_run([pair("same")]) as observed:
        assert observed(reconciled)(None, pair("same")) is RESULTS["same"]


def test_variables_set_without_the_sdk_installed_leave_the_run_untraced(monkeypatch, caplog):
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", ENDPOINT)
    monkeypatch.setitem(sys.modules, "parity.telemetry.emitter", None)  # as if not installed
    with caplog.at_level(logging.WARNING, logger="parity"), observed_run([]) as observed:
        assert observed(reconciled) is reconciled
    assert "install dbt-parity[telemetry]" in caplog.text
