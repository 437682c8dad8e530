"""What one pass over a side tells: its checksums, key range and key counts."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Checksum:
    rows: int
    total: int


@dataclass(frozen=True)
class Profile:
    """One pass over a side: its size, the whole-table checksum and key range of the rows it
    compares, and its key counts. A row with a NULL in its key cannot be matched by key: it is
    counted, and left out of the comparison."""

    checksum: Checksum
    min_position: int | None
    max_position: int | None
    rows: int  # every row, those with a NULL key included
    null_keys: int  # rows with a NULL in a key column
    duplicate_keys: int  # key values (without NULL) held by more than one row
