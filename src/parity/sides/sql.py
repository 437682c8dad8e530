"""A side held by another engine, reached through DB-API: checksums are computed inside it, and
only checksums and the rows of small differing cells come out. Its queries are the plan's,
whole; only the cells they select are bound, as parameters.

Where its key is a single integer and its dialect numbers blocks (the plan's `blocks_sql`), the
first pass groups it by block of 2^BLOCK_BITS consecutive keys and keeps those blocks here: the
checksums of any cells of a key space aligned to them are summed from the blocks, without
querying the engine again. Where its key is positioned by its hash (a compound or text key)
and its dialect numbers hashed blocks, the first pass groups it by key (to count NULL and
duplicated keys) and then by block of the top HASHED_BLOCK_BITS bits of the position: a pass at
a depth whose cells are unions of whole blocks (KeySpace.holds_blocks) is answered from them
too.

A side may use several sessions at once (the plan's `connections`): its first pass by block is
then one query per range of keys, and a pass over many cells one query per share of them, each
on its own read-only session, so a large table's pass uses as many of the engine's cores.

A query that fails for a passing reason (a lost session, a server restarting, a deadlock) is run
again on a new session, after a backoff (backoff.py), as many times and for as long as the pair
allows (its `retries` and `retry_seconds`); past that, the pair fails, saying so. A checksums or
rows query that fails for good raises SegmentFailed, for the drill-down to ask smaller questions;
any other query failing fails the pair (ParityError)."""

from __future__ import annotations

import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pyspark.sql import DataFrame, SparkSession

from parity.errors import ParityError
from parity.log import logger
from parity.plan import SidePlan
from parity.sides.backoff import Backoff
from parity.sides.connections import ConnectFailed, QueryError, ReadOnlyConnection, connect
from parity.sides.side import DuplicatedKey, SegmentFailed
from parity.values.keyspace import HASHED_BLOCK_BITS, HASHED_POSITION_BITS, KeySpace
from parity.values.profile import Checksum, KeyCounts, Profile

# A block holds 2^BLOCK_BITS consecutive keys: key_block_bits in macros/dialects/base/blocks.sql,
# which each engine numbers its blocks by (tests/unit/test_contracts.py holds the two equal).
BLOCK_BITS = 5
# Cells spanning at most this many keys in all are fetched by their keys, listed (rows_of_keys_sql):
# an index on the key finds them without reading the rest of the table.
LISTED_KEYS = 1 << 16
# A pass spreads its cells over several sessions only past this many: fewer are one query.
SPREAD_CELLS = 64


