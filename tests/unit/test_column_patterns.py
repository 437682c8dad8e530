"""A column's pattern is named only where it holds for nearly every compared value, and for one
constant: a shift of whole hours in one direction, an hour apart at most (one zone with its
summer time), one power of ten."""

from __future__ import annotations

import pytest

from parity.results.patterns import classify
from parity.values.column_rule import ColumnRule

AT = ColumnRule("time_hour", "timestamp", {})
AMOUNT = ColumnRule("amount", "decimal", {}, scale=2)
NAME = ColumnRule("name", "string", {})


def hours(count: int, low: int, high: int) -> dict[str, int]:
    return {"hours": count, "hours_min": low, "hours_max": high}


def test_a_whole_hour_shift_on_nearly_every_row_names_time_zone():
    found = classify(AT, hours(336_773, 4, 5), 336_776)
    assert found.pattern == "whole_hours"
    assert found.pattern_note.startswith("336773 of 336776 compared values shifted by whole hours")
    assert "4 to 5, the target later than the source" in found.pattern_note
    assert "`time_zone`" in found.pattern_note
    assert "5, the target earlier" in classify(AT, hours(10, -5, -5), 10).pattern_note


@pytest.mark.parametrize(
    ("found", "compared"),
    [
        (hours(80, 5, 5), 100),  # not nearly every row
        (hours(100, -5, 5), 100),  # both ways
        (hours(100, 3, 5), 100),  # no one zone
        (hours(0, None, None), 0),  # nothing compared
        ({}, 100),
    ],
)
def test_no_pattern_without_one_constant_on_nearly_every_row(found, compared):
    assert classify(AT, found, compared) is None


def test_a_power_of_ten_is_one_constant():
    found = classify(AMOUNT, {"tens": 95, "tens_min": -2, "tens_max": -2}, 100)
    assert (found.pattern, "times 10^-2" in found.pattern_note) == ("power_of_ten", True)
    assert classify(AMOUNT, {"tens": 95, "tens_min": -2, "tens_max": 3}, 100) is None


def test_a_string_names_the_tolerance_option_that_absorbs_it():
    assert "{trim: true}" in classify(NAME, {"trimmed": 10, "trimmed_cased": 10}, 10).pattern_note
    assert classify(NAME, {"cased": 10, "trimmed_cased": 10}, 10).pattern == "case"
    both = classify(NAME, {"trimmed": 3, "cased": 4, "trimmed_cased": 10}, 10)
    assert both.pattern == "trimmed_and_case"
    assert "{trim: true, case_insensitive: true}" in both.pattern_note
