"""What one pass over a side tells: its sizes and key counts, and for hashdiff its checksum and
key range."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Checksum:
    rows: int
    total: int


@dataclass(frozen=True)
class KeyCounts:
    """A side's sizes and key counts, whichever algorithm counted them. A row with a NULL in its
    key cannot be matched by key: it is counted, and left out of the comparison."""

    rows: int  # every row, those with a NULL key included
    compared_rows: int  # the rows without a NULL key
    null_keys: int  # rows with a NULL in a key column
    duplicate_keys: int  # key values (without NULL) held by more than one row


@dataclass(frozen=True)
class Profile:
    """hashdiff's first pass over a side: the whole-table checksum and key range of the rows it
    compares, and its key counts; and the sum of their exact row hashes, the same as the
    checksum's but where columns hash on a tolerance's grid (what a re-run compares: values
    moved within tolerance leave the tolerant checksum as it was)."""

    checksum: Checksum
    min_position: int | None
    max_position: int | None
    counts: KeyCounts
    exact_total: int
