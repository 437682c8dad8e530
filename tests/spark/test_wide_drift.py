"""A drill-down stops splitting where splitting cannot narrow: cells of one row a side are
downloaded, never split, and where nearly every cell differs (a timestamp shifted on every row)
what differs is downloaded at once, in two or three passes, not a pass per level of the key
space."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from parity.algorithms.hashdiff import hashdiff
from parity.algorithms.rowdiff import compare_rows
from tests.spark.canonical_frames import spark_side
from tests.spark.test_algorithms_agree import drilled, ordered

ROWS = 3000
START = datetime(2024, 1, 1)


def timestamps(shift: timedelta) -> list:
    return [
        ((str(i),), ((START + timedelta(minutes=7 * i) + shift).isoformat(), "x"))
        for i in range(ROWS)
    ]


@pytest.mark.scale
def test_every_row_shifted_five_hours_is_found_in_three_passes_at_most(spark):
    source_rows, target_rows = timestamps(timedelta()), timestamps(timedelta(hours=5))
    expected = ordered(compare_rows(source_rows, target_rows))
    for hashed in (True, False):
        outcome = hashdiff(
            "test_pair",
            spark_side(spark, "source", source_rows, 2, hashed),
            spark_side(spark, "target", target_rows, 2, hashed),
            32,
            4,
        )
        assert ordered(drilled(outcome)) == expected and len(expected) == ROWS
        assert outcome.stats.passes <= 3, (hashed, outcome.stats)
        assert outcome.stats.rows_moved == 2 * ROWS


def test_cells_of_one_row_are_downloaded_not_split(spark):
    """Hashed positions have no unit cells: a first pass into 32,768 cells leaves each of three
    differing rows alone in its cell, and they are downloaded there."""
    source_rows = timestamps(timedelta())
    target_rows = list(source_rows)
    for i in (5, 1_700, 2_999):
        target_rows[i] = (target_rows[i][0], ("changed", "x"))
    outcome = hashdiff(
        "test_pair",
        spark_side(spark, "source", source_rows, 2, hashed=True),
        spark_side(spark, "target", target_rows, 2, hashed=True),
        32,
        100,
    )
    assert sorted(d.key for d in drilled(outcome)) == [("1700",), ("2999",), ("5",)]
    assert outcome.stats.passes == 2
    assert outcome.stats.rows_moved == 6


@pytest.mark.scale
def test_cells_above_the_threshold_all_differing_are_downloaded_at_once(spark):
    """70,000 rows, every one differing, in a first pass of 32,768 cells: about two rows a cell,
    above a threshold of 1, but a split would leave nearly all of them to download: they are
    downloaded at once, after two passes."""
    rows = 70_000
    source_rows = [((str(i),), ("a", "x")) for i in range(rows)]
    target_rows = [((str(i),), ("b", "x")) for i in range(rows)]
    outcome = hashdiff(
        "test_pair",
        spark_side(spark, "source", source_rows, 2, hashed=True),
        spark_side(spark, "target", target_rows, 2, hashed=True),
        32,
        1,
    )
    assert len(drilled(outcome)) == rows
    assert outcome.stats.passes == 2
    assert outcome.stats.rows_moved == 2 * rows
