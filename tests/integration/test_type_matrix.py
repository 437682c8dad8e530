"""The two guarantees over the whole type matrix (tests/integration/type_matrix.py): equal data
copied across engines matches by checksum alone, and row by row; every single-value change
planted in any column of any type is found, and nothing else."""

from __future__ import annotations

import pytest

from parity.reference import canonical_text
from tests.integration import type_matrix as matrix
from tests.integration.run_results import finding
from tests.integration.side_rows import canonical_rows, tolerant_texts

LAKE = {"source": ["matrix_lake", matrix.TABLE]}
PAIRS = [
    {"name": "spark_pg", "source": {"source": ["matrix_pg", matrix.TABLE]}, "target": LAKE},
    {"name": "spark_duckdb", "source": {"source": ["matrix_duckdb", matrix.TABLE]}, "target": LAKE},
    {
        "name": "pg_duckdb",
        "source": {"source": ["matrix_pg", matrix.TABLE]},
        "target": {"source": ["matrix_duckdb", matrix.TABLE]},
    },
    {"name": "changed_pg", "source": {"source": ["matrix_pg", matrix.CHANGED]}, "target": LAKE},
    {
        "name": "changed_duckdb",
        "source": {"source": ["matrix_duckdb", matrix.CHANGED]},
        "target": LAKE,
    },
    {
        "name": "pg_pg",
        "source": {"source": ["matrix_pg", matrix.CHANGED]},
        "target": {"source": ["matrix_pg", matrix.TABLE]},
    },
    # Both in Spark: joindiff, its first pass hashing the values as Spark holds them.
    {"name": "lake_changed", "source": {"source": ["matrix_lake", matrix.CHANGED]}, "target": LAKE},
    {
        "name": "drifted",
        "source": {"source": ["matrix_pg", matrix.TABLE]},
        "target": {"source": ["matrix_lake", matrix.DRIFTED]},
    },
]
PLANTED = {(str(key), "value_mismatch", column) for column, key, _ in matrix.PLANTED}
# Every tolerant family, so that each engine writes the tolerant checksum text of every hard value.
TOLERANCE = {
    "defaults": {
        "numeric": {"rel_tol": "1e-9", "abs_tol": 0.01},
        "timestamp": {"temporal_tolerance_ms": 1},
        "string": {"trim": True, "case_insensitive": True, "empty_equals_null": True},
    },
    "columns": {"ratio32": {"abs_tol": 0, "rel_tol": 0.001}, "wall": {"temporal_grid": "floor"}},
}
TOLERANT_PAIRS = {
    "tolerant_pg": matrix.TABLE,
    "tolerant_duckdb": matrix.TABLE,
    "tolerant_changed": matrix.CHANGED,
}


def matrix_pairs() -> list[dict]:
    """Every pair of this matrix, as the matrices' run compares them (matrix_run.py)."""
    compound = {
        "name": "compound",
        "source": {"source": ["matrix_pg", matrix.COMPOUND]},
        "target": {"source": ["matrix_lake", matrix.COMPOUND]},
        "key": ["a", "b"],
    }
    tolerant = [
        {
            "name": name,
            "source": {"source": ["matrix_duckdb" if "duckdb" in name else "matrix_pg", table]},
            "target": LAKE,
            "tolerance": TOLERANCE,
        }
        for name, table in TOLERANT_PAIRS.items()
    ]
    return [{**pair, "key": "id", "bisection_threshold": 4} for pair in [*PAIRS, *tolerant]] + [
        compound
    ]


@pytest.fixture(scope="module")
def reconciled(matrices):
    """This matrix's pairs of the matrices' run: summaries, differences as findings, plans."""
    return matrices.of(matrix_pairs(), finding, set)


@pytest.mark.parametrize("name", ["spark_pg", "spark_duckdb"])
def test_equal_copies_match_by_checksum_alone(reconciled, name):
    summaries, differences, _ = reconciled
    found = summaries[name]
    assert found["passed"], sorted(differences[name])
    assert (found["source_rows"], found["checksum_passes"], found["rows_moved"]) == (10, 1, 0)


def test_copies_rounded_by_different_rules_differ_only_where_the_rules_do(reconciled):
    """PostgreSQL rounds a tie half away from 2000-01-01, DuckDB half away from 1970-01-01: only
    the ties between the two epochs were stored differently, and only they are reported."""
    _, differences, _ = reconciled
    assert differences["pg_duckdb"] == {
        ("4", "value_mismatch", "at_ms"),
        ("4", "value_mismatch", "wall_s"),
    }


@pytest.mark.parametrize("name", ["changed_pg", "changed_duckdb", "pg_pg", "lake_changed"])
def test_every_planted_change_is_found_and_nothing_else(reconciled, name):
    summaries, differences, _ = reconciled
    assert differences[name] == PLANTED
    assert not summaries[name]["passed"]
    assert summaries[name]["algorithm"] == ("joindiff" if name == "lake_changed" else "hashdiff")


