"""What the drill-down does when a side cannot answer a question about some cells for good (a
statement timeout, an overflow, an unsupported expression: SegmentFailed): it asks smaller
questions, each of both sides, so that what one side answers is always compared with the same
question's answer from the other.

Checksums first: the cells of a failed question are asked in two halves, and a single cell that
still fails is asked as its children one level down (in halves too), down to the pass's own
depth. A cell whose checksums no smaller question answers is compared by its rows instead,
where it is expected to hold at most the bisection threshold's rows (or cannot be split); a
larger one is left to the drill-down's next pass, which asks for it deeper. A rows download that
fails is split the same way (halves, then children), down to a cell expected to hold one row or
that cannot be split: for a single integer key, a side lists the keys of a small cell, which its
index finds (sides/sql.py), so the pieces are targeted queries of a few keys each. A cell whose
rows no question brings is a dead letter, with its key range and the engine's reason.

Every question after a failure counts against a budget per pair (FALLBACK_QUERIES): once it is
spent, whatever is left is dead-lettered without asking, so a side that fails everything costs
a bounded number of queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyspark.sql import DataFrame

from parity.log import logger
from parity.sides.side import SegmentFailed, Side, on_both
from parity.values.dead_letter import DeadLetter
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum

# The most questions (each asked of both sides) the fallback asks for one pair.
FALLBACK_QUERIES = 256


@dataclass(frozen=True)
class Unanswered:
    """A cell no checksums question answered: compared by its rows, or asked for deeper."""

    depth: int
    cell: int
    # The rows it is expected to hold (the larger side's, spread evenly over its cells).
    rows: int


@dataclass(frozen=True)
class Answers:
    """Both sides' checksums of the cells at one depth that the questions answered, and the
    cells they did not (each outside every answered cell)."""

    found: dict[int, Checksum]
    wanted: dict[int, Checksum]
    unanswered: list[Unanswered]


@dataclass
class Fallback:
    pair_name: str
    source: Side
    target: Side
    space: KeySpace
    threshold: int
    queries_left: int = field(default_factory=lambda: FALLBACK_QUERIES)
    dead_letters: list[DeadLetter] = field(default_factory=list)

    def checksums(self, depth: int, parents: dict[int, int], child_depth: int) -> Answers:
        """The checksums at ``child_depth`` inside ``parents`` (cell: expected rows) at
        ``depth``: one question of both sides, smaller ones where it fails."""
        found: dict[int, Checksum] = {}
        wanted: dict[int, Checksum] = {}
        unanswered: list[Unanswered] = []
        # (depth, cells, expected rows of the largest, the failure that made them smaller).
        asked: list[tuple[int, list[int], int, SegmentFailed | None]] = [
            (depth, sorted(parents), max(parents.values()), None)
        ]
        while asked:
            level, cells, rows, cause = asked.pop()
            if cause is not None and not self._spend(level, cells, cause):
                continue
            try:
                answer = on_both(
                    self.source,
                    self.target,
                    "checksums",
                    self.space,
                    level,
                    frozenset(cells),
                    child_depth,
                )
            except SegmentFailed as failure:
                if len(cells) > 1:
                    self._log("checksums", level, cells, failure, "asked in two halves")
                    asked += [(level, half, rows, failure) for half in _halves(cells)]
                elif level < child_depth and rows > self.threshold:
                    self._log("checksums", level, cells, failure, "its children asked")
                    children = self._children(cells[0], level)
                    asked += [
                        (level + 1, half, rows // self.space.factor, failure)
                        for half in _halves(children)
                    ]
                else:
                    self._log("checksums", level, cells, failure, "compared by rows instead")
                    unanswered.append(Unanswered(level, cells[0], rows))
                continue
            found.update(answer[0])
            wanted.update(answer[1])
        return Answers(found, wanted, unanswered)

    def rows(self, depth: int, cells: set[int], each: float) -> list[tuple[DataFrame, DataFrame]]:
        """Both sides' rows of ``cells`` at ``depth`` (expected to hold ``each`` rows apiece, on
        the larger side), as one or more downloads of the same cells each; the cells no download
        brings are dead letters."""
        downloads: list[tuple[DataFrame, DataFrame]] = []
        # (depth, cells, expected rows of each, the failure that made them smaller).
        asked: list[tuple[int, list[int], float, SegmentFailed | None]] = [
            (depth, sorted(cells), each, None)
        ]
        while asked:
            level, listed, each, cause = asked.pop()
            if cause is not None and not self._spend(level, listed, cause):
                continue
            try:
                downloads.append(
                    on_both(self.source, self.target, "rows", self.space, level, frozenset(listed))
                )
            except SegmentFailed as failure:
                if len(listed) > 1:
                    self._log("rows", level, listed, failure, "downloaded in two halves")
                    asked += [(level, half, each, failure) for half in _halves(listed)]
                elif each > 1 and not self.space.is_unit(level):
                    self._log("rows", level, listed, failure, "its children downloaded")
                    children = self._children(listed[0], level)
                    smaller = each / self.space.factor
                    asked += [(level + 1, half, smaller, failure) for half in _halves(children)]
                else:
                    self._log("rows", level, listed, failure, "dead letter")
                    self._dead(level, listed, failure, failure.reason)
        return downloads

    def _spend(self, depth: int, cells: list[int], cause: SegmentFailed) -> bool:
        """Whether one more question may be asked; if not, the cells are dead letters."""
        if self.queries_left > 0:
            self.queries_left -= 1
            return True
        reason = f"{cause.reason} (the fallback's {FALLBACK_QUERIES} queries are spent)"
        self._dead(depth, cells, cause, reason)
        return False

    def _dead(self, depth: int, cells: list[int], cause: SegmentFailed, reason: str) -> None:
        for cell in cells:
            low, high = key_range(self.space, self.source.plan.key_is_position, depth, cell)
            self.dead_letters.append(DeadLetter(cause.side, depth, cell, low, high, reason))

    def _children(self, cell: int, depth: int) -> list[int]:
        factor = self.space.factor
        return list(range(cell * factor, (cell + 1) * factor))

    def _log(
        self, question: str, depth: int, cells: list[int], failure: SegmentFailed, then: str
    ) -> None:
        logger.info(
            "parity pair '%s': %s of %d segment%s at depth %d failed (%s): %s",
            self.pair_name,
            question,
            len(cells),
            "" if len(cells) == 1 else "s",
            depth,
            failure.reason,
            then,
        )


def key_range(space: KeySpace, key_is_position: bool, depth: int, cell: int) -> tuple[str, str]:
    """A cell's first and last position as text: keys where the key is its own position, else
    positions of the keys' row hashes, said so."""
    start, end = space.bounds(depth, cell)
    if key_is_position:
        return str(start), str(end - 1)
    return f"hash position {start}", f"hash position {end - 1}"


def _halves(cells: list[int]) -> list[list[int]]:
    middle = len(cells) // 2
    return [half for half in (cells[:middle], cells[middle:]) if half]
