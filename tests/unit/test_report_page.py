"""The report page rendered from documents made here, as the reporting macros read them from the
published views (macros/reporting/html_report.sql): values cut and escaped, sensitive values
hidden, capped examples that say how many were left out, the run that published nothing, and a
run of 200 pairs whose page stays small. tests/integration/test_report_page.py opens a real run's
page in Chromium."""

from __future__ import annotations

import re
from importlib.resources import files
from typing import Any

import pytest
import tomllib

from parity.report import charts
from parity.report.page import render
from parity.report.view import page, shown
from tests.conftest import REPO

HASH = "sha256:" + "0123456789abcdef" * 4
# The worst 200-pair run (every pair differing in each of its 12 columns in each of 20 runs,
# with 5 examples of 4 kinds of long values) stays under this: 4.4 MB.
MAX_BYTES_200_PAIRS = 5_000_000


def run(index: int, pairs: int = 3, passed: int = 1) -> dict[str, Any]:
    return {
        "run_id": f"run-{index:02d}",
        "run_started_at": f"2026-11-{index + 1:02d}T08:00:00.000000Z",
        "published_at": f"2026-11-{index + 1:02d}T08:03:00.000000Z",
        "pairs": pairs,
        "pairs_passed": passed,
        "pairs_in_error": 0,
        "pairs_unchanged": 0,
    }


def summary(name: str, run_id: str = "run-04", **changed: Any) -> dict[str, Any]:
    """A row of parity_summary: a pair with one value mismatch and one row missing in target."""
    row = {
        "run_id": run_id,
        "pair_name": name,
        "source_relation": "lake.orders",
        "target_relation": "warehouse.orders",
        "algorithm": "joindiff",
        "source_rows": 1000,
        "target_rows": 999,
        "missing_in_target_rows": 1,
        "missing_in_source_rows": 0,
        "value_mismatch_rows": 1,
        "duplicate_in_source_rows": 0,
        "duplicate_in_target_rows": 0,
        "within_tolerance_rows": 0,
        "mismatched_values": 1,
        "within_tolerance_values": 0,
        "within_tolerance_counted": "exact",
        "differing_rows": 2,
        "schema_findings": 0,
        "row_drift_pct": 0.1,
        "passed": False,
        "halted": False,
        "checksum_passes": 1,
        "segments_checked": 4,
        "rows_moved": 0,
        "elapsed_seconds": 2.5,
        "config_hash": "c" * 64,
        "tolerance_hash": "t" * 64,
        "data_compared": True,
        "source_null_keys": 0,
        "source_duplicate_keys": 0,
        "target_null_keys": 0,
        "target_duplicate_keys": 0,
        "keys_flagged": False,
        "status": "complete",
        "status_reason": None,
        "run_mode": "compared",
        "run_mode_reason": "no earlier result",
    }
    return {**row, **changed}


def drift(pair: str, column: str, beyond: int = 1, run_id: str = "run-04") -> dict[str, Any]:
    return {
        "run_id": run_id,
        "pair_name": pair,
        "column_name": column,
        "values_compared": 999,
        "out_of_tolerance": beyond,
        "within_tolerance": 3,
        "null_on_one_side": 0,
        "max_abs_error": 0.01,
        "mean_abs_error": 1e-5,
        "max_relative_error": 5e-4,
        "mean_relative_error": 5e-7,
        "max_lag_ms": None,
        "p99_lag_ms": None,
        "coverage": "every compared row",
        "pattern": None,
        "pattern_note": None,
    }


def difference(pair: str, kind: str, key: str, of_kind: int, **changed: Any) -> dict[str, Any]:
    row = {
        "pair_name": pair,
        "kind": kind,
        "key": key,
        "column_name": "amount" if kind == "value_mismatch" else None,
        "source_value": "20.00",
        "source_length": 5,
        "target_value": "20.01",
        "target_length": 5,
        "delta": 0.01,
        "source_hash": None,
        "target_hash": None,
        "of_kind": of_kind,
    }
    return {**row, **changed}


