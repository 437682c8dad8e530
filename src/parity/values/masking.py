"""What a pair publishes no value of."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

# What a published hash of a hidden value begins with (parity_differences, a key in an error).
HASH_PREFIX = "sha256:"


@dataclass(frozen=True)
class Masking:
    """What a pair keeps secret: everything, or these columns (lower-cased source names)."""

    everything: bool
    columns: frozenset[str]

    def hides(self, column: str | None) -> bool:
        return self.everything or (column is not None and column.lower() in self.columns)


def hashed(text: str) -> str:
    """A hidden value's text as parity publishes it: the sha256 of its UTF-8 bytes, prefixed
    (results/presentation.py computes the same in Spark SQL)."""
    return HASH_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()
