"""hashdiff, joindiff (both its passes) and the in-memory multiset comparison find the same
differences."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parity.algorithms import cell_hashes
from parity.algorithms.canonical_join import canonical_join
from parity.algorithms.cell_hashes import NARROW_SHARE, CellPass, cell_hash_pass
from parity.algorithms.hashdiff import hashdiff
from parity.algorithms.key_hashes import key_hash_pass
from parity.algorithms.rowdiff import RowDiff, canonical_order, compare_rows
from parity.sides.spark import CELL_SHIFT, LITERAL_CELLS
from tests.examples import examples
from tests.spark.canonical_frames import spark_side

VALUES = st.sampled_from(["a", "b", "", "é☕", "1:a", "-", None])
KEYS = st.integers(-50, 400)


@st.composite
def table_pairs(draw):
    source = draw(st.lists(st.tuples(KEYS, VALUES, VALUES), max_size=40))
    target = list(source)
    for op, at, key, value in draw(
        st.lists(
            st.tuples(
                st.sampled_from(["drop", "add", "change", "dup"]), st.integers(0, 99), KEYS, VALUES
            ),
            max_size=6,
        )
    ):
        if op == "add" or not target:
            target.append((key, value, value))
            continue
        index = at % len(target)
        if op == "drop":
            target.pop(index)
        elif op == "change":
            old_key, first, _ = target[index]
            target[index] = (old_key, first, value)
        else:
            target.append(target[index])
    as_rows = lambda table: [((str(k),), (a, b)) for k, a, b in table]  # noqa: E731
    return as_rows(source), as_rows(target)


def ordered(diffs: list[RowDiff]) -> list[RowDiff]:
    def sort_key(d: RowDiff):
        return (
            canonical_order(d.key),
            d.kind,
            canonical_order(d.source_values or ()),
            canonical_order(d.target_values or ()),
        )

    return sorted(diffs, key=sort_key)


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(table_pairs(), st.sampled_from([2, 3, 32]), st.sampled_from([1, 2, 5, 16384]))
def test_hashdiff_joindiff_and_memory_agree(spark, tables, factor, threshold):
    source_rows, target_rows = tables
    expected = ordered(compare_rows(source_rows, target_rows))
    source = spark_side(spark, "source", source_rows, 2)
    target = spark_side(spark, "target", target_rows, 2)

    outcome = hashdiff("test_pair", source, target, factor, threshold)
    assert ordered(drilled(outcome)) == expected
    assert (outcome.source_rows, outcome.target_rows) == (len(source_rows), len(target_rows))
    # Each downloaded cell holds a differing key and at most `threshold` rows, unless it is a
    # single key's cell, which comes with all that key's copies.
    copies = max(Counter(k for k, _ in source_rows + target_rows).values(), default=0)
    per_cell = max(threshold, copies)
    differing_keys = len({d.key for d in expected})
    assert outcome.stats.source_rows_moved <= differing_keys * per_cell
    assert outcome.stats.target_rows_moved <= differing_keys * per_cell

    keys, values = list(source.plan.key_columns), list(source.plan.value_columns)
    assert ordered(as_row_diffs(canonical_join(source.frame, target.frame, keys, values))) == (
        expected
    )

    differing = {d.key for d in expected}
    for first in first_passes(source, target):
        try:
            if isinstance(first, CellPass):
                assert first.differing_cells == len({int(k[0]) >> CELL_SHIFT for k in differing})
            else:
                assert first.differing_keys == len(differing)
            with first.compared_rows(source, target) as rows:
                assert ordered(as_row_diffs(canonical_join(*rows, keys, values))) == expected
        finally:
            first.release()
        for counts, rows in zip(first.counts, (source_rows, target_rows), strict=True):
            copies = Counter(key for key, _ in rows)
            assert (counts.rows, counts.compared_rows, counts.null_keys) == (
                len(rows),
                len(rows),
                0,
            )
            assert counts.duplicate_keys == sum(1 for n in copies.values() if n > 1)


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(table_pairs())
def test_a_join_by_key_finds_what_the_multiset_comparison_finds(spark, tables):
    """Where neither side holds a key twice, comparing by a join on the key (unique_keys) finds
    the same differences: values changed, NULL against '', rows missing either way."""
    source_rows, target_rows = (list(dict(rows).items()) for rows in tables)
    source = spark_side(spark, "source", source_rows, 2)
    target = spark_side(spark, "target", target_rows, 2)
    keys, values = list(source.plan.key_columns), list(source.plan.value_columns)
    found = canonical_join(source.frame, target.frame, keys, values, unique_keys=True)
    assert ordered(as_row_diffs(found)) == ordered(compare_rows(source_rows, target_rows))


def first_passes(source, target) -> list:
    """joindiff's first pass both ways: by key, and by cell of consecutive keys."""
    keys = list(source.plan.key_columns)
    return [
        key_hash_pass(source.native, target.native, keys, "__parity_native"),
        cell_hash_pass(source, target, keys),
    ]


