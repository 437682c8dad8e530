"""What a pair compares: `where` (one predicate, or one per side in its engine's dialect),
`exclude_columns` and a `time_window` over an update column, each pushed into the engines' SQL and
reported in the summary. The demo's planted differences show what each filter keeps."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from tests.integration.remote_tables import migration_pair as pair
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import by_pair, finding

PLANTED_BELOW_1000 = {
    ("17", "missing_in_target", None),
    ("42", "value_mismatch", "amount"),
    ("64", "value_mismatch", "customer_id"),
    ("99", "value_mismatch", "discount"),
    ("314", "value_mismatch", "status"),
    ("500", "value_mismatch", "is_gift"),
    ("770", "value_mismatch", "note"),
}


# 2024-07-01 as an age, from a moment a little before dbt's run starts: the bound dbt computes
# lands a few seconds later, far from any planted difference.
AGE_DAYS = (dt.datetime.now(dt.timezone.utc) - dt.datetime(2024, 7, 1, tzinfo=dt.timezone.utc)).days


@pytest.fixture(scope="module")
def reconciled(scratch, spark, remote_legacy):
    pairs = [
        pair("below_1000_joindiff", where="order_id < 1000"),
        pair("below_1000_hashdiff", where="order_id < 1000", algorithm="hashdiff"),
        {
            **pair("per_side", bisection_threshold=64),
            "source": {"source": ["legacy_pg", "orders"]},
            # Each side in its own dialect: `~` is PostgreSQL's, `rlike` Spark's.
            "where": {
                "source": "order_id < 1000 and status ~ '^[a-z]'",
                "target": "order_id < 1000 and status rlike '^[A-Za-z]'",
            },
        },
        # A bare boolean column: Spark once read `from rel where (is_gift)` as an alias.
        pair("gifts_joindiff", where="is_gift"),
        pair("gifts_hashdiff", where="is_gift", algorithm="hashdiff", bisection_threshold=64),
        {
            **pair("gifts_postgres"),
            "source": {"source": ["legacy_pg", "orders"]},
            "where": "is_gift",
        },
        {
            **pair("gifts_duckdb"),
            "source": {"source": ["legacy_duckdb", "orders"]},
            "where": "is_gift",
        },
        pair("excluded", exclude_columns=["amount", "note"]),
        pair("recent", time_window={"column": "ordered_at", "max_age": f"{AGE_DAYS} days"}),
    ]
    assert reconcile(scratch, pairs).success
    return by_pair(spark, scratch.schema, finding, set)


@pytest.mark.parametrize("name", ["below_1000_joindiff", "below_1000_hashdiff", "per_side"])
def test_where_keeps_only_the_rows_it_selects(reconciled, name):
    summaries, differences = reconciled
    assert differences[name] == PLANTED_BELOW_1000
    assert (summaries[name]["source_rows"], summaries[name]["target_rows"]) == (999, 998)


@pytest.mark.parametrize(
    "name", ["gifts_joindiff", "gifts_hashdiff", "gifts_postgres", "gifts_duckdb"]
)
def test_a_boolean_column_filters_on_every_engine(reconciled, scratch, spark, name):
    summaries, differences = reconciled
    gifts = spark.table(f"{scratch.schema}.legacy_orders").where("is_gift")
    assert 0 < gifts.count() < 3000
    assert summaries[name]["source_rows"] == gifts.count()
    gift_keys = {str(r["order_id"]) for r in gifts.select("order_id").collect()}
    # Key 500 is planted as a gift in the copy only: its only row is missing in source.
    assert {key for key, _, _ in differences[name]} <= gift_keys | {"500", "1000001", "1000002"}
    assert ("500", "missing_in_source", None) in differences[name]


def test_summary_says_which_filters_applied(reconciled):
    summaries, _ = reconciled
    assert json.loads(summaries["below_1000_joindiff"]["filters"]) == {
        "where_source": "order_id < 1000",
        "where_target": "order_id < 1000",
    }
    assert json.loads(summaries["per_side"]["filters"])["where_source"].endswith("'^[a-z]'")
    assert json.loads(summaries["excluded"]["filters"]) == {"exclude_columns": ["amount", "note"]}


def test_excluded_columns_are_not_compared(reconciled):
    summaries, differences = reconciled
    assert ("42", "value_mismatch", "amount") not in differences["excluded"]
    assert ("770", "value_mismatch", "note") not in differences["excluded"]
    assert ("64", "value_mismatch", "customer_id") in differences["excluded"]
    assert summaries["excluded"]["schema_findings"] == 0


def test_time_window_keeps_rows_updated_since_max_age(reconciled, scratch, spark):
    summaries, differences = reconciled
    window = json.loads(summaries["recent"]["filters"])["time_window"]
    assert window["column"] == "ordered_at" and window["until"] is None
    since = f"timestamp_ltz'{window['from']}+00:00'"
    recent = spark.table(f"{scratch.schema}.legacy_orders").where(f"ordered_at >= {since}")
    assert summaries["recent"]["source_rows"] == recent.count()
    assert 0 < summaries["recent"]["source_rows"] < 3000
    recent_keys = {str(r["order_id"]) for r in recent.select("order_id").collect()}
    planted = {key for key, _, _ in differences["recent"]}
    assert planted and planted <= recent_keys | {"1000001", "1000002"}
