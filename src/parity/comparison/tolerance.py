"""Whether two differing values of a column are within the pair's tolerance, as Spark SQL text.

Both algorithms hand over the canonical texts of the rows that differ (docs/canonical-encoding.md).
Those texts are exact: a decimal at the negotiated scale, a float's exact binary value, a
timestamp's microseconds. So the typed values are read back from them, in Spark, and compared
in exact arithmetic where the type is exact: decimals and integers as decimals (never through a
double), floats as doubles, timestamps as microseconds, dates as days. Only differing values
reach this code; rows that match never do.

A number is within tolerance when |b - a| <= abs_tol, or when |b - a| <= rel_tol *
max(|a|, |b|, rel_floor): either suffices, as in Python's math.isclose. A value against NULL, NaN
or an infinity (that is not equal) is never within tolerance.

Each expression is SQL text, which the caller hands to Spark once (F.expr): built as Column
objects, each operator and literal was a call from Python into the JVM, about fifty for each
compared column of a pair with differences.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_FLOOR, Context, Decimal

from parity.values.column_rule import ColumnRule
from parity.values.spark_literals import decimal_literal, double_literal, string_literal

# Spark subtracts two decimal(38, s) at scale s - 1 (its precision stops at 38): values are read
# at 37 digits, so the difference of two fits exactly. A value that needs all 38 digits is not
# read (NULL), and so is never within tolerance.
EXACT_DIGITS = 37
NANOS_PER_MS = 1_000_000
# Enough digits for any decimal(38, s) (Python's default context keeps 28).
EXACT = Context(prec=80)
NO_TEXT = "cast(null as string)"
NO_NUMBER = "cast(null as double)"
INFINITY = "cast('Infinity' as double)"
# Leading and trailing blanks, as Java's \s reads them.
BLANKS = string_literal(r"^\s+|\s+$")


@dataclass(frozen=True)
class Verdict:
    within: str  # boolean, never NULL
    delta: str  # target - source as text, in the column's unit; NULL where it has none
    relative_error: str  # |delta| / max(|a|, |b|, rel_floor) for numbers, else NULL


def typed(rule: ColumnRule, text: str) -> str:
    """The value a canonical text of the column holds, in the type its verdict compares: a
    decimal, a double, a timestamp's nanoseconds, a date, or the text itself."""
    if rule.kind in ("integer", "decimal"):
        return _exact_decimal(text, rule.scale)
    if rule.kind == "float":
        # Canonical floats are Java-readable hex (0x1.999999999999ap-4): exact doubles.
        return f"try_cast({text} as double)"
    if rule.kind in ("timestamp", "timestamp_ntz"):
        return _nanos(text)
    if rule.kind == "date":
        return f"try_cast({text} as date)"
    return text


def verdict(rule: ColumnRule, a: str, b: str) -> Verdict:
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
    return Verdict("false", NO_TEXT, NO_NUMBER)


def _exact_number(rule: ColumnRule, a: str, b: str) -> Verdict:
    scale = min(rule.scale, EXACT_DIGITS)
    delta = f"({b} - {a})"  # decimal(38, scale): exact
    magnitude = f"abs({delta})"
    within = []
    abs_tol = rule.number("abs_tol")
    if abs_tol is not None:
        # delta is a multiple of 10^-scale: compare with the tolerance floored to that grid, in
        # the same type, so no comparison rounds.
        grid = _floored(abs_tol, scale)
        within.append(f"{magnitude} <= cast('{grid}' as decimal(38,{scale}))")
    relative = _relative_error(
        f"cast({magnitude} as double)", f"cast({a} as double)", f"cast({b} as double)", rule
    )
    # format_number: a decimal cast to text may read 1E-8.
    text = f"regexp_replace(format_number({delta}, {scale}), ',', '')"
    return Verdict(_never_null(_with_relative(within, relative, rule)), text, relative)


def _float(rule: ColumnRule, a: str, b: str) -> Verdict:
    finite = " and ".join(
        f"({condition})"
        for condition in (
            f"not isnan({a})",
            f"not isnan({b})",
            f"abs({a}) < {INFINITY}",
            f"abs({b}) < {INFINITY}",
        )
    )
    delta = f"({b} - {a})"
    within = []
    abs_tol = rule.number("abs_tol")
    if abs_tol is not None:
        within.append(f"abs({delta}) <= {double_literal(float(abs_tol))}")
    relative = _relative_error(f"abs({delta})", a, b, rule)
    within = f"({_with_relative(within, relative, rule)}) and {finite}"
    return Verdict(_never_null(within), f"cast({delta} as string)", relative)


