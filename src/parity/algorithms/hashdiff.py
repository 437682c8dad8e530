"""Divide, hash and conquer over two sides that only answer checksum and row queries.

A pass costs a scan of the side whatever the number of groups it returns (a Spark side scans
the profile it kept, by block or by key, not its table), so a pass does not stop at the next
level: it descends at least as many levels as it takes for the expected rows per
cell to reach the bisection threshold, and further while the cells it returns stay within a
budget, because smaller differing cells mean fewer rows downloaded. Sums are additive, so the
coarser levels are implied and never queried. Only cells whose checksum or count differ are
refined; cells within the threshold (or no longer divisible) are downloaded as soon as a pass
finds them, and compared in Spark (canonical_join.py) by the job that judges the pair's
differences (results/summary.py), which also counts the rows moved; a pair with a circuit
breaker compares each download at once instead, so the breaker can stop the drill-down between
passes. Cells within the threshold are refined further instead where the cost model says one
more pass saves more rows moved than it costs (descent_cost.py, in rows and cells only, never
timings, so identical inputs drill alike): thin drift is then downloaded a few rows at a time,
whatever the threshold. A cell of at most one row on each side is never split (a hashed key
space has no unit cells, so nothing else would stop it), and where splitting cannot narrow
(nearly every cell checked differs, and its cells hold few rows: wide drift), every differing
cell is downloaded at once, however large: a pair where every row differs costs two or three
passes and one download. Otherwise no segment larger than the threshold leaves an engine, and
each downloaded cell holds at least one differing key, so the rows moved out of each side's
engine are at most the number of differing keys times the threshold (except in a cell that
cannot be split further, which comes whole, however many copies of its keys it holds).

A pair's last result may hand over the cells its first segment pass found differing, with
their checksums (last_differences.py): where this run's first segment pass is asked in the
same space, at that depth, a cell found differing again with both checksums unchanged holds the
same rows on both sides as then, so its row differences are the last result's, read back, and
it is not drilled into again. Only the cells whose checksums changed are.

A question a side cannot answer for good (SegmentFailed) is asked again smaller (fallback.py):
checksums in smaller segments, then the rows of a segment instead of its checksums, then rows
in smaller pieces; what no question answers is a dead letter, and every other cell is still
compared in full.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from time import perf_counter

from pyspark.sql import DataFrame

from parity.algorithms.descent_cost import child_share, narrows, pass_rows, refining_pays
from parity.algorithms.downloads import Download
from parity.algorithms.fallback import Answers, Fallback, Unanswered
from parity.algorithms.last_differences import LastDifferences
from parity.algorithms.row_differences import RowDifferences
from parity.algorithms.search_stats import SearchStats
from parity.algorithms.segment_state import MAX_KEPT_CELLS, SegmentState
from parity.log import logger
from parity.sides.side import Side, on_both
from parity.values.dead_letter import DeadLetter
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, Profile

# One pass never asks an engine for more than this many cells per segment it refines...
MAX_CELLS_PER_SEGMENT = 1 << 16
# ...and descends past the threshold only while all the cells it may return stay within this.
CELL_BUDGET_PER_PASS = 1 << 15
# A cell's checksum on a side that holds none of its rows.
EMPTY = Checksum(0, 0)


@dataclass(frozen=True)
class DrillDown:
    # The row differences (canonical_join's), kept in Spark; None when the checksums match.
    diffs: DataFrame | None
    source_rows: int
    target_rows: int
    stats: SearchStats
    # The cells no query could compare (fallback.py): the pair is incomplete where any is.
    dead_letters: tuple[DeadLetter, ...] = ()
    # The differing cells of the first segment pass, for the next run (LastDifferences); None
    # where the drill-down did not find every difference in them (halted, dead letters) or found
    # too many.
    segments: SegmentState | None = None
    # The downloads whose rows are counted by the job that first reads ``diffs``.
    uncounted: list[Download] = field(default_factory=list)

    def count_downloads(self) -> None:
        """Once ``diffs`` have been read (summary.summarize judges them in one job): each
        download's rows moved, added to the stats and logged, once."""
        while self.uncounted:
            self.uncounted.pop(0).count(self.stats)


@dataclass(frozen=True)
class Level:
    """One checksum pass: both sides' checksums of the cells at ``depth`` that its questions
    answered, the cells they did not, and the seconds it took (for the log only)."""

    depth: int
    answers: Answers
    seconds: float

    @cached_property
    def cells(self) -> list[int]:
        return sorted(self.answers.found.keys() | self.answers.wanted.keys())

    def checksums(self, cell: int) -> tuple[Checksum, Checksum]:
        return self.answers.found.get(cell, EMPTY), self.answers.wanted.get(cell, EMPTY)

    def mismatched(self) -> dict[int, int]:
        """The cells whose checksums differ, each with its larger side's rows."""
        both = {cell: self.checksums(cell) for cell in self.cells}
        return {cell: max(s.rows, t.rows) for cell, (s, t) in both.items() if s != t}

    def rows_in(self, cells: Iterable[int]) -> int:
        """Both sides' rows in these cells."""
        return sum(s.rows + t.rows for s, t in map(self.checksums, cells))


