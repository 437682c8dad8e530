"""A column that differs on nearly every compared row by one constant, named with the option
that would absorb it: a timestamp shifted by whole hours (a naive side read in the wrong zone:
5 hours in winter and 4 in summer still count), a number off by one power of ten, a string
differing only by white space or letter case.

The evidence is counted in Spark beside the drift totals (drift.drift_totals, one job), over
the values beyond tolerance only: what a tolerance already accepts needs no advice. Only the
counts reach the driver; ``classify`` reads them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column
from pyspark.sql import functions as F

from parity.comparison.tolerance import BLANKS
from parity.results.drift import LAGGED, NUMERIC
from parity.values.column_rule import ColumnRule
from parity.values.spark_literals import string_literal

# "Nearly every compared row": the share of a column's compared values the pattern must hold for.
NEARLY_EVERY = 0.9
HOUR_MS = 3_600_000
# How far a ratio may be from its power of ten and still be it (a double's rounding).
RATIO_SLACK = 1e-9


@dataclass(frozen=True)
class ColumnPattern:
    """A pattern one column's differences follow (parity_column_drift.pattern), and a sentence
    saying how many values follow it and what would absorb it."""

    column_name: str
    pattern: str
    pattern_note: str


def evidence(rules: tuple[ColumnRule, ...]) -> dict[str, Column]:
    """The aggregates, per column over its differing values (summary.CELL), that ``classify``
    reads, for the kinds the pair compares: each counts only values of columns of its kind."""
    beyond = "not `within` and `source_value` is not null and `target_value` is not null"

    def of_kind(kinds: tuple[str, ...]) -> str | None:
        names = [string_literal(r.column) for r in rules if r.kind in kinds]
        return f"{beyond} and `column_name` in ({', '.join(names)})" if names else None

    found: dict[str, Column] = {}
    if timestamps := of_kind(LAGGED):
        lag = "try_cast(`delta` as decimal(29,6))"
        hours = f"{timestamps} and {lag} != 0 and {lag} % {HOUR_MS} = 0"
        found |= _counted("hours", hours, f"cast({lag} / {HOUR_MS} as bigint)")
    if numbers := of_kind(NUMERIC):
        ratio = "try_divide(try_cast(`target_value` as double), try_cast(`source_value` as double))"
        power = f"round(log10({ratio}))"
        tens = (
            f"{numbers} and {ratio} > 0 and {power} != 0"
            f" and abs({ratio} / power(10, {power}) - 1) <= {RATIO_SLACK}"
        )
        found |= _counted("tens", tens, f"cast({power} as bigint)")
    if strings := of_kind(("string",)):

        def equal(shown: str) -> str:
            source, target = (shown.format(f"`{side}_value`") for side in ("source", "target"))
            return f"{strings} and {source} = {target}"

        trimmed = f"regexp_replace({{}}, {BLANKS}, '')"
        found |= {
            "trimmed": F.expr(f"count_if({equal(trimmed)})"),
            "cased": F.expr(f"count_if({equal('lower({})')})"),
            "trimmed_cased": F.expr(f"count_if({equal(f'lower({trimmed})')})"),
        }
    return found


def _counted(name: str, condition: str, measure: str) -> dict[str, Column]:
    """How many values meet ``condition``, and the least and greatest ``measure`` among them."""
    chosen = f"case when {condition} then {measure} end"
    return {
        name: F.expr(f"count_if({condition})"),
        f"{name}_min": F.expr(f"min({chosen})"),
        f"{name}_max": F.expr(f"max({chosen})"),
    }


def classify(rule: ColumnRule, found: dict[str, Any], compared: int) -> ColumnPattern | None:
    """The pattern of the column's differences beyond tolerance (``found``: its aggregates of
    ``evidence``), if one holds for nearly every one of its ``compared`` values."""

    def holds(name: str) -> int:
        count = int(found.get(name) or 0)
        return count if count and count >= NEARLY_EVERY * compared else 0

    of = f"of {compared} compared values"
    if count := holds("hours"):
        low, high = int(found["hours_min"]), int(found["hours_max"])
        # One direction, at most an hour apart: one zone, its summer time included.
        if low * high > 0 and high - low <= 1:
            span = (
                f"{abs(low)}"
                if low == high
                else f"{min(abs(low), abs(high))} to {max(abs(low), abs(high))}"
            )
            later = "later" if low > 0 else "earlier"
            return ColumnPattern(
                rule.column,
                "whole_hours",
                f"{count} {of} shifted by whole hours, {span}, the target {later} than the"
                " source: a naive timestamp read in the wrong zone? `time_zone` (the zone a"
                " side's naive timestamps were written in) would absorb it",
            )
    if (count := holds("tens")) and found["tens_min"] == found["tens_max"]:
        power = int(found["tens_min"])
        return ColumnPattern(
            rule.column,
            "power_of_ten",
            f"{count} {of} are the source's times 10^{power} in the target: a unit or scale"
            " change, which no tolerance absorbs: rescale or cast one side (a model over it)",
        )
    for name, pattern, option, what in (
        ("trimmed", "trimmed", "trim: true", "leading or trailing white space"),
        ("cased", "case", "case_insensitive: true", "letter case"),
        (
            "trimmed_cased",
            "trimmed_and_case",
            "trim: true, case_insensitive: true",
            "white space and letter case",
        ),
    ):
        if count := holds(name):
            return ColumnPattern(
                rule.column,
                pattern,
                f"{count} {of} differ only by {what}: the string tolerance {{{option}}}"
                " would absorb it",
            )
    return None
