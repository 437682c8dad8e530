"""Whether two differing values of a column are within the pair's tolerance, as Spark SQL.

Both algorithms hand over the canonical texts of the rows that differ (docs/canonical-encoding.md).
Those texts are exact: a decimal at the negotiated scale, a float's exact binary value, a
timestamp's microseconds. So the typed values are read back from them, in Spark, and compared
in exact arithmetic where the type is exact: decimals and integers as decimals (never through a
double), floats as doubles, timestamps as microseconds, dates as days. Only differing values
reach this code; rows that match never do.

A number is within tolerance when |b - a| <= abs_tol, or when |b - a| <= rel_tol *
max(|a|, |b|, rel_floor): either suffices, as in Python's math.isclose. A value against NULL, NaN
or an infinity (that is not equal) is never within tolerance.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Context, Decimal

from pyspark.sql import Column
from pyspark.sql import functions as F

from parity.values.column_rule import ColumnRule

# Spark subtracts two decimal(38, s) at scale s - 1 (its precision stops at 38): values are read
# at 37 digits, so the difference of two fits exactly. A value that needs all 38 digits is not
# read (NULL), and so is never within tolerance.
EXACT_DIGITS = 37
NANOS_PER_MS = 1_000_000
# Enough digits for any decimal(38, s) (Python's default context keeps 28).
EXACT = Context(prec=80)


@dataclass(frozen=True)
class Verdict:
    within: Column  # boolean, never NULL
    delta: Column  # target - source as text, in the column's unit; NULL where it has none
    relative_error: Column  # |delta| / max(|a|, |b|, rel_floor) for numbers, else NULL


def typed(rule: ColumnRule, text: Column) -> Column:
    """The value a canonical text of the column holds, in the type its verdict compares: a
    decimal, a double, a timestamp's nanoseconds, a date, or the text itself."""
    if rule.kind in ("integer", "decimal"):
        return _exact_decimal(text, rule.scale)
    if rule.kind == "float":
        # Canonical floats are Java-readable hex (0x1.999999999999ap-4): exact doubles.
        return text.try_cast("double")
    if rule.kind in ("timestamp", "timestamp_ntz"):
        return _nanos(text)
    if rule.kind == "date":
        return text.try_cast("date")
    return text


def verdict(rule: ColumnRule, a: Column, b: Column) -> Verdict:
    """The verdict on a pair of differing values of one column, each as ``typed`` read it from
    its canonical text. Each is used several times: reading them once (a column of their own,
    summary.py) spares reading a float's hex or a timestamp's fields again for each use."""
    if rule.kind in ("integer", "decimal"):
        return _exact_number(rule, a, b)
    if rule.kind == "float":
        return _float(rule, a, b)
    if rule.kind in ("timestamp", "timestamp_ntz"):
        return _timestamp(rule, a, b)
    if rule.kind == "date":
        return _date(rule, a, b)
    if rule.kind == "string":
        return _string(rule, a, b)
    return Verdict(F.lit(False), F.lit(None).cast("string"), F.lit(None).cast("double"))


def _exact_number(rule: ColumnRule, a: Column, b: Column) -> Verdict:
    scale = min(rule.scale, EXACT_DIGITS)
    delta = b - a  # decimal(38, scale): exact
    magnitude = F.abs(delta)
    within = F.lit(False)
    abs_tol = rule.number("abs_tol")
    if abs_tol is not None:
        # delta is a multiple of 10^-scale: compare with the tolerance floored to that grid, in
        # the same type, so no comparison rounds.
        grid = _floored(abs_tol, scale)
        within = within | (magnitude <= F.lit(grid).cast(f"decimal(38,{scale})"))
    relative = _relative_error(magnitude.cast("double"), a.cast("double"), b.cast("double"), rule)
    within = _with_relative(within, relative, rule)
    # format_number: a decimal cast to text may read 1E-8.
    text = F.regexp_replace(F.format_number(delta, scale), ",", "")
    return Verdict(F.coalesce(within, F.lit(False)), text, relative)


