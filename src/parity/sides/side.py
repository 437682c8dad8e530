"""What the drill-down asks of one side of a pair, whatever engine holds it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from parity.algorithms.keyspace import KeySpace
from parity.algorithms.rowdiff import Row


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


class Side(Protocol):
    def profile(self) -> Profile:
        """Sizes, checksum, key range and key counts, in one pass, grouped by key."""
        ...

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        """Checksums of the cells at ``depth`` inside the given cells at ``parent_depth``."""
        ...

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> list[Row]:
        """The canonical rows of the given cells at ``depth``."""
        ...
