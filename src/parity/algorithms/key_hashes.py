"""joindiff's first pass: both sides' native row hashes summed per key, in one Spark job.

Both sides are grouped together by key, in its canonical text or, an integer key, as a number
(per side, the count of its rows and the sum of their hashes, so duplicate keys compare as
multisets): a key whose count or sum differs between the sides is a differing key. Only those
keys' rows are compared canonically afterwards (canonical_join.py); the others are equal, short
of a 64-bit hash collision. The same job counts each side's rows, NULL keys and duplicate keys
(an observation on the joined keys), so no other pass over the sides is needed. The hash is
summed as two 32-bit halves: a sum of bigints would overflow under ANSI mode when a key has many
rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import reduce

from pyspark.sql import Column, DataFrame, Observation
from pyspark.sql import functions as F

from parity.sides.spark import IN_SOURCE, SparkSide, release_checkpoint, rows_of_keys
from parity.spark_settings import grouped_by_key
from parity.values.profile import KeyCounts

LOW_HALF = 0xFFFFFFFF
SIDES = ("source", "target")


@dataclass(frozen=True)
class KeyPass:
    counts: tuple[KeyCounts, KeyCounts]
    # The differing keys (the key columns only), checkpointed in Spark's executors:
    # release() frees them.
    differing: DataFrame
    differing_keys: int

    @property
    def found_nothing(self) -> bool:
        return not self.differing_keys

    @property
    def differing_units(self) -> int:
        """What compared_rows may be limited to the first of: differing keys."""
        return self.differing_keys

    @property
    def found(self) -> str:
        return f"{self.differing_keys} keys differ"

    @contextmanager
    def compared_rows(
        self, source: SparkSide, target: SparkSide, limit: int | None = None
    ) -> Iterator[tuple[DataFrame, DataFrame]]:
        """The canonical rows of the differing keys, or of the first ``limit`` of them in key
        order."""
        keys, count = self.differing, self.differing_keys
        if limit is not None and count > limit:
            keys, count = keys.orderBy(*keys.columns).limit(limit), limit
        yield rows_of_keys(source, target, keys, count)

    def release(self) -> None:
        release_checkpoint(self.differing)


def key_hash_pass(
    source: DataFrame, target: DataFrame, keys: list[str], hash_column: str
) -> KeyPass:
    # One shuffle of both sides' (key, side, hash) rows, grouped once: cheaper than grouping
    # each side and joining the groups.
    tagged = [
        frame.select(*keys, F.lit(side == "source").alias(IN_SOURCE), hash_column)
        for frame, side in ((source, "source"), (target, "target"))
    ]
    per_key = tagged[0].unionByName(tagged[1]).groupBy(*keys).agg(*sums(hash_column))
    null_key = reduce(lambda a, b: a | b, [F.col(k).isNull() for k in keys])
    same = sums_equal()
    differs = ~null_key & ~same
    observed = Observation("parity_key_counts")
    metrics = [F.count_if(differs).alias("differing_keys")]
    for side in SIDES:
        rows = F.col(f"{side}_rows")
        metrics += [
            F.sum(rows).alias(f"{side}_rows"),
            F.sum(F.when(null_key, rows).otherwise(0)).alias(f"{side}_null_keys"),
            F.count_if(~null_key & (rows > 1)).alias(f"{side}_duplicate_keys"),
        ]
    # Kept in the executors and cut from the plan that found them, in the job that counts the
    # keys and the differing keys: the queries that list these keys never run the first pass
    # again, and counting them is no job of its own.
    # An integer key is grouped on as a number (macros/plan/native_select.sql): listed again in
    # its canonical text, the text the canonical rows are matched on.
    canonical = [F.col(k).cast("string").alias(k) for k in keys]
    with grouped_by_key(source.sparkSession):
        differing = (
            per_key.observe(observed, *metrics).where(differs).select(*canonical).localCheckpoint()
        )
        counted = observed.get
    counts = tuple(_counts(counted, side) for side in SIDES)
    return KeyPass((counts[0], counts[1]), differing, int(counted["differing_keys"]))


def sums(hash_column: str) -> list[Column]:
    """Per key and side: its rows, and the two halves of their hashes' sum."""
    hashed = F.col(hash_column)
    halves = {"low": hashed.bitwiseAND(F.lit(LOW_HALF)), "high": F.shiftrightunsigned(hashed, 32)}
    per_side = []
    for side in SIDES:
        ours = F.col(IN_SOURCE) == (side == "source")
        per_side.append(F.count_if(ours).alias(f"{side}_rows"))
        per_side += [F.sum(F.when(ours, half)).alias(f"{side}_{n}") for n, half in halves.items()]
    return per_side


def sums_equal() -> Column:
    """Whether both sides' rows and hash sums (as ``sums`` names them) are equal."""
    return reduce(
        lambda a, b: a & b,
        [F.col(f"source_{n}").eqNullSafe(F.col(f"target_{n}")) for n in ("rows", "low", "high")],
    )


def _counts(counted: dict, side: str) -> KeyCounts:
    rows, null_keys = int(counted[f"{side}_rows"] or 0), int(counted[f"{side}_null_keys"] or 0)
    return KeyCounts(rows, rows - null_keys, null_keys, int(counted[f"{side}_duplicate_keys"]))
