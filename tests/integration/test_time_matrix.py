"""Nanoseconds and time zones across engines (tests/integration/time_matrix.py): a nanosecond side
against a microsecond one matches by the coarser engine's rounding rule, two nanosecond sides
compare at nanoseconds; a naive side written in a time zone matches the instants it names once
the pair says which zone, and not before. Every planted change is found, and nothing else."""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo

import pytest

from parity.reference import canonical_text
from tests.integration import time_matrix as matrix
from tests.integration.dbt_project_copy import error_text
from tests.integration.run_results import error_of, finding
from tests.integration.side_rows import canonical_rows, tolerant_texts


def _side(source: str, table: str) -> dict:
    return {"source": [source, table]}


ZONE = {"time_zone": {"source": matrix.PARIS}}
GRID = {"tolerance": {"defaults": {"timestamp": {"temporal_tolerance_ms": 0.002}}}}
PAIRS = {
    # Nanoseconds against microseconds stored by Spark (cut), DuckDB and PostgreSQL (rounded).
    "ns_spark": (_side("time_duckdb", "ns_values"), _side("time_lake", "ns_lake"), {}),
    "ns_duckdb_us": (_side("time_duckdb", "ns_values"), _side("time_duckdb", "us_values"), {}),
    "ns_pg": (_side("time_duckdb", "ns_values"), _side("time_pg", "us_values"), {}),
    # Nanoseconds against nanoseconds: one nanosecond is a difference, or within a tolerance.
    "ns_ns": (_side("time_duckdb", "ns_changed"), _side("time_duckdb", "ns_values"), {}),
    "ns_tolerant": (
        _side("time_duckdb", "ns_changed"),
        _side("time_duckdb", "ns_values"),
        {"tolerance": {"defaults": {"timestamp": {"temporal_tolerance_ms": 0.001}}}},
    ),
    # Hashed on a grid of 2 µs cells: at nanoseconds, and a nanosecond side at microseconds.
    "ns_gridded": (_side("time_duckdb", "ns_changed"), _side("time_duckdb", "ns_values"), GRID),
    "ns_spark_gridded": (_side("time_duckdb", "ns_values"), _side("time_lake", "ns_lake"), GRID),
    # Paris wall clocks against the instants they name.
    "pg_paris": (_side("time_pg", "paris_walls"), _side("time_lake", "instants_lake"), ZONE),
    "pg_paris_unset": (_side("time_pg", "paris_walls"), _side("time_lake", "instants_lake"), {}),
    "pg_paris_changed": (
        _side("time_pg", "paris_walls_changed"),
        _side("time_lake", "instants_lake"),
        ZONE,
    ),
    "duckdb_paris": (
        _side("time_duckdb", "paris_walls"),
        _side("time_lake", "utc_walls_lake"),
        ZONE,
    ),
    "duckdb_paris_unset": (
        _side("time_duckdb", "paris_walls"),
        _side("time_lake", "utc_walls_lake"),
        {},
    ),
    "duckdb_ns_paris": (
        _side("time_duckdb", "paris_walls_ns"),
        _side("time_lake", "instants_lake"),
        ZONE,
    ),
    "spark_paris": (_side("time_lake", "paris_walls_lake"), _side("time_pg", "instants"), ZONE),
    # Both in Spark: joindiff.
    "lake_paris": (
        _side("time_lake", "paris_walls_lake"),
        _side("time_lake", "instants_lake"),
        ZONE,
    ),
    # A time window: bounds in UTC for the instants, Paris wall clocks for the legacy side.
    "paris_window": (
        _side("time_pg", "paris_walls"),
        _side("time_lake", "instants_lake"),
        {**ZONE, "time_window": {"column": "moment", "max_age": "1000 days"}},
    ),
    # Two naive sides in the same zone: wall clocks, as they stand.
    "same_zone": (
        _side("time_pg", "paris_walls"),
        _side("time_duckdb", "paris_walls"),
        {"time_zone": matrix.PARIS},
    ),
}
MATCHING = [
    "ns_spark",
    "ns_duckdb_us",
    "ns_pg",
    "pg_paris",
    "duckdb_paris",
    "duckdb_ns_paris",
    "spark_paris",
    "lake_paris",
    "paris_window",
    "same_zone",
]
ZONED_ROWS = {str(key) for key, (wall, _) in matrix.ZONED.items() if wall is not None}


