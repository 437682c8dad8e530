"""Decimals against floats, reconciled by dbt (tests/integration/decimal_float_matrix.py): a
decimal compares as the float nearest to it, rounded once. Every decimal copied into a float by
PostgreSQL, DuckDB or Spark matches it by checksum alone, across engines, float32 midpoints
included, on a tolerance's grid too; a change in the last place of either is found; each engine's
text and grid label is the reference's. Of Reladiff's six PostgreSQL pairs, the three from
numeric(6,3) to a float match; the three from a float to numeric(6,3) differ exactly where the
float had more than three decimals, each within half a thousandth, which a tolerance of that
accepts."""

from __future__ import annotations

from decimal import Decimal

import psycopg
import pytest

from parity.reference import canonical_text, hash_grid, tolerant_text
from tests.integration import decimal_float_matrix as matrix
from tests.integration.side_rows import canonical_rows

LAKE = {"source": ["decimal_floats_lake", matrix.TABLE]}
CHANGED = {"source": ["decimal_floats_lake", matrix.CHANGED]}
PG = {"source": ["decimal_floats_pg", matrix.TABLE]}
DUCKDB = {"source": ["decimal_floats_duckdb", matrix.TABLE]}
RELADIFF = {"source": ["decimal_floats_pg", matrix.RELADIFF_TABLE]}
# The float width each source column is compared at: its float's, or its decimal's float's.
BITS = {name: bits for name, (_, bits) in matrix.FLOATS.items()}
BITS |= {decimal: BITS[name] for name, (decimal, _) in matrix.FLOATS.items()}
CROSS = {"columns": list(matrix.CROSSED), "renames": matrix.CROSSED, "algorithm": "hashdiff"}
NUMERIC_TOLERANCE = {"abs_tol": 1e-9, "rel_tol": 1e-6}
# Named apart from the other matrices' pairs, with which they are reconciled (matrix_run.py).
EQUAL = ["floats_pg_spark", "floats_duckdb_spark", "floats_pg_duckdb", "floats_tolerant_pg_spark"]
CHANGED_PAIRS = ["floats_changed_pg", "floats_changed_duckdb"]
TO_FLOAT = [f"num_to_{name}" for name in matrix.RELADIFF_FLOATS]
TO_DECIMAL = [f"{name}_to_num" for name in matrix.RELADIFF_FLOATS]


def _reladiff_pairs() -> list[dict]:
    pairs = []
    for name in matrix.RELADIFF_FLOATS:
        copied = {"num": f"num_{name}"}, {f"raw_{name}": f"{name}_num"}
        for pair_name, renames in zip((f"num_to_{name}", f"{name}_to_num"), copied, strict=True):
            pairs.append({"name": pair_name, "columns": list(renames), "renames": renames})
        tolerance = {"columns": {f"raw_{name}": {"abs_tol": 0.0005}}}
        # Every value within tolerance listed, not 10 examples: each is checked to be one that
        # differs (test_floats_copied_into_decimals_...).
        examples = {"within_tolerance_examples": "all"}
        pairs.append(
            {**pairs[-1], "name": f"{name}_to_num_tolerant", "tolerance": tolerance, **examples}
        )
    return [{"source": RELADIFF, "target": RELADIFF, "algorithm": "hashdiff", **p} for p in pairs]


PAIRS = [
    {"name": "floats_pg_spark", "source": PG, "target": LAKE, **CROSS},
    {"name": "floats_duckdb_spark", "source": DUCKDB, "target": LAKE, **CROSS},
    {"name": "floats_pg_duckdb", "source": PG, "target": DUCKDB, **CROSS},
    {
        "name": "floats_tolerant_pg_spark",
        "source": PG,
        "target": LAKE,
        "tolerance": {"defaults": {"numeric": NUMERIC_TOLERANCE}},
        **CROSS,
    },
    {"name": "floats_changed_pg", "source": PG, "target": CHANGED, **CROSS},
    {"name": "floats_changed_duckdb", "source": DUCKDB, "target": CHANGED, **CROSS},
    *_reladiff_pairs(),
]


def profile(column: str) -> dict:
    return {"kind": "float", "bits": BITS[column]}


def matrix_pairs() -> list[dict]:
    """Every pair of this matrix, as the matrices' run compares them (matrix_run.py)."""
    return [{"key": "id", "bisection_threshold": 2, **pair} for pair in PAIRS]


@pytest.fixture(scope="module")
def reconciled(matrices):
    """This matrix's pairs of the matrices' run: summaries, differences, plans; and the run's
    schema diff."""
    return *matrices.of(matrix_pairs()), matrices.schema_diff


@pytest.mark.parametrize("name", EQUAL + TO_FLOAT)
def test_decimals_copied_into_floats_match_by_checksum(reconciled, name):
    summaries, differences, _, _ = reconciled
    found = summaries[name]
    assert found["passed"], differences.get(name)
    assert (found["checksum_passes"], found["rows_moved"]) == (1, 0)