def _relative_error(magnitude: str, a: str, b: str, rule: ColumnRule) -> str:
    floor = double_literal(float(rule.number("rel_floor") or 0))
    scale = f"greatest(abs({a}), abs({b}), {floor})"
    return f"case when {scale} > 0 then {magnitude} / {scale} end"


def _with_relative(within: list[str], relative: str, rule: ColumnRule) -> str:
    """Either tolerance suffices: ``within``'s conditions, or the relative error's."""
    rel_tol = rule.number("rel_tol")
    if rel_tol is not None:
        within = [*within, f"({relative}) <= {double_literal(float(rel_tol))}"]
    return " or ".join(f"({condition})" for condition in within) or "false"


def _never_null(within: str) -> str:
    return f"coalesce({within}, false)"


def _timestamp(rule: ColumnRule, a: str, b: str) -> Verdict:
    lag = f"({b} - {a})"
    within = "false"
    tolerance = rule.number("temporal_tolerance_ms")
    if tolerance is not None:
        within = f"abs({lag}) <= {decimal_literal(tolerance * NANOS_PER_MS)}"
    # Milliseconds at 3 digits for whole microseconds, else at 6: exact in decimal(29, 6),
    # whose text is plain at either scale.
    micros = f"cast({lag} / 1000 as decimal(23,0)) * {decimal_literal(Decimal('0.001'))}"
    text = (
        f"case when {lag} % 1000 = 0 then cast({micros} as string)"
        f" else cast({lag} * {decimal_literal(Decimal('0.000001'))} as string) end"
    )
    return Verdict(_never_null(within), text, NO_NUMBER)


def _date(rule: ColumnRule, a: str, b: str) -> Verdict:
    days = f"datediff({b}, {a})"
    within = "false"
    tolerance = rule.number("temporal_tolerance_days")
    if tolerance is not None:
        within = f"abs({days}) <= {int(tolerance)}"
    return Verdict(_never_null(within), f"cast({days} as string)", NO_NUMBER)


def _string(rule: ColumnRule, source: str, target: str) -> Verdict:
    def normalized(text: str) -> str:
        if rule.tolerance.get("trim"):
            text = f"regexp_replace({text}, {BLANKS}, '')"
        if rule.tolerance.get("case_insensitive"):
            text = f"lower({text})"
        if rule.tolerance.get("empty_equals_null"):
            text = f"case when {text} != '' then {text} end"
        return text

    within = f"{normalized(source)} <=> {normalized(target)}" if rule.tolerance else "false"
    return Verdict(within, NO_TEXT, NO_NUMBER)


def _exact_decimal(text: str, scale: int) -> str:
    if scale <= EXACT_DIGITS:
        return f"try_cast({text} as decimal({EXACT_DIGITS},{scale}))"
    kept = f"try_cast({text} as decimal({EXACT_DIGITS},{EXACT_DIGITS}))"
    return f"case when try_cast({text} as decimal(38,{scale})) = {kept} then {kept} end"


def _nanos(text: str) -> str:
    """Nanoseconds from 1970-01-01 of a canonical timestamp text (`YYYY-MM-DD HH:MM:SS` and up
    to 9 fractional digits), as decimal(22, 0): whole seconds from the fields of a timestamp
    without time zone (a cast through the session time zone would move wall-clock times in a
    DST gap), then the fraction's digits."""
    ts = f"try_cast(substring({text}, 1, 19) as timestamp_ntz)"
    seconds = (
        f"cast(unix_date(cast({ts} as date)) as decimal(22,0)) * 86400"
        f" + hour({ts}) * 3600 + minute({ts}) * 60 + second({ts})"
    )
    fraction = f"try_cast(rpad(substring({text}, 21, 9), 9, '0') as decimal(22,0))"
    return f"cast(({seconds}) * 1000000000 + {fraction} as decimal(22,0))"


def _floored(value: Decimal, scale: int) -> str:
    step = Decimal(1).scaleb(-scale)
    largest = EXACT.subtract(EXACT.power(10, 38 - scale), step)
    return f"{min(value, largest).quantize(step, ROUND_FLOOR, context=EXACT):f}"