class SqlSide:
    def __init__(
        self, spark: SparkSession, pair_name: str, plan: SidePlan, backoff: Backoff
    ) -> None:
        self.spark = spark
        self.pair_name = pair_name
        self.plan = plan
        self.backoff = backoff
        self.where = f"{plan.side} relation {plan.relation_name} ({plan.dialect})"
        # The first session now, so that an unreachable engine fails before any pass; the
        # others when a pass first spreads. A session lost to a failure is None until a retry
        # opens it again.
        self.sessions: list[ReadOnlyConnection | None] = [self._connect()]
        # The kept profile: (first position, rows, checksum) of each block with compared rows.
        self._blocks: list[tuple[int, int, int]] | None = None

    @property
    def key_block(self) -> int:
        """How many consecutive positions one kept block spans (1 when none is kept)."""
        if not self.plan.blocks_sql:
            return 1
        return 1 << (
            BLOCK_BITS if self.plan.key_is_position else HASHED_POSITION_BITS - HASHED_BLOCK_BITS
        )

    def __enter__(self) -> SqlSide:
        return self

    def __exit__(self, *_: object) -> None:
        for session in self.sessions:
            if session is not None:
                session.close()

    def profile(self) -> Profile:
        if self.plan.blocks_sql:
            if self.plan.key_is_position:
                return self._profile_by_block()
            return self._profile_by_hashed_block()
        rows, compared_rows, total, low, high, null_keys, duplicate_keys, exact = self._query(
            self.plan.profile_sql
        )[0]
        low, high = (None if v is None else int(v) for v in (low, high))
        compared = int(compared_rows or 0)
        return Profile(
            Checksum(compared, int(total or 0)),
            low,
            high,
            KeyCounts(int(rows or 0), compared, int(null_keys or 0), int(duplicate_keys or 0)),
            int(exact or 0),
        )

    def _profile_by_block(self) -> Profile:
        """One pass grouped by block (one query per range of keys, over several sessions). A
        block whose rows outnumber the keys its bits mark holds a duplicated key; only such
        blocks' keys are counted, by a second query."""
        if self.plan.connections > 1:
            low, high, null_keys = self._query(self.plan.bounds_sql)[0]
            ranges = [] if low is None else _key_ranges(int(low), int(high), self.plan.connections)
            found = self._spread(self.plan.blocks_between_sql, [list(r) for r in ranges])
        else:
            found, null_keys = self._query(self.plan.blocks_sql), 0
        blocks, suspects, exact_total = [], [], 0
        for block, rows, total, bits, exact in found:
            if block is None:  # the rows with a NULL key, where one query reads them all
                null_keys = rows
                continue
            block, rows, exact_total = int(block), int(rows), exact_total + int(exact)
            blocks.append((block << BLOCK_BITS, rows, int(total)))
            if rows > int(bits).bit_count():
                suspects.append(block)
        self._blocks = blocks
        duplicates = self._query(self.plan.duplicates_sql, [suspects])[0][0] if suspects else 0
        return self._kept_profile(int(null_keys or 0), int(duplicates), exact_total)

    def _profile_by_hashed_block(self) -> Profile:
        """One pass grouped by key, then by block of hashed positions: each block with its
        rows, checksum, keys held by more than one row and exact checksum."""
        blocks, null_keys, duplicates, exact_total = [], 0, 0, 0
        shift = HASHED_POSITION_BITS - HASHED_BLOCK_BITS
        for block, rows, total, duplicated, exact in self._query(self.plan.blocks_sql):
            if block is None:  # the rows with a NULL key
                null_keys = int(rows)
                continue
            blocks.append((int(block) << shift, int(rows), int(total)))
            duplicates, exact_total = duplicates + int(duplicated), exact_total + int(exact)
        self._blocks = blocks
        return self._kept_profile(null_keys, duplicates, exact_total)

    def _kept_profile(self, null_keys: int, duplicates: int, exact_total: int) -> Profile:
        """The profile of the blocks kept, with the counts their pass took beside them."""
        blocks = self._blocks
        compared = sum(rows for _, rows, _ in blocks)
        # Block bounds stand for the key range: every block lies inside one cell of an aligned
        # space anyway.
        low = min((first for first, _, _ in blocks), default=None)
        high = max((first for first, _, _ in blocks), default=None)
        return Profile(
            Checksum(compared, sum(total for _, _, total in blocks)),
            low,
            None if high is None else high + self.key_block - 1,
            KeyCounts(compared + null_keys, compared, null_keys, duplicates),
            exact_total,
        )

    def duplicated_keys(self) -> list[DuplicatedKey]:
        found = self._query(self.plan.duplicate_examples_sql)
        return [(tuple(str(field) for field in row[:-1]), int(row[-1])) for row in found]

    def answers_from_profile(self, space: KeySpace, depth: int) -> bool:
        return self._blocks is not None and space.holds_blocks(self.key_block, depth)

    def checksums(
        self, space: KeySpace, parent_depth: int, parents: frozenset[int], depth: int
    ) -> dict[int, Checksum]:
        if self.answers_from_profile(space, depth):
            summed: dict[int, list[int]] = defaultdict(lambda: [0, 0])
            parent_of, cell_of = space.cell_at(parent_depth), space.cell_at(depth)
            for first, rows, total in self._blocks:
                if parent_of(first) in parents:
                    cell = summed[cell_of(first)]
                    cell[0] += rows
                    cell[1] += total
            logger.info(
                "parity pair '%s': %s: checksums at depth %d summed from its first pass's"
                " blocks, no query",
                self.pair_name,
                self.where,
                depth,
            )
            return {cell: Checksum(rows, total) for cell, (rows, total) in summed.items()}
        found = self._spread(
            self.plan.checksums_sql,
            [
                [*_listed(space, parent_depth, share), space.cells(depth)]
                for share in self._shares(parents)
            ],
            segment=True,
        )
        return {int(cell): Checksum(int(rows), int(total)) for cell, rows, total in found}

    def rows(self, space: KeySpace, depth: int, cells: frozenset[int]) -> DataFrame:
        """The rows come through the driver once, as the engine's client returns them, and are
        compared in Spark."""
        bounds = [space.bounds(depth, cell) for cell in sorted(cells)]
        if self.plan.rows_of_keys_sql and sum(end - start for start, end in bounds) <= LISTED_KEYS:
            keys = [key for start, end in bounds for key in range(start, end)]
            found = self._query(self.plan.rows_of_keys_sql, [keys], segment=True)
        else:
            found = self._spread(
                self.plan.rows_sql,
                [_listed(space, depth, share) for share in self._shares(cells)],
                segment=True,
            )
        names = [*self.plan.key_columns, *self.plan.value_columns]
        return self.spark.createDataFrame(found, ", ".join(f"`{n}` string" for n in names))

    def _shares(self, cells: frozenset[int]) -> list[frozenset[int]]:
        """The cells in consecutive shares, one per session, where there are enough of them."""
        ordered, count = sorted(cells), self.plan.connections
        if count == 1 or len(ordered) < SPREAD_CELLS:
            return [frozenset(ordered)]
        size = -(-len(ordered) // count)
        return [frozenset(ordered[i : i + size]) for i in range(0, len(ordered), size)]

    def _spread(
        self, sql: str, parameters: list[list[Any]], segment: bool = False
    ) -> list[tuple[Any, ...]]:
        """The rows of one query per parameter list, each on its own session, all at once."""
        # Opened by their first query, where a failure to connect is retried as a query's is.
        self.sessions += [None] * (len(parameters) - len(self.sessions))
        if len(parameters) <= 1:
            return [row for p in parameters for row in self._query(sql, p, segment=segment)]
        count = len(parameters)
        with ThreadPoolExecutor(max_workers=count) as pool:
            answers = pool.map(
                self._query, [sql] * count, parameters, range(count), [segment] * count
            )
            return [row for answer in answers for row in answer]

    def _query(
        self, sql: str, params: list[Any] | None = None, session: int = 0, segment: bool = False
    ) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` on session number ``session``, run again on a new session while
        its failures pass (the pair's backoff). ``segment``: a checksums or rows query, whose
        lasting failure is the drill-down's to work around (SegmentFailed)."""
        first_failure, retry = 0.0, 0
        while True:
            try:
                return self._session(session).query(sql, params)
            except (QueryError, ConnectFailed) as error:
                if not error.transient:
                    if isinstance(error, ConnectFailed):
                        raise
                    if segment:
                        raise SegmentFailed(self.plan.side, f"{self.where}: {error}") from error
                    raise ParityError(
                        self.pair_name, f"{self.where} could not run the pair's SQL: {error}"
                    ) from error
                failure = error
            now = time.monotonic()
            first_failure = first_failure or now
            self._drop(session)
            retry += 1
            wait = self.backoff.wait(retry, now - first_failure)
            if wait is None:
                raise ParityError(
                    self.pair_name,
                    f"{self.where} could not run the pair's SQL: {_reason(failure)} (after"
                    f" {retry - 1} retries in {now - first_failure:.0f} s)",
                ) from failure
            logger.info(
                "parity pair '%s': %s: %s; retry %d of %d in %.1f s",
                self.pair_name,
                self.where,
                _reason(failure),
                retry,
                self.backoff.retries,
                wait,
            )
            time.sleep(wait)

    def _session(self, number: int) -> ReadOnlyConnection:
        """Session number ``number``, opened again where a failure dropped it."""
        session = self.sessions[number]
        if session is None:
            session = self.sessions[number] = self._connect()
        return session

    def _drop(self, number: int) -> None:
        session, self.sessions[number] = self.sessions[number], None
        if session is not None:
            session.close()

    def _connect(self) -> ReadOnlyConnection:
        plan = self.plan
        return connect(
            plan.dialect,
            plan.connection_env,
            self.pair_name,
            self.where,
            plan.statement_timeout_seconds,
            plan.allowed_paths,
        )


def _reason(error: Exception) -> str:
    """The engine's reason, without the pair and side a ParityError's text starts with."""
    text = str(error)
    return text.split(": ", 2)[-1] if isinstance(error, ConnectFailed) else text


def _key_ranges(low: int, high: int, count: int) -> list[tuple[int, int]]:
    """``count`` inclusive ranges of keys covering ``low`` .. ``high``, their bounds on whole
    blocks, so that no block is split between two ranges (fewer where the keys are few)."""
    block = 1 << BLOCK_BITS
    first, last = low >> BLOCK_BITS, high >> BLOCK_BITS
    step = -(-(last - first + 1) // count)
    return [
        (max(low, start * block), min(high, (start + step) * block - 1))
        for start in range(first, last + 1, step)
    ]


def _listed(space: KeySpace, depth: int, cells: frozenset[int]) -> list[Any]:
    """The bound parameters that select these cells at ``depth``, in the order the plan's queries
    number them (macros/plan/remote_queries.sql)."""
    return [space.low, space.scale, space.width, space.cells(depth), sorted(cells)]
