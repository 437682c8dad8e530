"""hashdiff's profile of a Spark side whose key is its own position, summed per block of 64
consecutive keys, counts and checksums exactly as the profile grouped by key does; and the
cells of a key space aligned to the blocks are summed from the blocks, or from the keys, as a
scan of the rows sums them."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parity.sides.spark import CELL_SHIFT, SparkSide
from parity.values.keyspace import KeySpace
from tests.examples import examples
from tests.spark.canonical_frames import spark_side

BLOCK = 1 << CELL_SHIFT
KEYS = st.one_of(st.none(), st.integers(-300, 700))


def by_key(side: SparkSide) -> SparkSide:
    """The same rows, profiled and checksummed by key and by scan."""
    return SparkSide(
        side.canonical.sparkSession, "test_pair", replace(side.plan, key_is_position=False)
    )


@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(st.tuples(KEYS, st.sampled_from(["a", "b", None])), max_size=60),
    st.sampled_from([2, 3, 32]),
    st.data(),
)
def test_blocks_profile_and_checksum_as_keys_do(spark, keyed, factor, data):
    rows = [((None if k is None else str(k),), (v, "x")) for k, v in keyed]
    with spark_side(spark, "source", rows, 2) as blocks, by_key(blocks) as keys:
        assert blocks.key_block == BLOCK and keys.key_block == 1
        profile = blocks.profile()
        assert profile == keys.profile()
        if profile.min_position is None:
            return
        space = KeySpace.spanning(profile.min_position, profile.max_position, factor, BLOCK)
        assert space.aligned(BLOCK)
        depth = data.draw(st.integers(0, space.unit_depth()))
        step = data.draw(st.integers(0, space.unit_depth() - depth))
        parents = frozenset(range(space.cells(depth)))
        scanned = by_key(blocks)  # never profiled: its checksums read the rows
        expected = scanned.checksums(space, depth, parents, depth + step)
        for side in (blocks, keys):
            assert side.checksums(space, depth, parents, depth + step) == expected


def test_duplicates_are_counted_by_key_only_in_blocks_that_hold_them(spark):
    """64 distinct keys fill a block without a duplicate, negative ones too; a key held three
    times counts once; NULL keys are counted apart and never as duplicates."""
    rows = [((str(k),), ("v", "x")) for k in range(-64, 640)]
    rows += [((str(5),), ("w", "x")), ((str(5),), ("v", "x")), ((str(-1),), ("v", "x"))]
    rows += [((None,), ("v", "x"))] * 3
    with spark_side(spark, "source", rows, 2) as side:
        profile = side.profile()
    assert (profile.counts.rows, profile.counts.null_keys, profile.counts.duplicate_keys) == (
        len(rows),
        3,
        2,
    )
    assert (profile.min_position, profile.max_position) == (-64, 639)
