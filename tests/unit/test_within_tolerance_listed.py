"""What a result says of its examples of values within tolerance: per compared column, how many it
lists (at most the cap, none where a halted pair publishes nothing), and whether it lists every
one, which alone lets a re-run read its differences back (pipelines/hashdiff.py)."""

from __future__ import annotations

import pytest

from parity.results.examples import ColumnExamples, all_listed, listed
from parity.values.column_rule import ColumnRule

RULES = (ColumnRule("a", "float", {}), ColumnRule("b", "string", {}), ColumnRule("c", "date", {}))
# Drift totals (drift.drift_totals) have a row only for a column with a differing value.
TOTALS = {"a": {"within": 25, "out": 1}, "b": {"within": 3, "out": 0}}


@pytest.mark.parametrize(
    ("cap", "counts"),
    [(10, (10, 3, 0)), (0, (0, 0, 0)), (None, (25, 3, 0)), (25, (25, 3, 0))],
)
def test_each_column_lists_the_least_of_its_count_and_the_cap(cap, counts):
    assert listed(TOTALS, RULES, cap, True) == [
        ColumnExamples(name, n) for name, n in zip("abc", counts, strict=True)
    ]


def test_a_pair_that_publishes_no_difference_lists_none():
    assert [c.within_tolerance_listed for c in listed(TOTALS, RULES, None, False)] == [0, 0, 0]


@pytest.mark.parametrize(
    ("cap", "every_one"), [(None, True), (25, True), (24, False), (3, False), (0, False)]
)
def test_every_value_is_listed_only_where_no_column_has_more_than_the_cap(cap, every_one):
    assert all_listed(TOTALS, cap) is every_one


def test_a_pair_with_no_value_within_tolerance_lists_every_one_whatever_the_cap():
    assert all_listed({"a": {"within": 0, "out": 4}}, 0) and all_listed({}, 0)