@dataclass(frozen=True)
class Split:
    """What a pass leaves to do: the cells the next pass splits (each with the rows it is
    expected to hold), those downloaded now, and those whose checksums no question answered
    and that are downloaded now by their rows."""

    frontier: dict[int, int]
    download: set[int]
    by_rows: list[Unanswered]
    # Whether cells within the threshold are among those split (thin drift).
    refine: bool


def hashdiff(
    pair_name: str,
    source: Side,
    target: Side,
    factor: int,
    threshold: int,
    breaker: Callable[[DataFrame, int], str | None] | None = None,
    profiles: tuple[Profile, Profile] | None = None,
    tolerant: bool = False,
    profile_seconds: float | None = None,
    last: LastDifferences | None = None,
) -> DrillDown:
    """``breaker`` is given the differences each download finds (and the rows compared, the
    larger side's count) and says whether those found so far are too many to go on, answering
    with the limit they reached: then no further pass runs and no further row leaves an engine.
    ``profiles``: the sides' first pass, when the caller has taken it already, and
    ``profile_seconds`` what it took, for the log only. ``tolerant``: the row hashes put some
    columns on their tolerance's grid, so equal checksums mean values within tolerance rather
    than identical.
    ``last``: the last result's segments, reused where found again unchanged."""
    stats = SearchStats(passes=1, segments_checked=1)
    if profiles is None:
        started = perf_counter()
        profiles = on_both(source, target, "profile")
        profile_seconds = perf_counter() - started
    source_profile, target_profile = profiles
    sizes = source_profile.counts.rows, target_profile.counts.rows
    logger.info(
        "parity pair '%s': hashdiff pass 1, whole tables: %s source rows, %s target rows scanned"
        " (%.2fs)",
        pair_name,
        *sizes,
        profile_seconds or 0.0,
    )
    if source_profile.checksum == target_profile.checksum:
        logger.info(
            "parity pair '%s': checksums match, %s",
            pair_name,
            "every row is within tolerance" if tolerant else "tables are identical",
        )
        return DrillDown(None, *sizes, stats)

    space = _space(source, target, profiles, factor, threshold, last)
    fallback = Fallback(pair_name, source, target, space, threshold)
    unique_keys = not any(p.counts.duplicate_keys for p in profiles)
    differences = RowDifferences(
        pair_name, fallback, source.plan, unique_keys, stats, breaker, max(sizes)
    )
    # The last result's segments are reusable where its space is this run's (a hashed key's
    # always is; an integer key's while it still spans both sides' keys).
    reusable = last if last is not None and last.segments.space == space else None
    segments: SegmentState | None = None
    depth, frontier = 0, {0: max(source_profile.checksum.rows, target_profile.checksum.rows)}
    refine = False
    while frontier:
        largest = max(frontier.values())
        if space.is_unit(depth) or (largest <= threshold and not refine):
            differences.download(depth, set(frontier), largest)
            break
        first = depth == 0
        if first and reusable is not None:
            # Asked at the depth of the last result's cells, so each is found again.
            step = reusable.segments.depth
        else:
            step = _step(space, depth, largest, len(frontier), threshold)
        level = _checksum_pass(fallback, stats, depth, frontier, depth + step)
        mismatched = level.mismatched()
        # Cells reused below differ too: they count in the share of cells differing.
        differing = len(mismatched)
        if first:
            sums = {cell: level.checksums(cell) for cell in mismatched}
            if len(sums) <= MAX_KEPT_CELLS:
                segments = SegmentState(space, level.depth, sums)
            unchanged = set() if reusable is None else reusable.unchanged(sums)
            mismatched = {c: n for c, n in mismatched.items() if c not in unchanged}
            if reusable is not None and unchanged and differences.reuse(reusable, unchanged):
                break
        split = _split(level, mismatched, differing, space, threshold, (source, target), sizes)
        if differences.download_by_depth(split.by_rows):
            break
        _log_pass(pair_name, stats.passes, level, len(mismatched), split)
        small = split.download
        if small and differences.download(level.depth, small, max(mismatched[c] for c in small)):
            break
        depth, frontier, refine = level.depth, split.frontier, split.refine
    dead = tuple(fallback.dead_letters)
    complete = not stats.halted and not dead
    return DrillDown(
        differences.union(),
        *sizes,
        stats,
        dead,
        segments if complete else None,
        differences.uncounted,
    )


