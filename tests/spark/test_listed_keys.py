"""The filter that picks the rows of listed keys (joindiff's second pass): exactly the rows of
those keys, a compound key tested on its first column and then whole, whatever the keys' text."""

from hypothesis import given, settings
from hypothesis import strategies as st
from pyspark.sql import functions as F

from parity.sides.spark import listed_sql
from parity.values.spark_literals import string_literal
from tests.examples import examples

TEXTS = st.sampled_from(["1", "11", "", "it's", "a\\b", "é☕", "x'\\y", "2"])
KEYS = st.tuples(TEXTS, TEXTS)


@settings(max_examples=examples(20), deadline=None)
@given(st.lists(KEYS, max_size=20, unique=True), st.lists(KEYS, max_size=20))
def test_listed_keys_keep_exactly_their_rows(spark, rows, wanted):
    """(1, 11) and (11, 1) are different keys though their first columns are both listed."""
    frame = spark.createDataFrame(rows, "`__parity_k0` string, `__parity_k1` string")
    condition = listed_sql(["`__parity_k0`", "`__parity_k1`"], wanted, string_literal)
    kept = {tuple(r) for r in frame.where(F.expr(condition)).collect()}
    assert kept == set(rows) & set(wanted)


def test_one_listed_column_is_one_in_list(spark):
    frame = spark.range(10).withColumnRenamed("id", "cell")
    kept = frame.where(F.expr(listed_sql(["cell"], [(3,), (7,), (3,)], str))).collect()
    assert sorted(r[0] for r in kept) == [3, 7]