def _float(rule: ColumnRule, a: Column, b: Column) -> Verdict:
    finite = ~F.isnan(a) & ~F.isnan(b) & (F.abs(a) < float("inf")) & (F.abs(b) < float("inf"))
    delta = b - a
    within = F.lit(False)
    abs_tol = rule.number("abs_tol")
    if abs_tol is not None:
        within = within | (F.abs(delta) <= F.lit(float(abs_tol)))
    relative = _relative_error(F.abs(delta), a, b, rule)
    within = _with_relative(within, relative, rule) & finite
    return Verdict(F.coalesce(within, F.lit(False)), delta.cast("string"), relative)


def _relative_error(magnitude: Column, a: Column, b: Column, rule: ColumnRule) -> Column:
    floor = float(rule.number("rel_floor") or 0)
    scale = F.greatest(F.abs(a), F.abs(b), F.lit(floor))
    return F.when(scale > 0, magnitude / scale)


def _with_relative(within: Column, relative: Column, rule: ColumnRule) -> Column:
    rel_tol = rule.number("rel_tol")
    return within if rel_tol is None else within | (relative <= F.lit(float(rel_tol)))


def _timestamp(rule: ColumnRule, a: Column, b: Column) -> Verdict:
    lag = b - a
    within = F.lit(False)
    tolerance = rule.number("temporal_tolerance_ms")
    if tolerance is not None:
        within = F.abs(lag) <= F.lit(tolerance * NANOS_PER_MS)
    # Milliseconds at 3 digits for whole microseconds, else at 6: exact in decimal(29, 6),
    # whose text is plain at either scale.
    micros = (lag / 1000).cast("decimal(23,0)") * F.lit(Decimal("0.001"))
    text = F.when(lag % 1000 == 0, micros.cast("string")).otherwise(
        (lag * F.lit(Decimal("0.000001"))).cast("string")
    )
    return Verdict(F.coalesce(within, F.lit(False)), text, F.lit(None).cast("double"))


def _date(rule: ColumnRule, a: Column, b: Column) -> Verdict:
    days = F.datediff(b, a)
    within = F.lit(False)
    tolerance = rule.number("temporal_tolerance_days")
    if tolerance is not None:
        within = F.abs(days) <= F.lit(int(tolerance))
    return Verdict(
        F.coalesce(within, F.lit(False)), days.cast("string"), F.lit(None).cast("double")
    )


def _string(rule: ColumnRule, source: Column, target: Column) -> Verdict:
    def normalized(text: Column) -> Column:
        if rule.tolerance.get("trim"):
            text = F.regexp_replace(text, r"^\s+|\s+$", "")
        if rule.tolerance.get("case_insensitive"):
            text = F.lower(text)
        if rule.tolerance.get("empty_equals_null"):
            text = F.when(text != "", text)
        return text

    within = normalized(source).eqNullSafe(normalized(target)) if rule.tolerance else F.lit(False)
    return Verdict(within, F.lit(None).cast("string"), F.lit(None).cast("double"))


def _exact_decimal(text: Column, scale: int) -> Column:
    if scale <= EXACT_DIGITS:
        return text.try_cast(f"decimal({EXACT_DIGITS},{scale})")
    kept = text.try_cast(f"decimal({EXACT_DIGITS},{EXACT_DIGITS})")
    return F.when(text.try_cast(f"decimal(38,{scale})") == kept, kept)


def _nanos(text: Column) -> Column:
    """Nanoseconds from 1970-01-01 of a canonical timestamp text (`YYYY-MM-DD HH:MM:SS` and up
    to 9 fractional digits), as decimal(22, 0): whole seconds from the fields of a timestamp
    without time zone (a cast through the session time zone would move wall-clock times in a
    DST gap), then the fraction's digits."""
    ts = F.substring(text, 1, 19).try_cast("timestamp_ntz")
    seconds = (
        F.unix_date(ts.cast("date")).cast("decimal(22,0)") * 86_400
        + F.hour(ts) * 3_600
        + F.minute(ts) * 60
        + F.second(ts)
    )
    fraction = F.rpad(F.substring(text, 21, 9), 9, "0").try_cast("decimal(22,0)")
    return (seconds * 1_000_000_000 + fraction).cast("decimal(22,0)")


def _floored(value: Decimal, scale: int) -> str:
    step = Decimal(1).scaleb(-scale)
    largest = EXACT.subtract(EXACT.power(10, 38 - scale), step)
    return f"{min(value, largest).quantize(step, ROUND_FLOOR, context=EXACT):f}"
