"""Decimals at every scale, reconciled by dbt in its own session (ANSI off): equal copies in Spark,
PostgreSQL and DuckDB match by checksum alone, two Spark sides match by both algorithms, every
one-step change is found with the reference's texts on both sides, and each engine's canonical
text of every value is the reference's (tests/integration/decimal_matrix.py)."""

from __future__ import annotations

import pytest

from parity.plan import pairs_from_rows
from parity.reference import canonical_text
from tests.integration import decimal_matrix as matrix
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import by_pair
from tests.integration.side_rows import canonical_rows

LAKE = {"source": ["decimals_lake", matrix.TABLE]}
CHANGED = {"source": ["decimals_lake", matrix.CHANGED]}
PG = {"source": ["decimals_pg", matrix.TABLE]}
DUCKDB = {"source": ["decimals_duckdb", matrix.TABLE]}
COPY = {"source": ["decimals_lake", matrix.COPY]}
PAIRS = [
    {"name": "pg_spark", "source": PG, "target": LAKE},
    {"name": "duckdb_spark", "source": DUCKDB, "target": LAKE},
    {"name": "pg_duckdb", "source": PG, "target": DUCKDB},
    {
        "name": "spark_joindiff",
        "source": LAKE,
        "target": {"source": ["decimals_lake", matrix.COPY]},
    },
    {
        "name": "spark_hashdiff",
        "source": LAKE,
        "target": {"source": ["decimals_lake", matrix.COPY]},
        "algorithm": "hashdiff",
    },
    {"name": "changed_joindiff", "source": LAKE, "target": CHANGED},
    {"name": "changed_hashdiff", "source": LAKE, "target": CHANGED, "algorithm": "hashdiff"},
    {"name": "changed_pg", "source": PG, "target": CHANGED},
]
EQUAL = ["pg_spark", "duckdb_spark", "pg_duckdb", "spark_joindiff", "spark_hashdiff"]
CHANGED_PAIRS = ["changed_joindiff", "changed_hashdiff", "changed_pg"]


def profile(column: str) -> dict:
    return {"kind": "decimal", "scale": matrix.COLUMNS[column][1]}


@pytest.fixture(scope="module")
def reconciled(scratch, spark, postgres_url, tmp_path_factory):
    matrix.write_spark_tables(spark, scratch.schema)
    matrix.copy_to_postgres(postgres_url)
    matrix.copy_to_duckdb(spark, scratch.schema, tmp_path_factory.mktemp("decimals"))
    scratch.write("models/decimal_sources.yml", matrix.SOURCES)
    pairs = [{"key": "id", "bisection_threshold": 2, **pair} for pair in PAIRS]
    assert reconcile(scratch, pairs).success
    summaries, differences = by_pair(spark, scratch.schema)
    plans = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{scratch.schema}.parity_plan").collect()]
    )
    yield summaries, differences, {plan.name: plan for plan in plans}
    (scratch.path / "models/decimal_sources.yml").unlink()


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


@pytest.mark.parametrize("name", ["pg_spark", "duckdb_spark"])
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
