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
from dataclasses import dataclass

from parity.results.summary import Difference
from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking

HASH_PREFIX = "sha256:"


@dataclass(frozen=True)
class PublishedDifference(Difference):
    """A difference as published: readable values in ``source_value`` and ``target_value``, the
    exact canonical text beside them, and only hashes of what the pair marks sensitive."""

    source_canonical: str | None = None
    target_canonical: str | None = None
    source_hash: str | None = None
    target_hash: str | None = None


def present(
    differences: list[Difference],
    key_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    masking: Masking,
) -> list[PublishedDifference]:
    """Each difference with its readable values, its canonical values and, where masked, the
    hashes in their place."""
    kinds = {rule.column.lower(): rule for rule in rules}
    hidden_key = any(masking.hides(name) for name in key_names)
    return [
        _published(d, _hashed(d.key) if hidden_key else d.key, kinds, masking) for d in differences
    ]


def _published(
    found: Difference, key: str | None, kinds: dict[str, ColumnRule], masking: Masking
) -> PublishedDifference:
    source, target = found.source_value, found.target_value
    if found.column_name is None:  # a whole row, as a JSON object of its canonical values
        return PublishedDifference(
            key,
            found.kind,
            None,
            _row(source, masking, kinds),
            _row(target, masking, kinds),
            source_canonical=_row(source, masking),
            target_canonical=_row(target, masking),
        )
    if masking.hides(found.column_name):
        return PublishedDifference(
            key,
            found.kind,
            found.column_name,
            None,
            None,
            source_hash=None if source is None else _hashed(source),
            target_hash=None if target is None else _hashed(target),
        )
    rule = kinds.get(found.column_name.lower())
    return PublishedDifference(
        key,
        found.kind,
        found.column_name,
        _readable(source, rule),
        _readable(target, rule),
        found.delta,
        found.relative_error,
        source_canonical=source,
        target_canonical=target,
    )


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
