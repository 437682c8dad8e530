"""The report page, opened in headless Chromium as a person opens it: a run of three pairs (one
differs, with a sensitive column; one passes; one is in error) writes target/parity_report.html
through the package's hook, and `dbt run-operation parity_html_report` writes it again from the
published views. What a person sees: the verdicts, a chart drawn, the pairs sorted and filtered
in the page, no sensitive value, no request beyond the file, a page of bounded size. A
screenshot is kept in test-artifacts/ (git-ignored)."""

from __future__ import annotations

import shutil
from decimal import Decimal

import pytest

from tests.conftest import REPO
from tests.integration.headless_chromium import opened
from tests.integration.remote_tables import reconcile

SOURCES = """
version: 2
sources:
  - name: page_lake
    schema: "{{ env_var('PARITY_SCHEMA') }}"
    tables:
      - name: page_source
      - name: page_target
      - name: page_doubled
"""
# The sensitive values: none may reach the page, whole rows included.
SECRETS = ("pw-source-7731", "pw-target-7731", "pw-gone-7731")
SOURCE_ROWS = [
    (1, Decimal("10.50"), "a", "pw-same-7731"),
    (2, Decimal("20.00"), "b", SECRETS[0]),
    (3, Decimal("1.00"), "<b>bold</b>", SECRETS[2]),
]
TARGET_ROWS = [
    (1, Decimal("10.50"), "a", "pw-same-7731"),
    (2, Decimal("20.01"), "b", SECRETS[1]),
]
DOUBLED_ROWS = [*SOURCE_ROWS, SOURCE_ROWS[0]]
LAKE = ["page_lake"]
PAIRS = [
    {
        "name": "page_differs",
        "source": {"source": [*LAKE, "page_source"]},
        "target": {"source": [*LAKE, "page_target"]},
        "key": "id",
        "sensitive_columns": ["secret"],
    },
    {
        "name": "page_same",
        "source": {"source": [*LAKE, "page_source"]},
        "target": {"source": [*LAKE, "page_source"]},
        "key": "id",
    },
    # Key 1 twice in the target: enforce_key's default (error) rejects the pair.
    {
        "name": "page_error",
        "source": {"source": [*LAKE, "page_source"]},
        "target": {"source": [*LAKE, "page_doubled"]},
        "key": "id",
    },
]
MAX_BYTES = 200_000
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def pages(scratch, spark, tmp_path_factory):
    """The page the run's hook wrote, then the one the operation wrote, each kept aside."""
    for table, rows in (
        ("page_source", SOURCE_ROWS),
        ("page_target", TARGET_ROWS),
        ("page_doubled", DOUBLED_ROWS),
    ):
        spark.createDataFrame(
            rows, "id int, amount decimal(10,2), note string, secret string"
        ).write.mode("overwrite").saveAsTable(f"{scratch.schema}.{table}")
    kept = tmp_path_factory.mktemp("report_page")
    written = scratch.path / "target" / "parity_report.html"
    written.unlink(missing_ok=True)
    with scratch.file("models/page_sources.yml", SOURCES):
        assert reconcile(scratch, PAIRS, None, parity_html_report=True).success
        shutil.copy(written, kept / "run.html")
        written.unlink()
        operation = scratch.dbt(
            "run-operation", "parity_html_report", vars=scratch.demo_vars(parity={"pairs": PAIRS})
        )
        assert operation.success
        shutil.copy(written, kept / "operation.html")
    return kept


@pytest.fixture(scope="module")
def seen(pages):
    """What the browser shows of the run's page, as the page is at first, then as a person
    sorting and filtering it sees it; a screenshot of it at first."""
    with opened(pages / "run.html") as browser:
        page = browser.page
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / "parity_report.png", full_page=True)
        names = page.locator("tbody.pair:visible button.toggle")
        first = {
            "text": page.inner_text("body"),
            "html": page.content(),
            "verdicts": dict(
                zip(
                    names.all_inner_texts(),
                    page.locator("tbody.pair:visible tr.summary td:first-child").all_inner_texts(),
                    strict=True,
                )
            ),
            "run_verdict": page.inner_text("#run-verdict"),
            "chart": page.locator(
                "tbody[data-name='page_differs'] tr.summary svg.chart"
            ).bounding_box(),
            "bar": page.locator(
                "tbody[data-name='page_differs'] tr.summary svg.chart path.bar"
            ).bounding_box(),
        }
        page.click("th[data-sort='name']")
        sorted_names = names.all_inner_texts()
        page.click("th[data-sort='name']")
        reversed_names = names.all_inner_texts()
        page.fill("#filter", "same")
        filtered = names.all_inner_texts()
        page.fill("#filter", "")
        page.select_option("#verdict-filter", "not-pass")
        failing = names.all_inner_texts()
        count = page.inner_text("#shown-count")
        yield {
            **first,
            "sorted": sorted_names,
            "reversed": reversed_names,
            "filtered": filtered,
            "failing": failing,
            "count": count,
            "requests": browser.requests,
            "errors": browser.errors,
            "url": page.url,
        }


def test_the_page_shows_each_pairs_verdict_worst_first(seen):
    assert seen["run_verdict"] == "FAIL"
    assert seen["verdicts"] == {
        "page_error": "ERROR",
        "page_differs": "DIFFERENT",
        "page_same": "PASS",
    }
    assert "1 key values held by more than one row" in seen["text"]
    assert not seen["errors"]


def test_the_differing_pair_shows_its_counts_columns_and_differences(seen):
    text = seen["text"]
    assert "value mismatch: first 2 of 2" in text
    assert "missing in target: first 1 of 1" in text
    assert "20.00\t20.01" in text
    # A value is text, never markup: the note's tags are shown, not applied.
    assert "<b>bold</b>" in text and "&lt;b&gt;bold&lt;/b&gt;" in seen["html"]


def test_a_chart_is_drawn(seen):
    assert seen["chart"]["width"] > 0 and seen["chart"]["height"] > 0
    assert seen["bar"]["width"] > 0 and seen["bar"]["height"] > 0


def test_no_sensitive_value_reaches_the_page(seen, pages):
    source = (pages / "run.html").read_text(encoding="utf-8")
    for secret in (*SECRETS, "pw-same-7731"):
        assert secret not in seen["text"] and secret not in seen["html"]
        assert secret not in source
    assert "hidden (sha256:" in seen["text"]


def test_sorting_and_filtering_change_the_rows_shown(seen):
    assert seen["sorted"] == ["page_differs", "page_error", "page_same"]
    assert seen["reversed"] == ["page_same", "page_error", "page_differs"]
    assert seen["filtered"] == ["page_same"]
    assert seen["failing"] == ["page_error", "page_differs"]
    assert seen["count"] == "2 of 3 pairs"


def test_the_page_asks_for_nothing_but_itself(seen, pages):
    assert seen["requests"] == [seen["url"]]
    source = (pages / "run.html").read_text(encoding="utf-8")
    assert "http://" not in source and "https://" not in source


def test_the_page_is_bounded(pages):
    assert (pages / "run.html").stat().st_size < MAX_BYTES


def test_the_operation_writes_the_published_run(pages):
    page = (pages / "operation.html").read_text(encoding="utf-8")
    assert "Written by dbt run-operation" in page
    assert "published no results" not in page
    for name in ("page_differs", "page_same", "page_error"):
        assert f'data-name="{name}"' in page
