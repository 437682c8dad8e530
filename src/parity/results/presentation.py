"""How a difference is published: values a person can read beside the exact canonical text, and
no value at all for what the pair marks sensitive.

Canonical text is exact but not always readable (a double is its hexadecimal binary value, a
boolean is 1 or 0). The published ``source_value`` and ``target_value`` are readable: a float
in the shortest decimal that reads back as the same value, a boolean as true or false; the
exact text stays in ``source_canonical`` and ``target_canonical``. A sensitive value is
published as its sha256 only (of its canonical text): enough to tell equal values apart, never
the value. Only differences pass through here, already on the driver.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
from typing import Any

from pyspark.sql import types as T

from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking

HASH_PREFIX = "sha256:"

# A difference as found: a row, or one value of a row, or a schema finding.
DIFFERENCE = T.StructType(
    [
        T.StructField("key", T.StringType(), True),  # NULL for a schema finding
        T.StructField("kind", T.StringType(), False),
        T.StructField("column_name", T.StringType(), True),
        T.StructField("source_value", T.StringType(), True),
        T.StructField("target_value", T.StringType(), True),
        T.StructField("delta", T.StringType(), True),
        T.StructField("relative_error", T.DoubleType(), True),
    ]
)

# A difference as published: readable values, the exact canonical text beside
# them, and only hashes of what the pair marks sensitive.
PUBLISHED_DIFFERENCE = T.StructType(
    [
        *DIFFERENCE.fields,
        T.StructField("source_canonical", T.StringType(), True),
        T.StructField("target_canonical", T.StringType(), True),
        T.StructField("source_hash", T.StringType(), True),
        T.StructField("target_hash", T.StringType(), True),
    ]
)


def present(
    differences: list[tuple[Any, ...]],
    key_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    masking: Masking,
) -> list[tuple[Any, ...]]:
    """DIFFERENCE rows, each with its readable values, its canonical values and, where
    masked, the hashes in their place (PUBLISHED_DIFFERENCE)."""
    kinds = {rule.column.lower(): rule for rule in rules}
    hidden_key = any(masking.hides(name) for name in key_names)
    published = []
    for key, kind, column, source, target, delta, relative in differences:
        shown_key = _hashed(key) if hidden_key else key
        if column is None:  # a whole row, as a JSON object of its canonical values
            readable = [_row(v, masking, kinds) for v in (source, target)]
            exact = [_row(v, masking) for v in (source, target)]
            published.append((shown_key, kind, None, *readable, None, None, *exact, None, None))
        elif masking.hides(column):
            hashes = [None if v is None else _hashed(v) for v in (source, target)]
            published.append((shown_key, kind, column, None, None, None, None, None, None, *hashes))
        else:
            rule = kinds.get(column.lower())
            readable = [_readable(v, rule) for v in (source, target)]
            published.append(
                (shown_key, kind, column, *readable, delta, relative, source, target, None, None)
            )
    return published


def _row(
    document: str | None, masking: Masking, kinds: dict[str, ColumnRule] | None = None
) -> str | None:
    """A whole row's JSON, readable when given the columns' kinds, hidden values hashed."""
    if document is None:
        return None
    if masking.everything:
        return _hashed(document)
    values = json.loads(document)
    shown = {
        name: (None if value is None else _hashed(value))
        if masking.hides(name)
        else (_readable(value, kinds.get(name.lower())) if kinds else value)
        for name, value in values.items()
    }
    return json.dumps(shown, ensure_ascii=False, separators=(",", ":"))


def _readable(text: str | None, rule: ColumnRule | None) -> str | None:
    if text is None or rule is None:
        return text
    if rule.kind == "boolean":
        return {"1": "true", "0": "false"}.get(text, text)
    if rule.kind == "float" and text not in ("NaN", "Infinity", "-Infinity"):
        return shortest_float(float.fromhex(text) if text != "0" else 0.0, rule.bits)
    return text


def shortest_float(value: float, bits: int = 64) -> str:
    """The shortest decimal that reads back as this double, or as this float32 value."""
    if bits == 64 or not math.isfinite(value):
        return repr(value)
    for digits in range(1, 10):
        text = f"{value:.{digits}g}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == value:
            return repr(float(text))
    return repr(value)


def _hashed(text: str) -> str:
    return HASH_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()