def document(**changed: Any) -> dict[str, Any]:
    """A run of three pairs: one differing (a value, a missing row, a hidden one, a schema
    change), one passing, one in error; five published runs, this one last."""
    runs = [run(index) for index in range(5)][::-1]
    base = {
        "run_id": "run-04",
        "command": "dbt run",
        "written_at": "2026-11-05T08:00:00+00:00",
        "published": True,
        "runs": runs,
        "max_value_chars": 40,
        "examples_per_kind": 5,
        "pairs": [
            summary("orders"),
            summary("customers", passed=True, differing_rows=0, mismatched_values=0),
            summary(
                "payments", status="error", status_reason="target relation gone", data_compared=None
            ),
        ],
        "columns": [drift("orders", "amount"), drift("orders", "note", beyond=0)],
        "pair_history": [
            {
                "pair_name": "orders",
                "by_run": {f"run-0{i}": {"differing_rows": i} for i in range(5)},
            }
        ],
        "column_history": [
            {
                "pair_name": "orders",
                "column_name": "amount",
                "by_run": {
                    f"run-0{i}": {
                        "values_compared": 999,
                        "out_of_tolerance": i,
                        "within_tolerance": 0,
                    }
                    for i in range(1, 5)
                },
            }
        ],
        "examples": [
            difference("orders", "value_mismatch", "2", 1),
            difference(
                "orders",
                "missing_in_target",
                "3",
                1000,
                source_value='{"id":3,"note":"<script>alert(1)</script>"}',
                source_length=44,
                target_value=None,
                target_length=None,
                delta=None,
            ),
            difference(
                "orders",
                "within_tolerance",
                "4",
                1,
                column_name="secret",
                source_value=None,
                target_value=None,
                source_hash=HASH,
                target_hash=HASH,
                delta=None,
            ),
        ],
        "schema": [
            {
                "pair_name": "orders",
                "column_name": "note",
                "target_column_name": "note",
                "field_path": None,
                "change": "widened",
                "source_type": "varchar(20)",
                "target_type": "string",
                "accepted": True,
                "finding_kind": None,
                "of_pair": 30,
            }
        ],
    }
    return {**base, **changed}