# A nanosecond Parquet file (time_matrix.write_ns_file) as both sides.
NS_FILE = {"source": ["ns_files", "ns"]}
NANOSECOND_FILE = [{"name": "ns_file", "source": NS_FILE, "target": NS_FILE, "key": "id"}]


def matrix_pairs() -> list[dict]:
    """Every pair of this matrix, as the matrices' run compares them (matrix_run.py)."""
    return [
        {"name": name, "source": source, "target": target, "key": "id", **options}
        | {"bisection_threshold": 2}
        for name, (source, target, options) in PAIRS.items()
    ] + NANOSECOND_FILE


@pytest.fixture(scope="module")
def reconciled(matrices):
    """This matrix's pairs of the matrices' run: summaries, differences as findings, plans."""
    return matrices.of(matrix_pairs(), finding, set)


@pytest.mark.parametrize("name", MATCHING)
def test_equal_values_match(reconciled, name):
    summaries, differences, _ = reconciled
    assert summaries[name]["passed"], sorted(differences.get(name, ()))
    assert summaries[name]["source_rows"] == summaries[name]["target_rows"] > 0


def test_one_nanosecond_is_a_difference_between_nanosecond_sides(reconciled):
    summaries, differences, _ = reconciled
    assert differences["ns_ns"] == {
        (str(key), "value_mismatch", column) for column, key in matrix.NANO_PLANTED
    }
    assert summaries["ns_ns"]["algorithm"] == "hashdiff"


def test_one_nanosecond_is_within_a_microsecond_tolerance(reconciled, matrices):
    """Judged at nanoseconds: the target lags the source by one nanosecond, in milliseconds."""
    summaries, differences, _ = reconciled
    assert differences["ns_tolerant"] == {
        (str(key), "within_tolerance", column) for column, key in matrix.NANO_PLANTED
    }
    assert summaries["ns_tolerant"]["passed"]
    _, found, _ = matrices.of([{"name": "ns_tolerant"}])
    assert {row["delta"] for row in found["ns_tolerant"]} == {"-0.000001"}


def _nanos(text: str) -> int:
    whole, fraction = text.split(".")
    seconds = dt.datetime.fromisoformat(whole) - dt.datetime(1970, 1, 1)
    return (seconds.days * 86_400 + seconds.seconds) * 10**9 + int(fraction)


@pytest.mark.parametrize(
    ("name", "digits", "rounding"),
    [
        ("ns_spark", 6, "truncate"),
        ("ns_duckdb_us", 6, "half_away_from_1970"),
        ("ns_pg", 6, "half_even"),
        ("ns_ns", 9, "half_away_from_1970"),
    ],
)
def test_nanosecond_texts_are_the_references(reconciled, spark, name, digits, rounding):
    """DuckDB's text of each nanosecond value, at the pair's digits by the coarser engine's
    rule, is the Python reference's (ties, carries, before 1970); so is Spark's, a side of one."""
    _, _, plans = reconciled
    plan = plans[name]
    profile = {"digits": digits, "rounding": rounding, "nanos": True}
    rows = canonical_rows(plan.target if name == "ns_ns" else plan.source, spark)
    for key, text in matrix.NANOS.items():
        value = None if text is None else _nanos(text)
        expected = tuple(
            canonical_text({"kind": kind, **profile}, value)
            for kind in ("timestamp_ntz", "timestamp")
        )
        assert rows[str(key)][1:] == expected, key
    if name == "ns_spark":
        assert canonical_rows(plan.target, spark) == rows


