"""What the drill-down asks of one side of a pair, whatever engine holds it."""

from __future__ import annotations

from typing import Protocol

from pyspark.sql import DataFrame

from parity.plan import SidePlan
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, Profile


class Side(Protocol):
    plan: SidePlan
    # How many consecutive positions one group of the profile a side keeps spans (1 when it
    # keeps none, or one per key): checksums of the cells of a key space aligned to it
    # (KeySpace.aligned) are summed from that profile, without reading the side again.
    key_block: int

    def profile(self) -> Profile:
        """Sizes, checksum, key range and key counts, in one pass grouped by key (by block of
        consecutive keys, where a side can count its keys so)."""
        ...

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        """Checksums of the cells at ``depth`` inside the given cells at ``parent_depth``."""
        ...

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> DataFrame:
        """The canonical rows of the given cells at ``depth``, as a frame of the Spark session
        (the plan's key_columns, then its value_columns, all text)."""
        ...