@pytest.mark.parametrize("name", CHANGED_PAIRS)
def test_a_change_in_the_last_place_is_found_with_reference_texts(reconciled, name):
    _, differences, _, _ = reconciled
    found = {
        (d["key"], d["kind"], d["column_name"], d["source_canonical"], d["target_canonical"])
        for d in differences[name]
    }
    assert found == {
        (
            str(row_id),
            "value_mismatch",
            matrix.CROSSED[column],
            canonical_text(profile(column), matrix.value(row_id, matrix.CROSSED[column])),
            canonical_text(profile(column), matrix.value(row_id, column, changed=True)),
        )
        for row_id, column in matrix.PLANTED
    }


@pytest.mark.parametrize(
    "name", ["floats_pg_spark", "floats_duckdb_spark", "floats_tolerant_pg_spark"]
)
def test_every_engine_writes_the_references_text(reconciled, spark, name):
    """The canonical texts, and on a tolerance's grid (absolute, then relative) the labels."""
    _, _, plans, _ = reconciled
    plan = plans[name]
    grid = hash_grid("float", NUMERIC_TOLERANCE) if "tolerant" in name else None
    for side, columns in ((plan.source, matrix.CROSSED), (plan.target, matrix.CROSSED.values())):
        expected = {}
        for row_id in matrix.ROWS:
            texts = [canonical_text(profile(c), matrix.value(row_id, c)) for c in columns]
            labels = [tolerant_text(grid, text) for text in texts] if grid else []
            expected[str(row_id)] = (str(row_id), *texts, *labels)
        assert canonical_rows(side, spark) == expected, side.dialect


def _reladiff_stored(url: str, name: str) -> dict[int, tuple]:
    """The float and the numeric(6,3) PostgreSQL made of it, by id, as psycopg reads them."""
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            f"select id, raw_{name}, {name}_num from {matrix.RELADIFF_TABLE}"
        ).fetchall()
    return {row[0]: row[1:] for row in rows}


@pytest.mark.parametrize("name", matrix.RELADIFF_FLOATS)
def test_floats_copied_into_decimals_differ_where_they_had_more_decimals(
    reconciled, spark, postgres_url, name
):
    summaries, differences, plans, _ = reconciled
    bits = 32 if name == "real" else 64
    stored = _reladiff_stored(postgres_url, name)
    differing = {
        row_id
        for row_id, (float_, decimal) in stored.items()
        if canonical_text({"kind": "float", "bits": bits}, float_)
        != canonical_text({"kind": "float", "bits": bits}, decimal)
    }
    # psycopg reads a real as the shortest decimal that reads back as its float32.
    more_decimals = {
        row_id
        for row_id, (float_, _) in stored.items()
        if Decimal(repr(float_)) != Decimal(repr(float_)).quantize(Decimal("0.001"))
    }
    assert differing == more_decimals and len(differing) > 30
    assert differing.isdisjoint({1, 2, 6, 7, 8, 11})  # 0, 0.1, 0.10, 10.0, 100.98, 1/5
    found = {(d["key"], d["kind"], d["column_name"]) for d in differences[f"{name}_to_num"]}
    assert found == {(str(row_id), "value_mismatch", f"raw_{name}") for row_id in differing}
    # Rows whose values share a cell of the tolerance's grid hash alike and are never moved.
    tolerant = summaries[f"{name}_to_num_tolerant"]
    assert tolerant["passed"], differences.get(f"{name}_to_num_tolerant")
    accepted = {(d["key"], d["kind"]) for d in differences[f"{name}_to_num_tolerant"]}
    assert accepted and accepted <= {(str(row_id), "within_tolerance") for row_id in differing}
    # Each side hashes the label of its value on the float grid, the decimal's included.
    grid = hash_grid("float", {"abs_tol": 0.0005})
    plan = plans[f"{name}_to_num_tolerant"]
    for side, position in ((plan.source, 0), (plan.target, 1)):
        expected = {}
        for row_id, values in stored.items():
            text = canonical_text({"kind": "float", "bits": bits}, values[position])
            expected[str(row_id)] = (str(row_id), text, tolerant_text(grid, text))
        assert canonical_rows(side, spark) == expected, side.dialect


@pytest.mark.parametrize("name", TO_FLOAT + TO_DECIMAL)
def test_a_decimal_and_a_float_are_compared_though_neither_holds_the_other(reconciled, name):
    summaries, _, _, diff = reconciled
    found = {
        (r["change"], r["compared"], r["finding_kind"]) for r in diff if r["pair_name"] == name
    }
    assert ("incompatible", True, None) in found and summaries[name]["schema_findings"] == 0