def text_of(html: str) -> str:
    """The page's text as a person reads it: tags, style and script out, entities as typed."""
    body = re.sub(r"<(style|script)>.*?</\1>", "", html, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    for entity, character in (("&lt;", "<"), ("&gt;", ">"), ("&#34;", '"'), ("&#39;", "'")):
        body = body.replace(entity, character)
    return re.sub(r"\s+", " ", body.replace("&amp;", "&"))


def test_a_value_is_cut_with_its_length_and_its_control_characters_escaped():
    assert shown("a\nb\tc\x01", None, None, 10).text == "a\\nb\\tc\\x01"
    cut = shown("x" * 50, None, 100_000, 8)
    assert cut.text == "xxxxxxxx… (100,000 characters)" and cut.style == "value"


def test_a_hidden_value_shows_the_start_of_its_hash_and_null_shows_null():
    assert shown(None, HASH, None, 10) == shown(None, HASH, None, 99)
    assert shown(None, HASH, None, 10).text == "hidden (sha256:0123456789ab…)"
    assert shown(None, HASH, None, 10).style == "hidden"
    assert shown(None, None, None, 10).text == "NULL"


def test_the_page_shows_each_verdict_worst_first_and_the_errors_reason():
    shown_page = page(document())
    assert [(pair.name, pair.verdict) for pair in shown_page.pairs] == [
        ("payments", "ERROR"),
        ("orders", "DIFFERENT"),
        ("customers", "PASS"),
    ]
    text = text_of(render(document()))
    assert "Pairs in error payments : target relation gone" in text
    assert 'id="run-verdict">FAIL' in render(document())


def test_capped_examples_say_how_many_more_there_are():
    text = text_of(render(document()))
    assert "missing in target: first 1 of 1,000" in text
    assert "and 999 more in parity_differences" in text
    assert "and 29 more in parity_schema_diff" in text
    assert "value mismatch: first 1 of 1" in text


def test_every_text_from_the_views_is_escaped():
    hostile = '<img src=x onerror="alert(1)">'
    html = render(
        document(
            pairs=[summary(hostile, status="error", status_reason="</script><script>alert(2)")],
            columns=[],
            examples=[],
            schema=[],
        )
    )
    assert hostile not in html and "<script>alert" not in html
    assert html.count("<script>") == 1  # the page's own
    assert hostile in text_of(html)
    assert "<script>alert(1)</script>" not in render(document())


def test_values_within_tolerance_say_how_many_are_listed_of_those_counted():
    listed = {**drift("orders", "secret"), "within_tolerance": 3, "within_tolerance_listed": 1}
    text = text_of(
        render(
            document(
                pairs=[summary("orders", within_tolerance_values=3)],
                columns=[drift("orders", "amount"), listed],
            )
        )
    )
    assert "within tolerance: first 1 of 1 listed, of 3 counted" in text
    assert "3 1 listed" in text  # the column's within-tolerance cell


def test_a_sensitive_value_is_hidden_never_null():
    text = text_of(render(document()))
    assert "hidden (sha256:0123456789ab…)" in text


def test_a_run_that_published_nothing_says_so_and_names_the_published_run():
    html = render(document(run_id="run-99", published=False))
    assert "This run ( run-99 , dbt run) published no results" in text_of(html)
    assert "the last published run, run-04 , started 2026-11-05 08:00:00 UTC" in text_of(html)
    for published in (True, None):  # this run published, or an operation wrote the page
        assert "published no results" not in render(document(published=published))


def test_the_charts_draw_a_bar_per_run_and_leave_missing_runs_empty():
    chart = charts.bars([None, 0, 3, 6], "rows differing: —, 0, 3, 6")
    assert chart.count("h-6z") == 3  # a closed bar per figure, none for the missing run
    # Ten runs' room, the last run at the right edge, the largest filling the chart's height.
    assert 'width="80"' in chart and '<path class="zero" d="M56 20.5h6v1.5h-6z">' in chart
    assert "M72 0h6v22h-6z" in chart
    assert "<title>rows differing: —, 0, 3, 6</title>" in chart
    stacked = charts.stacked([2, 3], [1, 0], "runs")
    assert stacked.count("<path") == 2 and stacked.count("h-14z") == 3
    html = render(document())
    # The runs, each pair, and the one column that differed in a run shown.
    assert html.count('<svg class="chart"') == 1 + 3 + 1


def test_the_page_asks_for_nothing():
    html = render(document())
    assert not re.search(r"https?://", html)
    assert not re.search(r"\s(src|href)=", html)
    assert "default-src 'none'" in html


@pytest.fixture(scope="module")
def large_run() -> dict[str, Any]:
    """200 pairs of 12 columns, 20 runs, every pair differing on every kind, with 5 examples of
    each kind shown of 5,000 (a million differences in all) and long values."""
    names = [f"pair_{index:03d}" for index in range(200)]
    columns = [f"column_{index:02d}" for index in range(12)]
    runs = [run(index, 200, 150) for index in range(20)][::-1]
    long_value = "v" * 1000
    examples = [
        difference(
            name,
            kind,
            str(key),
            5000,
            source_value=long_value[:80],
            source_length=1000,
            target_value=long_value[:80],
            target_length=1000,
        )
        for name in names
        for kind in ("value_mismatch", "missing_in_target", "missing_in_source", "within_tolerance")
        for key in range(5)
    ]
    return document(
        runs=runs,
        max_value_chars=120,
        pairs=[summary(name, run_id="run-19") for name in names],
        columns=[drift(name, column, run_id="run-19") for name in names for column in columns],
        pair_history=[
            {"pair_name": name, "by_run": {run["run_id"]: {"differing_rows": 7} for run in runs}}
            for name in names
        ],
        column_history=[
            {
                "pair_name": name,
                "column_name": column,
                "by_run": {
                    run["run_id"]: {
                        "values_compared": 9,
                        "out_of_tolerance": 1,
                        "within_tolerance": 1,
                    }
                    for run in runs
                },
            }
            for name in names
            for column in columns
        ],
        examples=examples,
        schema=[],
    )


def test_a_run_of_200_pairs_makes_a_bounded_page(large_run):
    html = render(large_run)
    assert len(html.encode()) < MAX_BYTES_200_PAIRS
    assert html.count('<tbody class="pair"') == 200
    assert html.count("and 4,995 more in <code>parity_differences</code>") == 800
    # Details are folded: a person unfolds the pairs they look at.
    assert html.count('class="detail" id="detail-') == html.count("hidden>") == 200


def test_the_template_is_shipped_as_package_data():
    templates = files("parity.report").joinpath("templates")
    for name in ("report.html.j2", "pair_detail.html.j2", "report.css", "report.js"):
        assert templates.joinpath(name).is_file()
    settings = tomllib.loads((REPO / "pyproject.toml").read_text())
    shipped = settings["tool"]["setuptools"]["package-data"]["parity.report"]
    assert "templates/*" in shipped
