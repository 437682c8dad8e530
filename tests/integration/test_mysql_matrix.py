"""The type matrix's guarantees with a side in MySQL (MariaDB 10.11 here,
tests/integration/mysql_matrix.py): equal copies match by checksum alone, and row by row; every
single-value change planted in any column, MySQL's quirks included, is found, and nothing else;
against PostgreSQL, copies differ only where the two engines rounded a tie differently."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from parity.reference import epoch_micros, rounded_micros
from tests.integration import mysql_matrix as matrix
from tests.integration.dbt_project_copy import error_text
from tests.integration.mariadb_server import client
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import finding
from tests.integration.side_rows import canonical_rows, tolerant_texts
from tests.integration.test_type_matrix import TOLERANCE

WINDOW_DAYS = 3000
SOURCES_FILE = "models/mysql_matrix_sources.yml"
LAKE = {"source": ["mysql_matrix_lake", matrix.TABLE]}
MYSQL = {"source": ["mysql_matrix_mysql", matrix.TABLE]}
MYSQL_CHANGED = {"source": ["mysql_matrix_mysql", matrix.CHANGED]}
PAIRS = [
    {"name": "spark_mysql", "source": MYSQL, "target": LAKE},
    {"name": "changed_mysql", "source": MYSQL_CHANGED, "target": LAKE},
    {"name": "mysql_mysql", "source": MYSQL_CHANGED, "target": MYSQL},
    {"name": "mysql_pg", "source": MYSQL, "target": {"source": ["mysql_matrix_pg", matrix.TABLE]}},
    # Keyed by text that MySQL's collations equate ('a', 'a ', 'A'), one NULL key among them.
    {"name": "text_key", "source": MYSQL, "target": LAKE, "key": "padded", "enforce_key": "warn"},
    # Time windows over a TIMESTAMP and a DATE: their bounds as MySQL literals.
    *(
        {
            "name": f"recent_{column}",
            "source": MYSQL,
            "target": LAKE,
            "time_window": {"column": column, "max_age": f"{WINDOW_DAYS} days"},
        }
        for column in ("at_ts", "day")
    ),
    # Every tolerant family, so that MySQL writes the tolerant checksum text of every value.
    {"name": "tolerant_mysql", "source": MYSQL, "target": LAKE, "tolerance": TOLERANCE},
]
PLANTED = {(str(key), "value_mismatch", column) for column, key, _ in matrix.PLANTED}


def matrix_pairs() -> list[dict]:
    """Every pair of this matrix, as the matrices' run compares them (matrix_run.py)."""
    return [{"key": "id", "bisection_threshold": 4, **pair} for pair in PAIRS]


@pytest.fixture(scope="module")
def reconciled(matrices):
    """This matrix's pairs of the matrices' run: summaries, differences as findings, plans."""
    return matrices.of(matrix_pairs(), finding, set)


def test_equal_copies_match_by_checksum_alone(reconciled):
    summaries, differences, _ = reconciled
    found = summaries["spark_mysql"]
    assert found["passed"], sorted(differences.get("spark_mysql", ()))
    assert (found["source_rows"], found["checksum_passes"], found["rows_moved"]) == (10, 1, 0)


@pytest.mark.parametrize("name", ["changed_mysql", "mysql_mysql"])
def test_every_planted_change_is_found_and_nothing_else(reconciled, name):
    """MySQL's collation holds 'a' = 'a ' = 'A', TINYINT(1) is a boolean only by name, and a
    TIMESTAMP is stored in UTC: every change is still found, by its bytes and its instant."""
    summaries, differences, _ = reconciled
    assert differences[name] == PLANTED
    assert not summaries[name]["passed"]
    assert summaries[name]["algorithm"] == "hashdiff"


def test_every_row_downloaded_agrees_too(reconciled, spark):
    _, _, plans = reconciled
    plan = plans["spark_mysql"]
    source, target = (canonical_rows(side, spark) for side in (plan.source, plan.target))
    assert len(source) == 10 and source == target


def test_mysql_and_postgres_copies_differ_only_where_their_rounding_does(reconciled):
    """MariaDB truncates a finer fraction by default (its server says so, and parity reads it),
    PostgreSQL rounds it to nearest, a tie away from 2000-01-01: only the values the two rules
    stored differently are reported."""
    _, differences, _ = reconciled
    expected = set()
    for row in matrix.rows():
        for column, source, digits in (("at_ms", "at", 3), ("wall_s", "wall", 0)):
            if row[source] is None:
                continue
            micros = epoch_micros(row[source])
            if rounded_micros(micros, digits, "truncate") != rounded_micros(
                micros, digits, "half_away_from_2000"
            ):
                expected.add((str(row["id"]), "value_mismatch", column))
    assert expected  # the matrix holds such ties
    assert differences.get("mysql_pg", set()) == expected


