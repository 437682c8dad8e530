"""The position ranges added beside a listed filter: never a row less than the ranges hold, no
more while they are few enough, and in a form Spark hands to the Parquet reader."""

from hypothesis import given, settings
from hypothesis import strategies as st

from parity.sides.spark import PUSHED_RANGES, position_ranges
from tests.examples import examples

POSITION = "__parity_pos"

RANGES = st.lists(
    st.tuples(st.integers(-300, 300), st.integers(1, 20)).map(lambda r: (r[0], r[0] + r[1])),
    max_size=3 * PUSHED_RANGES,
)


@settings(max_examples=examples(12), deadline=None)
@given(RANGES)
def test_ranges_keep_every_position_inside_them(spark, ranges):
    frame = spark.range(-350, 350).withColumnRenamed("id", POSITION)
    kept = {r[0] for r in frame.where(position_ranges(POSITION, ranges)).collect()}
    inside = {p for start, end in ranges for p in range(start, end)}
    assert inside <= kept
    disjoint = len({p for p in inside if p - 1 not in inside})
    if disjoint <= PUSHED_RANGES:
        assert kept == inside


def test_ranges_reach_the_ends_of_the_bigint(spark):
    """A cell's end past the largest bigint (2**63) is a decimal literal, still compared exactly."""
    ends = [-(2**63), -(2**63) + 1, 0, 2**63 - 2, 2**63 - 1]
    frame = spark.createDataFrame([(p,) for p in ends], f"{POSITION} bigint")
    wanted = [(-(2**63), -(2**63) + 1), (2**63 - 1, 2**63)]
    kept = [r[0] for r in frame.where(position_ranges(POSITION, wanted)).collect()]
    assert sorted(kept) == [-(2**63), 2**63 - 1]


def test_ranges_reach_the_parquet_reader(spark, tmp_path):
    path = str(tmp_path / "keys")
    spark.range(1000).withColumnRenamed("id", POSITION).write.parquet(path)
    wanted = [(64 * c, 64 * c + 64) for c in range(0, 15, 2)]
    frame = spark.read.parquet(path).where(position_ranges(POSITION, wanted))
    plan = frame._jdf.queryExecution().executedPlan().toString()
    pushed = plan.split("PushedFilters: ", 1)[1]
    assert pushed.startswith("[Or(") and f"LessThan({POSITION},64)" in pushed
    assert frame.count() == 8 * 64