def _space(
    source: Side,
    target: Side,
    profiles: tuple[Profile, Profile],
    factor: int,
    threshold: int,
    last: LastDifferences | None,
) -> KeySpace:
    """The key space the drill-down splits: for a key that is its own position, one spanning
    both sides' keys; else the hashed positions', spread over all of it."""
    if not source.plan.key_is_position:
        return KeySpace.hashed(factor)
    # Cells aligned to a side's blocks are summed from them (SparkSide), unless cells smaller
    # than a block are wanted.
    block = max(source.key_block, target.key_block)
    span = (
        min(p.min_position for p in profiles if p.min_position is not None),
        max(p.max_position for p in profiles if p.max_position is not None),
        factor,
        block if block <= threshold else 1,
    )
    # The last result's space where it still spans the keys, so its cells are found again.
    kept = None if last is None else last.segments.space
    return kept if kept is not None and kept.still_spans(*span) else KeySpace.spanning(*span)


def _checksum_pass(
    fallback: Fallback, stats: SearchStats, depth: int, frontier: dict[int, int], child_depth: int
) -> Level:
    """Both sides' checksums at ``child_depth`` inside the frontier's cells at ``depth``."""
    stats.passes += 1
    started = perf_counter()
    answers = fallback.checksums(depth, frontier, child_depth)
    level = Level(child_depth, answers, perf_counter() - started)
    stats.segments_checked += len(level.cells)
    return level


def _split(
    level: Level,
    mismatched: dict[int, int],
    differing: int,
    space: KeySpace,
    threshold: int,
    sides: tuple[Side, Side],
    sizes: tuple[int, int],
) -> Split:
    """Which of the pass's differing cells (``mismatched``, each with its larger side's rows;
    ``differing`` in all, reused ones included) the next pass splits and which are downloaded
    now: those above the threshold are split, unless splitting cannot narrow them (wide drift);
    those within it are downloaded, unless one more pass pays (thin drift). ``sizes``: each
    side's rows, read again by a pass its kept profile cannot answer."""
    unit = space.is_unit(level.depth)
    frontier = {c: n for c, n in mismatched.items() if n > threshold and not unit}
    small = set(mismatched) - set(frontier)
    # Cells whose checksums no question answered: asked deeper by the next pass where they
    # are large, else compared by their rows now.
    unanswered = level.answers.unanswered
    deeper = [
        u
        for u in unanswered
        if u.depth == level.depth and u.rows > threshold and not space.is_unit(u.depth)
    ]
    frontier.update({u.cell: u.rows for u in deeper})
    by_rows = [u for u in unanswered if u not in deeper]
    checked = len(level.cells)
    rows_per_cell = level.rows_in(level.cells) / (2 * max(checked, 1))
    share = child_share(rows_per_cell, differing, checked, space.factor)
    if not narrows(share):
        # Wide drift: a split would leave nearly every row to download anyway.
        small |= {c for c in frontier if c in mismatched}
        frontier = {c: n for c, n in frontier.items() if c not in mismatched}
    # Cells of one row a side (or none) cannot be split into anything smaller.
    splittable = {c for c in small if mismatched[c] > 1}
    # What the next pass costs: each side that cannot answer it from its kept profile reads
    # its table again. A side's kept blocks may answer some depths only (a hashed key's):
    # the depth is the one that pass would ask, from the cells it would refine.
    refined = {**frontier, **{cell: mismatched[cell] for cell in splittable}}
    next_depth = level.depth + _step(
        space, level.depth, max(refined.values(), default=0), len(refined), threshold
    )
    reread = sum(
        size
        for side, size in zip(sides, sizes, strict=True)
        if not side.answers_from_profile(space, next_depth)
    )
    if (
        splittable
        and narrows(share)
        and not unit
        and refining_pays(level.rows_in(splittable), share, pass_rows(reread))
    ):
        # Thin drift: one more pass is expected to leave fewer rows to move than it costs.
        return Split(refined, small - splittable, by_rows, True)
    return Split(frontier, small, by_rows, False)


def _log_pass(pair_name: str, passes: int, level: Level, differ: int, split: Split) -> None:
    logger.info(
        "parity pair '%s': hashdiff pass %d, depth %d (%d segments, %d rows in them, %.2fs):"
        " %d segments differ, %d to download, %d to split further",
        pair_name,
        passes,
        level.depth,
        len(level.cells),
        level.rows_in(level.cells),
        level.seconds,
        differ,
        len(split.download),
        len(split.frontier),
    )


def _step(space: KeySpace, depth: int, rows: int, segments: int, threshold: int) -> int:
    """How many levels one pass descends: until the expected rows per cell reach the threshold
    (at most MAX_CELLS_PER_SEGMENT cells a segment), then on while the pass's cells fit
    CELL_BUDGET_PER_PASS; never past single-unit cells."""
    factor = space.factor

    def deeper(step: int) -> bool:
        if space.is_unit(depth + step):
            return False
        needed = rows > threshold * factor**step and factor ** (step + 1) <= MAX_CELLS_PER_SEGMENT
        return needed or segments * factor ** (step + 1) <= CELL_BUDGET_PER_PASS

    step = 1
    while deeper(step):
        step += 1
    return step