def drilled(outcome) -> list[RowDiff]:
    """hashdiff's row differences, out of Spark; the job that reads them counts the downloads."""
    found = [] if outcome.diffs is None else as_row_diffs(outcome.diffs)
    outcome.count_downloads()
    return found


def as_row_diffs(frame) -> list[RowDiff]:
    return [
        RowDiff(
            tuple(r["key"]),
            r["kind"],
            None if r["source_values"] is None else tuple(r["source_values"]),
            None if r["target_values"] is None else tuple(r["target_values"]),
        )
        for r in frame.collect()
    ]


@pytest.mark.scale
def test_many_differing_keys_are_listed_by_a_subquery(spark, monkeypatch):
    """More differing keys than a filter lists (LITERAL_CELLS): their rows are chosen by an IN
    subquery, the keys broadcast (not both tables sorted to join them), and joindiff's two
    passes still find every difference; by cell, so many rows differ that the cells are
    narrowed to their differing keys first (NARROW_SHARE, with NARROW_ROWS lowered to this
    table's size)."""
    monkeypatch.setattr(cell_hashes, "NARROW_ROWS", 1_000)
    source_rows = [((str(i),), (f"v{i}", "x")) for i in range(6_000)]
    target_rows = [(key, (first, "y")) for key, (first, _) in source_rows[1:]]
    source = spark_side(spark, "source", source_rows, 2)
    target = spark_side(spark, "target", target_rows, 2)
    keys, values = list(source.plan.key_columns), list(source.plan.value_columns)
    for first in first_passes(source, target):
        try:
            with first.compared_rows(source, target) as rows:
                plans = [frame._jdf.queryExecution().executedPlan().toString() for frame in rows]
                found = as_row_diffs(canonical_join(*rows, keys, values))
        finally:
            first.release()
        assert all("BroadcastHashJoin" in plan and "SortMergeJoin" not in plan for plan in plans)
        assert ordered(found) == ordered(compare_rows(source_rows, target_rows))
    assert first.differing_rows > max(NARROW_SHARE * len(source_rows), cell_hashes.NARROW_ROWS)
    assert LITERAL_CELLS < 6_000


def test_cells_count_duplicates_and_compare_only_their_own_rows(spark):
    """By cell: a duplicated key is counted whether or not the sides differ in its cell; 64
    distinct keys fill a cell without a duplicate, negative keys too; a few differing cells
    among many have only their own rows compared (listed as literals)."""
    source_rows = [((str(i),), (f"v{i}", "x")) for i in range(-128, 9_872)]
    target_rows = list(source_rows)
    target_rows[400] = (target_rows[400][0], ("changed", "x"))  # key 272
    both = source_rows[5_128]  # key 5000, held twice by both sides: equal, duplicated
    source_rows += [both, source_rows[100]]  # key -28
    target_rows += [both, source_rows[3], source_rows[3], source_rows[700]]  # keys -125, 572
    source = spark_side(spark, "source", source_rows, 2)
    target = spark_side(spark, "target", target_rows, 2)
    keys, values = list(source.plan.key_columns), list(source.plan.value_columns)
    first = cell_hash_pass(source, target, keys)
    try:
        assert [c.duplicate_keys for c in first.counts] == [2, 3]
        # The cells of keys -125, -28, 272 and 572; not that of 5000.
        assert first.differing_cells == 4
        assert first.differing_rows == 4 * 64 * 2 + 4 <= NARROW_SHARE * len(target_rows)
        with first.compared_rows(source, target) as rows:
            assert sum(frame.count() for frame in rows) == first.differing_rows
            found = as_row_diffs(canonical_join(*rows, keys, values))
    finally:
        first.release()
    assert ordered(found) == ordered(compare_rows(source_rows, target_rows))


def test_native_hashes_tell_where_the_nulls_are(spark):
    """Spark's hashes skip NULL arguments: without the mask, (NULL, 'a') and ('a', NULL) hash
    alike and the first pass would call the rows equal."""
    source = spark_side(spark, "source", [(("1",), (None, "a"))], 2)
    target = spark_side(spark, "target", [(("1",), ("a", None))], 2)
    for first in first_passes(source, target):
        try:
            assert not first.found_nothing
            assert len(first.differing.collect()) == 1
        finally:
            first.release()


def test_a_row_moved_to_another_key_of_its_cell_differs(spark):
    """The native hash leaves the key out (the pass by key groups on it); summed by cell, the
    same values under keys 55 and 52 of one cell would cancel, unless the key is hashed too."""
    source = spark_side(spark, "source", [(("55",), ("", ""))], 2)
    target = spark_side(spark, "target", [(("52",), ("", ""))], 2)
    first = cell_hash_pass(source, target, list(source.plan.key_columns))
    try:
        assert first.differing_cells == 1
    finally:
        first.release()


