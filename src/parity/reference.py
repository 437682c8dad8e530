"""Pure-Python reference of the canonical encoding (docs/canonical-encoding.md): the text of each
value under a negotiated profile, the row string and the row hash.

The tests hold every dialect's SQL to these functions.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
import struct
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

NULL_FIELD = "-"
HASH_HEX_DIGITS = 15  # the lower 60 bits of the MD5
EPOCH = dt.datetime(1970, 1, 1)
EPOCH_2000_MICROS = 946_684_800_000_000
# Enough digits for any decimal(38, s) (Python's default context keeps 28).
EXACT = Context(prec=80)
TRUE_SPELLINGS = {"t", "true", "y", "yes", "1"}
FALSE_SPELLINGS = {"f", "false", "n", "no", "0"}


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
        return float_text(float(value), profile["bits"])
    if kind == "boolean":
        return "1" if value else "0"
    if kind == "boolean_text":
        spelled = str(value).strip().lower()
        return "1" if spelled in TRUE_SPELLINGS else "0" if spelled in FALSE_SPELLINGS else value
    if kind == "string":
        return str(value).rstrip(" ") if profile.get("padded") else str(value)
    if kind == "uuid":
        return str(value).lower()
    if kind == "date":
        return value.isoformat()
    if kind in ("timestamp", "timestamp_ntz"):
        return timestamp_text(epoch_micros(value), profile["digits"], profile["rounding"])
    if kind == "binary":
        return bytes(value).hex()
    if kind in ("nested", "json", "json_text"):
        return json_text(
            json.loads(value, parse_float=Decimal) if isinstance(value, str) else value
        )
    raise ValueError(f"no reference for kind {kind!r}")


def float_text(value: float, bits: int = 64) -> str:
    """NaN, ±Infinity, 0 for both zeros, else C's ``%.13a`` (Python's float.hex) of the double,
    narrowed first to float32 (nearest, ties to even) when the pair negotiated 32 bits."""
    if bits == 32 and math.isfinite(value):
        try:
            value = struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:  # rounds past the largest float32: infinity, as every engine casts
            value = math.copysign(math.inf, value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    return "0" if value == 0 else value.hex()


def epoch_micros(value: dt.datetime) -> int:
    """Microseconds since 1970-01-01 00:00:00: of the instant in UTC, or of a naive wall clock."""
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    delta = value - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def rounded_micros(micros: int, digits: int, rounding: str) -> int:
    """``micros`` at ``digits`` fractional digits, by the storing engine's rule."""
    unit = 10 ** (6 - digits)
    if rounding == "truncate":
        return micros // unit * unit
    if rounding == "half_up":
        return (micros + unit // 2) // unit * unit
    epoch = {"half_away_from_1970": 0, "half_away_from_2000": EPOCH_2000_MICROS}[rounding]
    offset = micros - epoch
    away = (abs(offset) + unit // 2) // unit * unit
    return epoch + (away if offset >= 0 else -away)


def timestamp_text(micros: int, digits: int, rounding: str) -> str:
    """``YYYY-MM-DD HH:MM:SS`` and ``digits`` fractional digits of the rounded instant."""
    value = EPOCH + dt.timedelta(microseconds=rounded_micros(micros, digits, rounding))
    text = f"{value.year:04d}-{value:%m-%d %H:%M:%S}.{value.microsecond:06d}"
    return text[: 19 if digits == 0 else 20 + digits]


def json_text(document: Any) -> str:
    """Compact JSON, object keys sorted by code point, numbers without trailing zeros."""
    if isinstance(document, dict):
        members = sorted(document.items())
        return (
            "{"
            + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{json_text(v)}" for k, v in members)
            + "}"
        )
    if isinstance(document, list):
        return "[" + ",".join(json_text(v) for v in document) + "]"
    if isinstance(document, bool) or document is None or isinstance(document, str):
        return json.dumps(document, ensure_ascii=False)
    number = Decimal(str(document))
    return "0" if number == 0 else f"{number.normalize():f}"
