"""hashdiff reuses the row differences of the segments its last result found differing, where both
sides' checksums of a segment are unchanged, and finds what a drill-down of every segment finds."""

from __future__ import annotations

import pytest
from pyspark.sql import functions as F

from parity.algorithms.hashdiff import hashdiff
from parity.algorithms.last_differences import LastDifferences
from parity.pipelines.reused_differences import in_cells, key_position_sql
from parity.reference import row_hash
from parity.sides.spark import cell_sql
from parity.values.keyspace import KeySpace
from tests.spark.canonical_frames import spark_side
from tests.spark.test_algorithms_agree import drilled, ordered

FACTOR, THRESHOLD = 32, 20


def table(size: int, changed: dict[int, str], start: int = 0) -> list:
    return [((str(i),), (changed.get(i, f"v{i}"), "x")) for i in range(start, size)]


def compare(spark, source_rows, target_rows, last=None):
    source = spark_side(spark, "source", source_rows, 2)
    target = spark_side(spark, "target", target_rows, 2)
    return hashdiff("test_pair", source, target, FACTOR, THRESHOLD, last=last)


def last_of(outcome) -> LastDifferences:
    segments = outcome.segments
    return LastDifferences(
        "r1", segments, lambda cells: in_cells(outcome.diffs, 1, True, segments, cells)
    )


@pytest.mark.scale
def test_unchanged_differing_segments_are_reused_and_changed_ones_drilled(spark):
    source = table(5000, {})
    first = compare(spark, source, table(5000, {5: "a", 2100: "b", 4000: "c"}))
    assert first.segments is not None and len(first.segments.cells) == 3

    # One new difference in a segment of its own, and 4000 changed again: of the three segments
    # that differed, two are unchanged on both sides; 4000's changed, so it is drilled into.
    changed = {5: "a", 2100: "b", 4000: "c2", 3000: "d"}
    fresh = compare(spark, source, table(5000, changed))
    again = compare(spark, source, table(5000, changed), last_of(first))

    assert ordered(drilled(again)) == ordered(drilled(fresh))
    assert [d.key for d in ordered(drilled(again))] == [
        ("2100",),
        ("3000",),
        ("4000",),
        ("5",),
    ]
    assert (again.stats.segments_reused, fresh.stats.segments_reused) == (2, 0)
    assert again.stats.rows_moved < fresh.stats.rows_moved
    # The state handed on lists every differing segment of this run, reused ones included.
    assert again.segments == fresh.segments and len(again.segments.cells) == 4


def test_a_segment_that_differs_no_longer_is_not_reused(spark):
    source = table(5000, {})
    first = compare(spark, source, table(5000, {5: "a", 2100: "b"}))
    # 2100 copied again: its segment's checksums now match, whatever the last result found.
    again = compare(spark, source, table(5000, {5: "a"}), last_of(first))
    assert [d.key for d in drilled(again)] == [("5",)]
    assert again.stats.segments_reused == 1


# Keys 0..4999 span a space 8,192 units wide: keys appended up to its end leave every cell in
# place; past it the space is another, and so is every cell.
@pytest.mark.scale
@pytest.mark.parametrize(("size", "reused"), [(5100, 1), (9000, 0)])
def test_keys_appended_keep_the_segments_within_the_headroom(spark, size, reused):
    first = compare(spark, table(5000, {}), table(5000, {5: "a"}))
    longer = table(size, {})
    again = compare(spark, longer, table(5000, {5: "a"}), last_of(first))
    assert ordered(drilled(again)) == ordered(
        drilled(compare(spark, longer, table(5000, {5: "a"})))
    )
    assert again.stats.segments_reused == reused
    assert first.segments.space.width == 8192
    assert (again.segments.space == first.segments.space) == bool(reused)


def test_a_rolling_window_keeps_the_segments(spark):
    first = compare(spark, table(5000, {}), table(5000, {4000: "a"}))
    # The oldest 300 keys deleted and 500 appended: the last space still spans them.
    source, target = table(5500, {}, 300), table(5500, {4000: "a"}, 300)
    again = compare(spark, source, target, last_of(first))
    assert [d.key for d in drilled(again)] == [("4000",)]
    assert again.stats.segments_reused == 1 and again.segments.space == first.segments.space


def test_a_halted_drill_down_keeps_no_segments(spark):
    source_side = spark_side(spark, "source", table(5000, {}), 2)
    target_side = spark_side(spark, "target", table(5000, {5: "a", 4000: "b"}), 2)
    halted = hashdiff(
        "test_pair", source_side, target_side, FACTOR, THRESHOLD, lambda found, n: "max"
    )
    assert halted.stats.halted and halted.segments is None


def test_a_keys_position_is_read_back_from_its_canonical_fields_as_the_sides_hash_it(spark):
    keys = [("1", "a"), ("", None), ("é☕", "1:a"), ("-", "x" * 40), ("7", "")]
    frame = spark.createDataFrame([(list(k),) for k in keys], "key array<string>")
    positions = frame.select(F.expr(key_position_sql(2, False)).alias("p")).collect()
    assert [r["p"] for r in positions] == [row_hash(k) for k in keys]
    integers = spark.createDataFrame([(["-12"],), (["9007199254740993"],)], "key array<string>")
    found = integers.select(F.expr(key_position_sql(1, True)).alias("p")).collect()
    assert [r["p"] for r in found] == [-12, 9007199254740993]
    # And the cell, as the sides compute it.
    space = KeySpace.hashed(FACTOR)
    cells = frame.select(F.expr(cell_sql(key_position_sql(2, False), space, 2)).alias("c"))
    assert [r["c"] for r in cells.collect()] == [space.cell_of(row_hash(k), 2) for k in keys]
