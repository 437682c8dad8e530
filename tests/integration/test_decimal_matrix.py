"""Decimals at every scale, reconciled by dbt in its own session (ANSI off): equal copies in Spark,
PostgreSQL and DuckDB match by checksum alone, two Spark sides match by both algorithms, every
one-step change is found with the reference's texts on both sides, and each engine's canonical
text of every value is the reference's (tests/integration/decimal_matrix.py)."""

from __future__ import annotations

import pytest

from parity.reference import canonical_text
from tests.integration import decimal_matrix as matrix
from tests.integration.side_rows import canonical_rows

LAKE = {"source": ["decimals_lake", matrix.TABLE]}
CHANGED = {"source": ["decimals_lake", matrix.CHANGED]}
PG = {"source": ["decimals_pg", matrix.TABLE]}
DUCKDB = {"source": ["decimals_duckdb", matrix.TABLE]}
COPY = {"source": ["decimals_lake", matrix.COPY]}
# Named apart from the other matrices' pairs, with which they are reconciled (matrix_run.py).
PAIRS = [
    {"name": "decimals_pg_spark", "source": PG, "target": LAKE},
    {"name": "decimals_duckdb_spark", "source": DUCKDB, "target": LAKE},
    {"name": "decimals_pg_duckdb", "source": PG, "target": DUCKDB},
    {"name": "decimals_spark_joindiff", "source": LAKE, "target": COPY},
    {"name": "decimals_spark_hashdiff", "source": LAKE, "target": COPY, "algorithm": "hashdiff"},
    {"name": "decimals_changed_joindiff", "source": LAKE, "target": CHANGED},
    {
        "name": "decimals_changed_hashdiff",
        "source": LAKE,
        "target": CHANGED,
        "algorithm": "hashdiff",
    },
    {"name": "decimals_changed_pg", "source": PG, "target": CHANGED},
]
EQUAL = [
    "decimals_pg_spark",
    "decimals_duckdb_spark",
    "decimals_pg_duckdb",
    "decimals_spark_joindiff",
    "decimals_spark_hashdiff",
]
CHANGED_PAIRS = ["decimals_changed_joindiff", "decimals_changed_hashdiff", "decimals_changed_pg"]


def matrix_pairs() -> list[dict]:
    """Every pair of this matrix, as the matrices' run compares them (matrix_run.py)."""
    return [{"key": "id", "bisection_threshold": 2, **pair} for pair in PAIRS]


def profile(column: str) -> dict:
    return {"kind": "decimal", "scale": matrix.COLUMNS[column][1]}


@pytest.fixture(scope="module")
def reconciled(matrices):
    """This matrix's pairs of the matrices' run: summaries, differences, plans."""
    return matrices.of(matrix_pairs())


@pytest.mark.parametrize("name", EQUAL)
def test_equal_decimals_match(reconciled, name):
    summaries, differences, _ = reconciled
    found = summaries[name]
    assert found["passed"], differences.get(name)
    assert found["source_rows"] == len(matrix.ROWS)
    if found["algorithm"] == "hashdiff":
        assert (found["checksum_passes"], found["rows_moved"]) == (1, 0)


@pytest.mark.parametrize("name", CHANGED_PAIRS)
def test_every_one_step_change_is_found_with_reference_texts(reconciled, name):
    _, differences, _ = reconciled
    found = {
        (d["key"], d["kind"], d["column_name"], d["source_value"], d["target_value"])
        for d in differences[name]
    }
    assert found == {
        (
            str(row_id),
            "value_mismatch",
            column,
            canonical_text(profile(column), matrix.value(row_id, column)),
            canonical_text(profile(column), matrix.changed_value(row_id, column)),
        )
        for column, row_id in matrix.PLANTED
    }


@pytest.mark.parametrize("name", ["decimals_pg_spark", "decimals_duckdb_spark"])
def test_every_engine_writes_the_references_text(reconciled, spark, name):
    _, _, plans = reconciled
    plan = plans[name]
    expected = {
        str(row_id): (
            str(row_id),
            *(canonical_text(profile(c), matrix.value(row_id, c)) for c in matrix.COLUMNS),
        )
        for row_id in matrix.ROWS
    }
    for side in (plan.source, plan.target):
        assert canonical_rows(side, spark) == expected, side.dialect
