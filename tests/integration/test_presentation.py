"""Published differences are readable (a double as a decimal that reads back as it, a boolean as
true or false) beside their exact canonical text; a pair or column marked sensitive publishes no
value, anywhere, only hashes of the canonical text."""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.integration.remote_tables import migration_pair as pair
from tests.integration.remote_tables import reconcile


def sha(text):
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture(scope="module")
def published(scratch, spark):
    pairs = [
        pair("readable"),
        pair("masked_columns", sensitive_columns=["amount", "note"]),
        pair("masked_pair", sensitive=True, algorithm="hashdiff"),
    ]
    logged: list[str] = []
    ran = reconcile(scratch, pairs, logged)
    assert ran.success
    found = {}
    for row in spark.table(f"{scratch.schema}.parity_differences").collect():
        found[(row["pair_name"], row["key"], row["column_name"])] = row.asDict()
    return found, logged


def test_values_read_as_a_person_would_write_them(published):
    found, _ = published
    discount = found[("readable", "99", "discount")]
    assert discount["source_canonical"].startswith("0x1.")
    shown = discount["source_value"]
    assert "x" not in shown and float(shown) == float.fromhex(discount["source_canonical"])
    gift = found[("readable", "500", "is_gift")]
    assert (gift["source_value"], gift["target_value"]) == ("false", "true")
    assert (gift["source_canonical"], gift["target_canonical"]) == ("0", "1")
    row = json.loads(found[("readable", "17", None)]["source_value"])
    assert row["is_gift"] in ("true", "false") and not row["discount"].startswith("0x")


def test_sensitive_columns_publish_only_hashes(published):
    found, _ = published
    amount = found[("masked_columns", "42", "amount")]
    assert [amount[k] for k in ("source_value", "target_value", "delta", "source_canonical")] == [
        None
    ] * 4
    assert (amount["source_hash"], amount["target_hash"]) == (sha("3986.18"), sha("3986.19"))
    assert found[("masked_columns", "64", "customer_id")]["source_value"] == "1817"
    lost = json.loads(found[("masked_columns", "17", None)]["source_value"])
    assert lost["note"] == sha("order 17") and lost["status"] == "shipped"


def test_drift_of_a_sensitive_column_is_counted_not_measured(published, spark, scratch):
    drift = {
        r["column_name"]: r
        for r in spark.table(f"{scratch.schema}.parity_column_drift")
        .where("pair_name = 'masked_columns'")
        .collect()
    }
    assert drift["amount"]["out_of_tolerance"] == 1 and drift["amount"]["max_abs_error"] is None
    assert drift["customer_id"]["max_abs_error"] == 1.0


def test_a_sensitive_pair_publishes_no_value_nor_key(published):
    found, logged = published
    masked = {k: v for k, v in found.items() if k[0] == "masked_pair"}
    assert len(masked) == 13
    for (_, key, column), row in masked.items():
        assert key.startswith("sha256:")
        if column is None:
            shown = row["source_value"] or row["target_value"]
            assert shown.startswith("sha256:")
        else:
            assert row["source_value"] is None and row["target_value"] is None
    assert found[("masked_pair", sha("42"), "amount")]["source_hash"] == sha("3986.18")
    # The on-run-end report's section of the pair: its example differences show hashes only.
    report = "\n".join(logged)
    section = report.split("parity pair 'masked_pair': DIFFERENT")[1].split("parity pair '")[0]
    assert "key 'sha256:" in section
    assert "3986.18" not in section and "order 17" not in section
