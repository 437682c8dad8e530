"""Pure-Python reference of the canonical row hash (docs/canonical-encoding.md).

The tests hold every dialect's SQL to these functions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

NULL_FIELD = "-"
HASH_HEX_DIGITS = 15  # the lower 60 bits of the MD5


def row_string(values: Iterable[str | None]) -> str:
    """Each field is ``<characters>:<text>``, NULL is ``-``: no escaping, no ambiguity."""
    return "".join(NULL_FIELD if value is None else f"{len(value)}:{value}" for value in values)


def row_hash(values: Iterable[str | None]) -> int:
    digest = hashlib.md5(row_string(values).encode("utf-8")).hexdigest()
    return int(digest[-HASH_HEX_DIGITS:], 16)
