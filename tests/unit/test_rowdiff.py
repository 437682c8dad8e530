from parity.algorithms.rowdiff import RowDiff, compare_rows


def rows(*items):
    return [((key,), tuple(values)) for key, *values in items]


def test_equal_rows_cancel_and_order_does_not_matter():
    source = rows(("1", "a"), ("2", "b"))
    assert compare_rows(source, list(reversed(source))) == []


def test_missing_mismatch_and_null_versus_empty():
    source = rows(("1", "a"), ("2", None), ("3", "c"))
    target = rows(("2", ""), ("3", "c"), ("4", "d"))
    assert compare_rows(source, target) == [
        RowDiff(("1",), "missing_in_target", ("a",), None),
        RowDiff(("2",), "value_mismatch", (None,), ("",)),
        RowDiff(("4",), "missing_in_source", None, ("d",)),
    ]


def test_duplicates_are_a_multiset():
    source = rows(("1", "a"), ("1", "a"), ("2", "x"))
    target = rows(("1", "a"), ("2", "x"), ("2", "x"), ("2", "x"))
    assert compare_rows(source, target) == [
        RowDiff(("1",), "duplicate_in_source", ("a",), None),
        RowDiff(("2",), "duplicate_in_target", None, ("x",)),
        RowDiff(("2",), "duplicate_in_target", None, ("x",)),
    ]


def test_leftovers_pair_in_canonical_order_nulls_last():
    source = rows(("1", None), ("1", "b"))
    target = rows(("1", "c"), ("1", "a"), ("1", "z"))
    assert compare_rows(source, target) == [
        RowDiff(("1",), "value_mismatch", ("b",), ("a",)),
        RowDiff(("1",), "value_mismatch", (None,), ("c",)),
        RowDiff(("1",), "duplicate_in_target", None, ("z",)),
    ]


def test_compound_keys_do_not_run_together():
    source = [(("1", "11"), ("x",))]
    target = [(("11", "1"), ("x",))]
    kinds = [d.kind for d in compare_rows(source, target)]
    assert kinds == ["missing_in_target", "missing_in_source"]
