"""The on-run-end report prints each example difference on one line a person can read: quoted (so
'' and ' ' differ), with control characters escaped, cut to a bounded length that says how long
the value is; a sensitive value reads as hidden with the start of its hash, not as NULL."""

from __future__ import annotations

import hashlib

import pytest

from tests.integration.remote_tables import reconcile

LONG = "x" * 100_000
SOURCES = """
version: 2
sources:
  - name: report_lake
    schema: "{{ env_var('PARITY_SCHEMA') }}"
    tables:
      - name: report_source
      - name: report_target
"""
SOURCE_ROWS = [("", "a", "s1"), (" ", "a", "s2"), ("long", LONG, "s3"), ("ctl", "ok", "s4")]
TARGET_ROWS = [
    ("", "b", "s1"),
    (" ", "b", "s2"),
    ("long", LONG + "y", "s3"),
    ("ctl", "line\nnext\ttab\x01'q'\\", "s4 changed"),
]


PAIR = {
    "name": "report_pair",
    "source": {"source": ["report_lake", "report_source"]},
    "target": {"source": ["report_lake", "report_target"]},
    "key": "id",
    "sensitive_columns": ["secret"],
}


@pytest.fixture(scope="module")
def report(scratch, spark):
    for table, rows in (("report_source", SOURCE_ROWS), ("report_target", TARGET_ROWS)):
        spark.createDataFrame(rows, "id string, note string, secret string").write.mode(
            "overwrite"
        ).saveAsTable(f"{scratch.schema}.{table}")
    with scratch.file("models/report_sources.yml", SOURCES):
        logged: list[str] = []
        assert reconcile(scratch, [PAIR], logged).success
        yield [line for line in logged if line.startswith("    ")]


def line_of(report: list[str], key: str, column: str) -> str:
    (found,) = [line for line in report if line.startswith(f"    key {key} ") and column in line]
    return found


def test_keys_are_quoted(report):
    assert "source 'a' | target 'b'" in line_of(report, "''", "note")
    assert "source 'a' | target 'b'" in line_of(report, "' '", "note")


def test_long_values_are_cut_and_say_how_long_they_are(report):
    line = line_of(report, "'long'", "note")
    assert f"source '{'x' * 80}' ... (100000 characters)" in line
    assert "(100001 characters)" in line
    assert len(line) < 300


def test_control_characters_are_escaped(report):
    line = line_of(report, "'ctl'", "note")
    assert "target 'line\\nnext\\ttab\\x01\\'q\\'\\\\'" in line
    assert "\n" not in line and "\x01" not in line


def test_a_sensitive_value_reads_as_hidden_with_its_hash(report):
    line = line_of(report, "'ctl'", "secret")
    digest = hashlib.sha256(b"s4").hexdigest()
    assert f"source hidden (sha256:{digest[:12]}...)" in line
    assert "NULL" not in line and "s4" not in line.split("secret")[1]


@pytest.fixture(scope="module")
def failed_report(scratch, report) -> list[str]:
    """What a run that failed to compile logs after the run above published its results."""
    logged: list[str] = []
    assert not reconcile(scratch, [{**PAIR, "algorithm": "fastest"}], logged).success
    return [line for line in logged if line.strip()]


def test_a_failed_run_reports_its_own_error_first(failed_report):
    header = failed_report.index("parity: this run failed: 1 node(s) errored")
    error = failed_report[header + 1]
    assert error.startswith("  model parity_"), failed_report
    assert "parity pair 'report_pair': algorithm must be auto, hashdiff or joindiff" in error
    (divider,) = [line for line in failed_report if line.startswith("---- ")]
    assert failed_report.index(divider) > header + 1
    assert "this run published no results; below, the last complete run (" in divider


def test_after_a_failed_run_the_last_results_are_one_line_per_pair(failed_report):
    below = failed_report[failed_report.index(next(x for x in failed_report if x[:5] == "---- ")) :]
    (line,) = [line for line in below if "parity pair 'report_pair'" in line]
    assert line == (
        "  parity pair 'report_pair': DIFFERENT: 4 differing rows, 5 mismatched values, 0 values"
        " within tolerance; schema findings 0"
    )
    assert not [line for line in below if line.startswith("    ")]
