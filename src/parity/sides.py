"""What the drill-down asks of one side of a pair, whatever engine holds it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from parity.keyspace import KeySpace
from parity.rowdiff import Row


@dataclass(frozen=True)
class Checksum:
    rows: int
    total: int


@dataclass(frozen=True)
class Profile:
    """One pass over a side: its size, its whole-table checksum and its key range."""

    checksum: Checksum
    min_position: int | None
    max_position: int | None


class Side(Protocol):
    def profile(self) -> Profile: ...

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        """Checksums of the cells at ``depth`` inside the given cells at ``parent_depth``."""
        ...

    def rows(self, space: KeySpace, cells: dict[int, frozenset[int]]) -> list[Row]:
        """The canonical rows of the given cells, by depth."""
        ...
