"""The canonical select of every dialect, rendered by dbt from analyses/canonical_select/, against
its golden SQL in tests/golden/; and the queries parity sends a side in each engine it connects to
(analyses/remote_queries/), against tests/golden/remote_queries/. The dialects that run here run
their selects in the matrices; `make lint` parses those of the dialects that run nowhere here
(Snowflake, BigQuery), in their engine's dialect: the only check they get.

The goldens end in `.sql.golden`, not `.sql`: dbt would take a `.sql` file under tests/ for a
singular test and run it on Spark. After an intended change to the macros, regenerate them and
review the diff:

    PARITY_UPDATE_GOLDEN=1 .venv/bin/pytest tests/integration/test_golden_sql.py
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from tests.conftest import REPO

GOLDEN = REPO / "tests" / "golden"
# sqlfluff's name for the dialect of each analysis: one per dialect, and joindiff's first pass.
SQLFLUFF_DIALECTS = {
    "spark": "sparksql",
    "spark_native": "sparksql",
    "postgres": "postgres",
    "duckdb": "duckdb",
    "mysql": "mysql",
    "snowflake": "snowflake",
    "bigquery": "bigquery",
}
# The dialects parity connects to through DB-API: each side's queries are rendered whole.
CONNECTED = ("duckdb", "mysql", "postgres")
UPDATE = os.environ.get("PARITY_UPDATE_GOLDEN") == "1"


def golden_path(dialect: str, folder: Path = GOLDEN) -> Path:
    return folder / f"{dialect}.sql.golden"


def matches_golden(text: str, golden: Path) -> None:
    text = text.rstrip("\n") + "\n"
    if UPDATE:
        golden.write_text(text)
    expected = golden.read_text()
    assert expected == text, "".join(
        difflib.unified_diff(expected.splitlines(True), text.splitlines(True), "golden", "rendered")
    )


def test_every_dialect_has_an_analysis(canonical_selects):
    assert sorted(canonical_selects) == sorted(SQLFLUFF_DIALECTS)


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
def test_rendered_select_matches_golden(canonical_selects, dialect):
    matches_golden(canonical_selects[dialect], golden_path(dialect))


def test_every_connected_dialect_has_its_queries(remote_queries):
    assert sorted(remote_queries) == sorted(CONNECTED)


@pytest.mark.parametrize("dialect", CONNECTED)
def test_rendered_queries_match_golden(remote_queries, dialect):
    matches_golden(remote_queries[dialect], golden_path(dialect, GOLDEN / "remote_queries"))


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
def test_each_analysis_is_linted_in_its_dialect(dialect):
    """sqlfluff parses each analysis, so each golden, in the dialect its first line names
    (Spark's is the project's, .sqlfluff), and fails on any section that dialect's grammar cannot
    parse. `make lint` does so for Snowflake's and BigQuery's, the only check they get here;
    the others run on their engines. Parsing the goldens again in this suite took over a
    minute and checked nothing more."""
    name = SQLFLUFF_DIALECTS[dialect]
    header = f"-- sqlfluff:dialect:{name}\n"
    analysis = (REPO / "analyses" / "canonical_select" / f"{dialect}.sql").read_text()
    if name != "sparksql":
        assert analysis.startswith(header) and golden_path(dialect).read_text().startswith(header)
    else:
        assert not analysis.startswith("-- sqlfluff:dialect:")
