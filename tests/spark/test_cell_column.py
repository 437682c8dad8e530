"""Spark computes the same cell numbers as the pure key space, on the bigint and decimal paths."""

from hypothesis import given, settings
from hypothesis import strategies as st
from pyspark.sql import functions as F

from parity.sides.spark import cell_sql
from parity.values.keyspace import KeySpace
from tests.examples import examples

POSITION = "__parity_pos"

LONGS = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@settings(max_examples=examples(8), deadline=None)
@given(
    st.lists(st.one_of(LONGS, st.integers(-5000, 5000)), min_size=2, max_size=30),
    st.sampled_from([2, 7, 32]),
    st.sampled_from([1, 64]),
    st.data(),
)
def test_spark_cells_match_keyspace(spark, positions, factor, align, data):
    space = KeySpace.spanning(min(positions), max(positions), factor, align)
    depth = data.draw(st.integers(0, space.unit_depth()))
    frame = spark.createDataFrame([(p,) for p in positions], f"{POSITION} bigint")
    found = [
        (r[0], r[1])
        for r in frame.select(POSITION, F.expr(cell_sql(POSITION, space, depth))).collect()
    ]
    assert found == [(p, space.cell_of(p, depth)) for p in positions]


@settings(max_examples=examples(6), deadline=None)
@given(
    st.lists(st.integers(0, 2**60 - 1), min_size=1, max_size=30),
    st.sampled_from([32, 10]),
    st.data(),
)
def test_spark_cells_of_hashed_positions_match_keyspace(spark, positions, factor, data):
    """By a shift where the factor is a power of two, else by the general paths."""
    space = KeySpace.hashed(factor)
    depth = data.draw(st.integers(0, space.unit_depth()))
    frame = spark.createDataFrame([(p,) for p in positions], f"{POSITION} bigint")
    found = [r[0] for r in frame.select(F.expr(cell_sql(POSITION, space, depth))).collect()]
    assert found == [space.cell_of(p, depth) for p in positions]


def test_unit_cells_of_the_whole_bigint_range_do_not_wrap(spark):
    """Factor 23 over every bigint once made unit cells number up to 1.16e19: Spark's `div`
    returned them as a wrapped bigint, silently, with ANSI on or off."""
    positions = [-(2**63), -1, 0, 2**62 + 12345, 2**63 - 1]
    space = KeySpace.spanning(min(positions), max(positions), 23)
    depth = space.unit_depth()
    frame = spark.createDataFrame([(p,) for p in positions], f"{POSITION} bigint")
    found = [r[0] for r in frame.select(F.expr(cell_sql(POSITION, space, depth))).collect()]
    assert found == [space.cell_of(p, depth) for p in positions]