# How each quirk column pair was negotiated: MySQL's TIMESTAMP is an instant, its utf8mb4 text
# a plain string whatever its collation, its DECIMAL(65,30) a decimal at Spark's scale 30.
QUIRK_RULES = {"at_ts": ("timestamp", 0), "padded": ("string", 0), "wide": ("decimal", 30)}


def test_mysql_types_are_read_as_their_quirks_require(reconciled):
    _, _, plans = reconciled
    rules = {rule.column: rule for rule in plans["spark_mysql"].column_rules}
    assert {c: (rules[c].kind, rules[c].scale) for c in QUIRK_RULES} == QUIRK_RULES


def test_text_keys_are_told_apart_by_their_bytes(reconciled):
    """MySQL's collations hold 'a' = 'a ' = 'A' (and '' = ' '): as keys they are still distinct
    keys, none duplicated, and each matches its own row."""
    summaries, differences, _ = reconciled
    found = summaries["text_key"]
    assert "text_key" not in differences
    nulls = (found["source_null_keys"], found["target_null_keys"])
    assert (found["source_rows"], *nulls) == (10, 1, 1)
    assert (found["source_duplicate_keys"], found["target_duplicate_keys"]) == (0, 0)


@pytest.mark.parametrize("column", ["at_ts", "day"])
def test_a_time_window_bounds_both_sides_alike(reconciled, column):
    summaries, differences, _ = reconciled
    found = summaries[f"recent_{column}"]
    since = dt.datetime.fromisoformat(json.loads(found["filters"])["time_window"]["from"])
    since = since.replace(tzinfo=dt.timezone.utc)
    kept = [
        row
        for row in matrix.rows()
        if row[column] is not None
        and (row[column] >= since if column == "at_ts" else row[column] >= since.date())
    ]
    assert 0 < len(kept) < 10
    assert (found["source_rows"], found["target_rows"]) == (len(kept), len(kept))
    assert found["passed"], differences.get(f"recent_{column}")


CASE_KEPT = {"case_insensitive": False}


def test_tolerant_texts_are_the_references_in_mysql(reconciled, spark):
    """MySQL's tolerant checksum text of every value (zeros, the largest double, subnormals,
    TIMESTAMP's first and last instants...) is the Python reference's, and equal copies still
    match by checksum alone. Text keeps its case on the grid: MySQL folds no case for it."""
    summaries, differences, plans = reconciled
    found = summaries["tolerant_mysql"]
    assert found["passed"], sorted(differences.get("tolerant_mysql", ()))
    assert (found["checksum_passes"], found["rows_moved"]) == (1, 0)
    plan = plans["tolerant_mysql"]
    source, target = (canonical_rows(side, spark) for side in (plan.source, plan.target))
    assert source == target
    assert {"ratio", "ratio32", "narrowed", "at", "at_ts", "padded"} <= set(plan.gridded_columns)
    for row in source.values():
        tolerant, expected = tolerant_texts(plan, row, CASE_KEPT)
        assert tolerant == expected


INJECTION = (
    "true)) as canonical) as canonical group by __parity_k0) as per_key;"
    f" drop table {matrix.TABLE}; commit; select 1 from (select 1 as __parity_k0 from"
    " (select 1 from (select 1 where (true"
)


def test_an_injected_filter_leaves_mysql_untouched(scratch, matrices, mariadb_url):
    """Against the matrices' MySQL table, in the scratch project given the MySQL matrix's
    sources: a run in the matrices' project, which declares every matrix, took four times as
    long, and would replace the tables the other tests read."""
    scratch.write(SOURCES_FILE, matrix.SOURCES)
    # Both sides in MySQL: the scratch project's schema holds no copy of the matrix.
    pair = {"name": "injected", "source": MYSQL, "target": MYSQL, "key": "id"}
    try:
        result = reconcile(scratch, [{**pair, "where": {"source": INJECTION, "target": "1=1"}}])
    finally:
        (scratch.path / SOURCES_FILE).unlink()
    assert not result.success
    message = error_text(result)
    assert "parity pair 'injected': the source side's where is refused (mysql)" in message
    with client(mariadb_url) as connection, connection.cursor() as cursor:
        cursor.execute(f"select count(*) from {matrix.TABLE}")
        assert cursor.fetchone() == (10,)
