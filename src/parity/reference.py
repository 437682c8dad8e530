"""Pure-Python reference of the canonical encoding (docs/canonical-encoding.md): the text of each
value under a negotiated profile, the row string and the row hash; and the tolerant checksum
text of a column hashed on its tolerance's grid (macros/tolerance/hash_grid.sql).

The tests hold every dialect's SQL to these functions.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import re
import struct
import uuid
import zoneinfo
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

NULL_FIELD = "-"
HASH_HEX_DIGITS = 15  # the lower 60 bits of the MD5
EPOCH = dt.datetime(1970, 1, 1)
EPOCH_2000_SECONDS = 946_684_800
# Enough digits for any decimal(38, s) (Python's default context keeps 28).
EXACT = Context(prec=80)
TRUE_SPELLINGS = {"t", "true", "y", "yes", "1"}
FALSE_SPELLINGS = {"f", "false", "n", "no", "0"}
# Below this a double hashes exactly on every grid: no subnormal arithmetic.
TINY = 2.0**-1000
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# A text that is no JSON document: no canonical JSON text starts with a letter i.
INVALID_JSON = "invalid JSON: "
# JSON numbers compare by their nearest double; below this magnitude an integral one is exact.
EXACT_INTEGERS = 2.0**53
SMALLEST_NORMAL = 2.0**-1022
# A control character's escape, after an even run of backslashes: its hex letters upper-cased.
CONTROL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*\\u00[01])([a-f])")


def row_string(values: Iterable[str | None]) -> str:
    """Each field is ``<characters>:<text>``, NULL is ``-``: no escaping, no ambiguity."""
    return "".join(NULL_FIELD if value is None else f"{len(value)}:{value}" for value in values)


def row_hash(values: Iterable[str | None]) -> int:
    digest = hashlib.md5(row_string(values).encode("utf-8")).hexdigest()
    return int(digest[-HASH_HEX_DIGITS:], 16)


def canonical_text(profile: dict[str, Any], value: Any) -> str | None:
    """The canonical text of a Python value (as a DB-API driver returns it) under a profile."""
    if value is None:
        return None
    kind = profile["kind"]
    if kind == "integer":
        return str(int(value))
    if kind == "decimal":
        rounded = Decimal(value).quantize(
            Decimal(1).scaleb(-profile["scale"]), ROUND_HALF_UP, context=EXACT
        )
        return f"{abs(rounded) if rounded == 0 else rounded:f}"
    if kind == "float":
        # A decimal or an integer is the float nearest to it, rounded once.
        if isinstance(value, Decimal | int) and not isinstance(value, bool):
            return float_text(decimal_as_float(Decimal(value), profile["bits"]))
        return float_text(float(value), profile["bits"])
    if kind == "boolean":
        return "1" if value else "0"
    if kind == "boolean_text":
        spelled = str(value).strip().lower()
        return "1" if spelled in TRUE_SPELLINGS else "0" if spelled in FALSE_SPELLINGS else value
    if kind == "string":
        return str(value).rstrip(" ") if profile.get("padded") else str(value)
    if kind == "uuid":  # as text, or as its 16 bytes (a Parquet UUID column read by Spark)
        if isinstance(value, (bytes, bytearray)):
            return str(uuid.UUID(bytes=bytes(value)))
        return str(value).lower()
    if kind == "date":
        return value.isoformat()
    if kind in ("timestamp", "timestamp_ntz"):
        held = 9 if profile.get("nanos") else 6
        ticks = epoch_ticks(value, held, profile.get("time_zone"))
        return timestamp_text(ticks, profile["digits"], profile["rounding"], held)
    if kind == "binary":
        return bytes(value).hex()
    if kind in ("nested", "json", "json_text"):
        if not isinstance(value, str):
            return json_text(value)
        try:
            document = json.loads(value, parse_float=Decimal, parse_constant=_no_constant)
        except ValueError:
            return INVALID_JSON + value
        return json_text(document)
    raise ValueError(f"no reference for kind {kind!r}")


def float_text(value: float, bits: int = 64) -> str:
    """NaN, ±Infinity, 0 for both zeros, else C's ``%.13a`` (Python's float.hex) of the double,
    narrowed first to float32 (nearest, ties to even) when the pair negotiated 32 bits."""
    value = narrowed(value, bits)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return "0" if value == 0 else value.hex()


def narrowed(value: float, bits: int) -> float:
    if bits == 32 and math.isfinite(value):
        try:
            return struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:  # rounds past the largest float32: infinity, as every engine casts
            return math.copysign(math.inf, value)
    return value


def decimal_as_float(value: Decimal, bits: int) -> float:
    """The float of ``bits`` nearest to a decimal, ties to even, rounded once. Through the double
    nearest to it, a decimal would round twice where that double is halfway between two float32s
    and the decimal is not: it then takes the float32 on its own side."""
    double = float(value)  # correctly rounded
    single = narrowed(double, bits)
    other = 2 * double - single  # exact: the float32 beyond the double, if it is a midpoint
    if (
        math.isfinite(single)
        and single != double
        and narrowed(other, 32) == other
        and Decimal(double) != value
    ):
        return max(single, other) if value > Decimal(double) else min(single, other)
    return single


def epoch_micros(value: dt.datetime) -> int:
    """Microseconds since 1970-01-01 00:00:00: of the instant in UTC, or of a naive wall clock."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    delta = value - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def epoch_ticks(value: dt.datetime | int, held: int = 6, time_zone: str | None = None) -> int:
    """Ticks (10^-``held`` s) since 1970-01-01 00:00:00 of a datetime, or of a count of
    nanoseconds (Python's datetime stops at microseconds); a naive value written in
    ``time_zone`` counts from its instant (``instant_of_wall_clock``)."""
    nanos = value if isinstance(value, int) else epoch_micros(value) * 1000
    if time_zone is not None:
        # A zone's offset changes on whole seconds: the second's offset is the value's.
        second = EPOCH + dt.timedelta(seconds=nanos // 10**9)
        offset = second - instant_of_wall_clock(second, time_zone)
        nanos -= offset // dt.timedelta(microseconds=1) * 1000
    return nanos // 10 ** (9 - held)


def instant_of_wall_clock(wall: dt.datetime, time_zone: str) -> dt.datetime:
    """The UTC wall clock of the instant a naive ``wall`` names in ``time_zone``: where the zone
    skips or repeats that time, the later of its two readings (fold 0 and fold 1)."""
    zone = zoneinfo.ZoneInfo(time_zone)
    readings = (wall.replace(tzinfo=zone, fold=fold).astimezone(dt.timezone.utc) for fold in (0, 1))
    return max(readings).replace(tzinfo=None)


def rounded_micros(micros: int, digits: int, rounding: str, held: int = 6) -> int:
    """``micros`` (ticks of 10^-``held`` s) at ``digits`` fractional digits, by the storing
    engine's rule."""
    unit = 10 ** (held - digits)
    if rounding == "truncate":
        return micros // unit * unit
    if rounding == "half_up":
        return (micros + unit // 2) // unit * unit
    if rounding == "half_even":
        units, rest = divmod(micros, unit)
        return (units + (rest * 2 > unit or (rest * 2 == unit and units % 2 == 1))) * unit
    epoch = {"half_away_from_1970": 0, "half_away_from_2000": EPOCH_2000_SECONDS * 10**held}[
        rounding
    ]
    offset = micros - epoch
    away = (abs(offset) + unit // 2) // unit * unit
    return epoch + (away if offset >= 0 else -away)


def timestamp_text(micros: int, digits: int, rounding: str, held: int = 6) -> str:
    """``YYYY-MM-DD HH:MM:SS`` and ``digits`` fractional digits of the rounded instant, from its
    ticks of 10^-``held`` s."""
    seconds, fraction = divmod(rounded_micros(micros, digits, rounding, held), 10**held)
    value = EPOCH + dt.timedelta(seconds=seconds)
    text = f"{value.year:04d}-{value:%m-%d %H:%M:%S}.{fraction:0{held}d}"
    return text[: 19 if digits == 0 else 20 + digits]


def json_text(document: Any) -> str:
    """Compact JSON: members whose value is null left out, object keys sorted by UTF-16 code
    units, strings escaped as json.dumps does but with upper-case hex, numbers by json_number."""
    if isinstance(document, dict):
        members = sorted(
            ((k, v) for k, v in document.items() if v is not None),
            key=lambda member: member[0].encode("utf-16-be"),
        )
        return "{" + ",".join(f"{json_string(k)}:{json_text(v)}" for k, v in members) + "}"
    if isinstance(document, list):
        return "[" + ",".join(json_text(v) for v in document) + "]"
    if isinstance(document, str):
        return json_string(document)
    if isinstance(document, bool) or document is None:
        return json.dumps(document)
    return json_number(document)


def json_string(text: str) -> str:
    escaped = json.dumps(text, ensure_ascii=False)
    return CONTROL_ESCAPE.sub(lambda m: m.group(1) + m.group(2).upper(), escaped)


def json_number(number: Any) -> str:
    """A JSON number by its nearest double d (RFC 8259 section 6): an integral d below 2^53 as its
    digits; else the decimal of 15 significant digits nearest d when it reads back as d (a normal
    d has at most one), in plain digits; else d's hexadecimal float text."""
    value = float(Decimal(str(number)))
    if math.isinf(value):
        return float_text(value)
    if value == int(value) and abs(value) < EXACT_INTEGERS:
        return str(int(value))
    shortest = f"{value:.14e}"
    if abs(value) >= SMALLEST_NORMAL and float(shortest) == value:
        return f"{Decimal(shortest).normalize():f}"
    return value.hex()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def hash_grid(kind: str, tolerance: dict[str, Any]) -> dict[str, Any] | None:
    """The grid a column with this resolved tolerance is hashed on, or None (hashed exactly)."""
    if kind == "float":
        return _float_grid(tolerance)
    if kind in ("timestamp", "timestamp_ntz") and "temporal_tolerance_ms" in tolerance:
        width = int(float(tolerance["temporal_tolerance_ms"]) * 1000)
        if not 2 <= width <= 10**15:
            return None
        nearest = tolerance.get("temporal_grid", "nearest") == "nearest"
        return {"kind": "timestamp", "width": width, "offset": width // 2 if nearest else 0}
    if kind == "string":
        options = ("trim", "case_insensitive", "empty_equals_null")
        grid = {"kind": "string", **{o: bool(tolerance.get(o, False)) for o in options}}
        return grid if any(grid[o] for o in options) else None
    return None


def _float_grid(tolerance: dict[str, Any]) -> dict[str, Any] | None:
    rel_tol = float(tolerance.get("rel_tol", 0))
    least = max(float(tolerance.get("abs_tol", 0)), rel_tol * float(tolerance.get("rel_floor", 0)))
    step = 2.0 ** math.floor(math.log2(least)) if least >= TINY else None
    if step is not None and step > least:  # log2 rounded up
        step /= 2
    dropped = max((bits for bits in range(1, 52) if 2.0 ** (bits - 52) <= rel_tol), default=0)
    if step is None and not dropped:
        return None
    grid: dict[str, Any] = {"kind": "float", "step": step, "dropped_bits": dropped}
    if dropped:
        start = step * 2.0 ** (52 - dropped) if step is not None else TINY
        grid.update(relative_from=start, relative_below=2.0 ** (1021 - dropped))
    else:
        grid.update(relative_from=step * 2.0**51)
    return grid


def tolerant_text(grid: dict[str, Any], canonical: str | None) -> str | None:
    """What a tolerant column contributes to the row hash of segment checksums, from its
    canonical text: the canonical text of the value's cell on the grid."""
    if canonical is None:
        return None
    if grid["kind"] == "float":
        special = canonical in ("NaN", "Infinity", "-Infinity", "0")
        return canonical if special else float_text(float_label(float.fromhex(canonical), grid))
    if grid["kind"] == "timestamp":
        whole, _, fraction = canonical.partition(".")
        nanos = epoch_micros(dt.datetime.fromisoformat(whole)) * 1000 + int(fraction.ljust(9, "0"))
        width, offset = grid["width"] * 1000, grid["offset"] * 1000
        label = (nanos + offset) // width * width
        return timestamp_text(label, len(fraction), "truncate", 9)
    text = canonical.strip(" ") if grid["trim"] else canonical
    if grid["case_insensitive"]:
        text = text.translate(ASCII_LOWER)
    return None if grid["empty_equals_null"] and text == "" else text


def float_label(value: float, grid: dict[str, Any]) -> float:
    """A double's cell on the float grid: the nearest step below ``relative_from``, the value
    rounded to 53 - s bits (Veltkamp's split) below ``relative_below``, else the value."""
    magnitude = abs(value)
    if magnitude < grid["relative_from"]:
        if grid["step"] is None:
            return value
        magic = 1.5 * 2.0**52 * grid["step"]
        return (value + magic) - magic
    if grid["dropped_bits"] and magnitude < grid["relative_below"]:
        split = value * float(2 ** grid["dropped_bits"] + 1)
        return split - (split - value)
    return value
