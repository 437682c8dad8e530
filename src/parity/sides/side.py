"""What the drill-down asks of one side of a pair, whatever engine holds it, and how a side says
that one question about some cells failed for good (SegmentFailed): the drill-down then asks
smaller questions (algorithms/hashdiff.py)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from pyspark.sql import DataFrame, SparkSession

from parity.plan import SidePlan
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, Profile

# How many keys held by more than one row a duplicate-key error shows (the plan's queries say
# as many: macros/plan/remote_queries.sql, duplicate_examples_limit).
DUPLICATE_EXAMPLES = 5
# A key as its canonical text (one per key column), and how many rows hold it.
DuplicatedKey = tuple[tuple[str, ...], int]


class SegmentFailed(RuntimeError):
    """A side's engine refused or stopped a checksums or rows query for a reason that running it
    again will not fix (a statement timeout, an overflow, an unsupported expression)."""

    def __init__(self, side: str, reason: str) -> None:
        super().__init__(reason)
        self.side = side
        self.reason = reason


class Side(Protocol):
    plan: SidePlan
    # The session the rows come to, whatever engine holds them.
    spark: SparkSession
    # How many consecutive positions one group of the profile a side keeps spans (1 when it
    # keeps none, or one per key): checksums of cells holding whole groups
    # (KeySpace.holds_blocks) are summed from that profile, without reading the side again.
    key_block: int

    def profile(self) -> Profile:
        """Sizes, checksum, key range and key counts, in one pass grouped by key (by block of
        consecutive keys, where a side can count its keys so)."""
        ...

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        """Checksums of the cells at ``depth`` inside the given cells at ``parent_depth``; raises
        SegmentFailed when the engine cannot answer for those cells."""
        ...

    def answers_from_profile(self, space: KeySpace, depth: int) -> bool:
        """Whether a checksums pass in ``space`` grouping by ``depth`` is answered from the
        profile the side kept, rather than by reading its table again (what a pass costs:
        algorithms/descent_cost.py)."""
        ...

    def duplicated_keys(self) -> list[DuplicatedKey]:
        """The first DUPLICATE_EXAMPLES keys held by more than one row, with their rows: in
        order of position where the key is its own, else of canonical text. A second pass, asked
        only for a duplicate-key error."""
        ...

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> DataFrame:
        """The canonical rows of the given cells at ``depth``, as a frame of the Spark session
        (the plan's key_columns, then its value_columns, all text); raises SegmentFailed when
        the engine cannot answer for those cells."""
        ...


def on_both(source: Side, target: Side, question: str, *arguments: Any) -> tuple[Any, Any]:
    """Asks both sides the same question (a method of Side) at once: each side's engine works
    while the other's does (a query in another engine waits on its connection, not on this
    process)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        from_source = pool.submit(getattr(source, question), *arguments)
        from_target = getattr(target, question)(*arguments)
        return from_source.result(), from_target
