"""The canonical select of every dialect, rendered by dbt from analyses/canonical_select/, against
its golden SQL in tests/golden/, and every golden parsed by sqlfluff in its engine's dialect: the
only check the dialects that run nowhere here (MySQL, Snowflake, BigQuery) get.

The goldens end in `.sql.golden`, not `.sql`: dbt would take a `.sql` file under tests/ for a
singular test and run it on Spark. After an intended change to the macros, regenerate them and
review the diff:

    PARITY_UPDATE_GOLDEN=1 .venv/bin/pytest tests/integration/test_golden_sql.py
"""

from __future__ import annotations

import configparser
import difflib
import os
from pathlib import Path

import pytest
import sqlfluff
from sqlfluff.core import FluffConfig

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
UPDATE = os.environ.get("PARITY_UPDATE_GOLDEN") == "1"


def golden_path(dialect: str) -> Path:
    return GOLDEN / f"{dialect}.sql.golden"


def test_every_dialect_has_an_analysis(canonical_selects):
    assert sorted(canonical_selects) == sorted(SQLFLUFF_DIALECTS)


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
def test_rendered_select_matches_golden(canonical_selects, dialect):
    text = canonical_selects[dialect].rstrip("\n") + "\n"
    if UPDATE:
        golden_path(dialect).write_text(text)
    golden = golden_path(dialect).read_text()
    assert golden == text, "".join(
        difflib.unified_diff(golden.splitlines(True), text.splitlines(True), "golden", "rendered")
    )


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
def test_golden_parses_in_its_dialect(dialect):
    text = golden_path(dialect).read_text()
    name = SQLFLUFF_DIALECTS[dialect]
    # `make lint` parses the analysis in the dialect its first line names (Spark's is the
    # project's): the same one as here.
    if name != "sparksql":
        assert text.startswith(f"-- sqlfluff:dialect:{name}\n")
    # Raises APIParsingError on any section the dialect's grammar cannot parse. The parse depth
    # is the project's (.sqlfluff): canonical JSON nests deeper than sqlfluff's default allows.
    depth = configparser.ConfigParser()
    depth.read(REPO / ".sqlfluff")
    config = FluffConfig(
        overrides={"dialect": name, "max_parse_depth": depth.getint("sqlfluff", "max_parse_depth")}
    )
    sqlfluff.parse(text, config=config)