def test_identical_tables_take_one_checksum_pass_per_side(spark):
    rows = [((str(i),), (f"v{i}", None)) for i in range(500)]
    outcome = hashdiff(
        "test_pair",
        spark_side(spark, "source", rows, 2),
        spark_side(spark, "target", rows[::-1], 2),
        32,
        10,
    )
    assert outcome.diffs is None
    assert (outcome.stats.passes, outcome.stats.segments_checked, outcome.stats.rows_moved) == (
        1,
        1,
        0,
    )
    assert (outcome.stats.source_rows_moved, outcome.stats.target_rows_moved) == (0, 0)


def test_rows_moved_stay_near_the_differences(spark):
    source_rows = [((str(i),), (f"v{i}", "x")) for i in range(20_000)]
    target_rows = list(source_rows)
    for i in (5, 9_000, 19_999):
        target_rows[i] = (target_rows[i][0], ("changed", "x"))
    outcome = hashdiff(
        "test_pair",
        spark_side(spark, "source", source_rows, 2),
        spark_side(spark, "target", target_rows, 2),
        32,
        100,
    )
    assert sorted(d.key for d in drilled(outcome)) == [("19999",), ("5",), ("9000",)]
    # Three differing cells of at most 100 rows each, out of each side.
    assert 0 < outcome.stats.source_rows_moved <= 3 * 100
    assert 0 < outcome.stats.target_rows_moved <= 3 * 100
    assert outcome.stats.rows_moved == outcome.stats.source_rows_moved + (
        outcome.stats.target_rows_moved
    )


def test_circuit_breaker_stops_the_drill_down(spark):
    """Sparse keys far from a dense block: a first pass settles the sparse cells while the dense
    block needs another pass; a breaker that trips on the first download stops it there."""
    sparse = [((str(10**9 + i * 10**6),), ("v", "x")) for i in range(5)]
    dense = [((str(i),), (f"v{i}", "x")) for i in range(5_000)]
    source_rows = sparse + dense
    target_rows = [(k, ("changed", "x")) for k, _ in sparse] + [
        (k, ("changed", "x") if int(k[0]) % 1000 == 7 else v) for k, v in dense
    ]
    sides = [spark_side(spark, n, r, 2) for n, r in (("s", source_rows), ("t", target_rows))]
    whole = hashdiff("test_pair", *sides, 32, 100)
    asked = []
    halted = hashdiff(
        "test_pair",
        *sides,
        32,
        100,
        lambda diffs, rows: asked.append((diffs.count(), rows)) or True,
    )
    assert len(drilled(whole)) == 10 and not whole.stats.halted
    assert halted.stats.halted and asked == [(5, 5_005)]
    assert {d.key for d in drilled(halted)} == {k for k, _ in sparse}
    assert halted.stats.passes < whole.stats.passes
    assert halted.stats.rows_moved < whole.stats.rows_moved


def test_a_whole_level_of_differing_cells_is_fetched_by_a_semi_join(spark):
    """Every row differs, so every cell of 6,000 differs: the cells to refine and to download
    are far more than a filter lists (LITERAL_CELLS), and a semi-join fetches them."""
    source_rows = [((str(i),), (f"v{i}", "x")) for i in range(6_000)]
    target_rows = [(key, (first, "y")) for key, (first, _) in source_rows]
    assert len(source_rows) > LITERAL_CELLS
    outcome = hashdiff(
        "test_pair",
        spark_side(spark, "source", source_rows, 2),
        spark_side(spark, "target", target_rows, 2),
        32,
        1,
    )
    assert ordered(drilled(outcome)) == ordered(compare_rows(source_rows, target_rows))
    assert outcome.stats.rows_moved == 12_000


def test_a_key_held_thousands_of_times_compares_as_a_multiset(spark):
    """Copies cancel by count of distinct rows, not row by row: a key held 3,000 times, equal
    copies, surplus copies on each side and changed copies all come out as rowdiff says."""
    source_rows = [(("7",), (f"v{i % 40}", None)) for i in range(3_000)] + [(("8",), ("a", "b"))]
    target_rows = source_rows[5:] + [(("7",), ("v1", None))] * 3 + [(("7",), ("new", "x"))]
    source = spark_side(spark, "source", source_rows, 2)
    target = spark_side(spark, "target", target_rows, 2)
    keys, values = list(source.plan.key_columns), list(source.plan.value_columns)
    found = as_row_diffs(canonical_join(source.frame, target.frame, keys, values))
    assert ordered(found) == ordered(compare_rows(source_rows, target_rows))
    # Four surplus copies on the source (v0, v2, v3, v4), three on the target (v1 twice, new).
    assert len(found) == 4