@pytest.mark.parametrize("name", ["pg_paris", "duckdb_paris", "duckdb_ns_paris", "spark_paris"])
def test_zoned_wall_clocks_are_the_references(reconciled, spark, name):
    """Each engine reads a Paris wall clock as the Python reference does: the instant, and in a
    gap or an overlap the later of its two readings."""
    _, _, plans = reconciled
    plan = plans[name]
    rows = canonical_rows(plan.source, spark)
    for key, (wall, utc) in matrix.ZONED.items():
        expected = canonical_text(
            {
                "kind": "timestamp_ntz",
                "digits": 6,
                "rounding": "truncate",
                "time_zone": matrix.PARIS,
            },
            None if wall is None else dt.datetime.fromisoformat(wall),
        )
        assert rows[str(key)][1:] == (expected,), key
        written = None if utc is None else utc if "." in utc else utc + ".000000"
        assert expected == written, key


@pytest.mark.parametrize("name", ["pg_paris_unset", "duckdb_paris_unset"])
def test_wall_clocks_differ_without_their_zone(reconciled, name):
    summaries, differences, _ = reconciled
    assert differences[name] == {(key, "value_mismatch", "moment") for key in ZONED_ROWS}
    assert not summaries[name]["passed"]


def test_planted_wall_clock_changes_are_found_and_nothing_else(reconciled):
    _, differences, _ = reconciled
    assert differences["pg_paris_changed"] == {
        (str(key), "value_mismatch", "moment") for key, _ in matrix.ZONE_PLANTED
    }


@pytest.mark.parametrize(
    ("time_zone", "message"),
    [
        ({"source": "Nowhere/Land"}, "parity pair 'p': source time_zone 'Nowhere/Land' is not"),
        ({"target": "CEST"}, "parity pair 'p': target time_zone 'CEST' is not a time zone name"),
        ({"sauce": "UTC"}, "parity pair 'p': 'time_zone' must be a time zone name"),
    ],
)
def test_an_unknown_zone_names_the_pair_and_side(scratch, time_zone, message):
    pair = {
        "name": "p",
        "source": {"ref": "legacy_orders"},
        "target": {"ref": "lakehouse_orders"},
        "key": "order_id",
        "time_zone": time_zone,
    }
    result = scratch.dbt(
        "run",
        "--select",
        "parity_remote_relations parity_remote_columns parity_plan",
        vars=scratch.demo_vars(parity={"pairs": [pair]}),
    )
    assert not result.success
    assert message in error_text(result)


def test_a_time_window_bounds_a_naive_side_by_its_wall_clocks(reconciled):
    """The window's bound, an instant, is a Paris wall clock in the legacy side's SQL."""
    summaries, _, plans = reconciled
    bound = json.loads(summaries["paris_window"]["filters"])["time_window"]["from"]
    wall = (
        dt.datetime.fromisoformat(bound)
        .replace(tzinfo=dt.timezone.utc)
        .astimezone(zoneinfo.ZoneInfo(matrix.PARIS))
    )
    assert f"\"moment\" >= timestamp '{wall:%Y-%m-%d %H:%M:%S.%f}'" in (
        plans["paris_window"].source.canonical_sql
    )
    assert f"`moment` >= timestamp_ltz'{bound}+00:00'" in plans["paris_window"].target.canonical_sql


@pytest.mark.parametrize("name", ["ns_gridded", "ns_spark_gridded"])
def test_tolerant_texts_of_nanoseconds_are_the_references(reconciled, spark, name):
    """On a grid of 2 µs, a nanosecond apart is the same cell: the copies match by checksum
    alone; each side's tolerant text is the reference's label of its canonical text."""
    summaries, _, plans = reconciled
    assert summaries[name]["passed"] and summaries[name]["checksum_passes"] == 1
    plan = plans[name]
    assert set(plan.gridded_columns) == set(plan.target.column_names)
    for side in (plan.source, plan.target):
        for row in canonical_rows(side, spark).values():
            tolerant, expected = tolerant_texts(plan, row)
            assert tolerant == expected


def test_a_nanosecond_parquet_file_side_fails_naming_pair_and_side(reconciled):
    """Spark 4 refuses a Parquet timestamp in nanoseconds: as a file side, the pair is an error
    with Spark's own reason, naming the type."""
    summaries, _, _ = reconciled
    reason = error_of(summaries["ns_file"])
    assert "parity pair 'ns_file': source relation (source ns_files.ns)" in reason
    assert "Illegal Parquet type: INT64 (TIMESTAMP(NANOS" in reason