@pytest.mark.parametrize("name", ["spark_pg", "spark_duckdb"])
def test_every_row_downloaded_agrees_too(reconciled, spark, name):
    _, _, plans = reconciled
    plan = plans[name]
    source, target = (canonical_rows(side, spark) for side in (plan.source, plan.target))
    assert len(source) == 10 and source == target


# The Spark side's profiles as negotiated against PostgreSQL's types.
SPARK_AGAINST_POSTGRES = {
    "small": {"kind": "integer"},
    "big": {"kind": "integer"},
    "amount": {"kind": "decimal", "scale": 4},
    "ratio": {"kind": "float", "bits": 64},
    "ratio32": {"kind": "float", "bits": 32},
    "narrowed": {"kind": "float", "bits": 32},
    "flag": {"kind": "boolean"},
    "flag_int": {"kind": "boolean"},
    "flag_text": {"kind": "boolean"},
    "code": {"kind": "string", "padded": True},
    "note": {"kind": "string"},
    "day": {"kind": "date"},
    "at": {"kind": "timestamp", "digits": 6, "rounding": "half_away_from_2000"},
    "at_ms": {"kind": "timestamp", "digits": 3, "rounding": "half_away_from_2000"},
    "wall": {"kind": "timestamp_ntz", "digits": 6, "rounding": "half_away_from_2000"},
    "wall_s": {"kind": "timestamp_ntz", "digits": 0, "rounding": "half_away_from_2000"},
    "uid": {"kind": "uuid"},
    "blob": {"kind": "binary"},
    "tiny": {"kind": "integer"},
    "medium": {"kind": "integer"},
}


def test_spark_canonical_values_are_the_references(reconciled, spark):
    """The oracle: each value Spark canonicalized equals the Python reference's text of the
    value written, under the profile negotiated with PostgreSQL."""
    _, _, plans = reconciled
    canonical = canonical_rows(plans["spark_pg"].target, spark)
    for written in matrix.spark_rows():
        expected = tuple(
            canonical_text(SPARK_AGAINST_POSTGRES[name], written[name]) for name in matrix.COLUMNS
        )
        assert canonical[str(written["id"])][1:] == expected


def test_schema_drift_is_reported_and_the_rest_compared(reconciled):
    summaries, differences, _ = reconciled
    assert differences["drifted"] == {
        (None, "column_missing_in_target", "blob"),
        (None, "column_missing_in_source", "extra"),
        (None, "type_mismatch", "day"),
    }
    found = summaries["drifted"]
    assert (found["schema_findings"], found["differing_rows"], found["passed"]) == (3, 0, False)
    assert (found["checksum_passes"], found["rows_moved"]) == (1, 0)


def test_compound_keys_are_segmented_across_engines_and_never_confused(reconciled):
    summaries, differences, _ = reconciled
    assert differences["compound"] == {
        ('["1","11"]', "value_mismatch", "value"),
        ('["11","1"]', "value_mismatch", "value"),
    }
    assert summaries["compound"]["algorithm"] == "hashdiff"


@pytest.mark.parametrize("name", ["tolerant_pg", "tolerant_duckdb"])
def test_tolerant_checksums_keep_equal_copies_equal(reconciled, name):
    summaries, differences, plans = reconciled
    assert summaries[name]["passed"], sorted(differences.get(name, ()))
    assert (summaries[name]["checksum_passes"], summaries[name]["rows_moved"]) == (1, 0)
    assert set(plans[name].gridded_columns) == {
        "ratio",
        "ratio32",
        "narrowed",
        "code",
        "note",
        "at",
        "at_ms",
        "wall",
        "wall_s",
    }


# The planted changes the tolerance above accepts: a double's last bit, a float32's, -2^31 by 1
# (4.7e-10 relative), an amount by 0.0001, timestamps by microseconds. (`at_ms` moves by 2 ms
# from the Spark value rounded to milliseconds.)
WITHIN = {"ratio", "ratio32", "medium", "amount", "at", "wall"}


def test_tolerant_changes_beyond_tolerance_are_all_found(reconciled):
    """Hashed on the grid, every planted change beyond the tolerance above still makes its
    segment differ and is found; the ones within it are within_tolerance where seen."""
    _, differences, _ = reconciled
    found = differences["tolerant_changed"]
    assert {d for d in found if d[1] == "value_mismatch"} == {
        d for d in PLANTED if d[2] not in WITHIN
    }
    assert {d for d in found if d[1] != "value_mismatch"} <= {
        (key, "within_tolerance", column) for key, _, column in PLANTED if column in WITHIN
    }


@pytest.mark.parametrize("name", ["tolerant_pg", "tolerant_duckdb"])
def test_tolerant_texts_are_the_references_in_every_engine(reconciled, spark, name):
    """Each engine's tolerant checksum text of every hard value (NaN, infinities, zeros, the
    largest double, timestamps before 1970...) is the Python reference's, from the value's
    canonical text on the grid of the column's tolerance; and the engines agree row by row."""
    _, _, plans = reconciled
    plan = plans[name]
    source, target = (canonical_rows(side, spark) for side in (plan.source, plan.target))
    assert source == target
    for row in target.values():
        tolerant, expected = tolerant_texts(plan, row)
        assert tolerant == expected
