"""The demo, built as a user would build it: every planted difference found, nothing else."""

from __future__ import annotations

import csv

from parity.plan import config_hash, pairs_from_rows
from parity.reference import row_hash
from tests.conftest import REPO
from tests.integration.dbt_project_copy import DbtProject, error_text


def summary(spark, schema):
    return {r["pair_name"]: r.asDict() for r in spark.table(f"{schema}.parity_summary").collect()}


def differences(spark, schema, pair):
    rows = spark.table(f"{schema}.parity_differences").where(f"pair_name = '{pair}'")
    return sorted(tuple(r) for r in rows.drop("run_id", "pair_name").collect())


def test_build_passes_with_the_planted_differences_as_warnings(demo):
    result = demo.build_result
    assert result.success
    statuses = {r.node.name: str(r.status) for r in result.result.results}
    assert statuses["planted_differences_found"] == "pass"
    assert [
        s for name, s in statuses.items() if "no_differences_lakehouse_orders_orders" in name
    ] == ["warn"]


def test_tolerance_matrix_accepts_five_planted_drifts(demo, spark):
    kinds = {(r[0], r[2]): r[1] for r in differences(spark, demo.schema, "orders_tolerant")}
    within = {("99", "discount"), ("314", "status"), ("770", "note"), ("2718", "ordered_at")}
    within.add(("1234", "ship_date"))
    assert {k for k, kind in kinds.items() if kind == "within_tolerance"} == within
    beyond = {("42", "amount"), ("64", "customer_id"), ("500", "is_gift")}
    assert {k for k, kind in kinds.items() if kind == "value_mismatch"} == beyond
    tolerant = summary(spark, demo.schema)["orders_tolerant"]
    assert (tolerant["value_mismatch_rows"], tolerant["within_tolerance_rows"]) == (3, 5)
    assert tolerant["row_drift_pct"] <= 0.5 and not tolerant["passed"]
    statuses = {r.node.name: str(r.status) for r in demo.build_result.result.results}
    assert [s for n, s in statuses.items() if "in_parity" in n] == ["warn"]
    assert [s for n, s in statuses.items() if "column_drift_below" in n] == ["pass"]


def test_every_planted_difference_and_nothing_else(demo, spark):
    with open(REPO / "demo" / "seeds" / "expected_orders_differences.csv") as planted:
        expected = sorted(
            (r["key"], r["kind"], None if r["column_name"] == "(row)" else r["column_name"])
            for r in csv.DictReader(planted)
        )
    for pair in ("orders", "orders_hashdiff"):
        found = [row[:3] for row in differences(spark, demo.schema, pair)]
        assert found == expected, pair


def test_summary_counts_and_identical_copy(demo, spark):
    pairs = summary(spark, demo.schema)
    orders = pairs["orders"]
    assert (orders["source_rows"], orders["target_rows"]) == (3000, 3001)
    assert orders["missing_in_target_rows"] == 2 and orders["missing_in_source_rows"] == 2
    assert orders["value_mismatch_rows"] == 8 and orders["mismatched_values"] == 8
    assert orders["duplicate_in_target_rows"] == 1 and orders["duplicate_in_source_rows"] == 0
    assert orders["differing_rows"] == 13 and not orders["passed"]
    assert orders["within_tolerance_rows"] == 0 and orders["within_tolerance_values"] == 0
    # Row drift: the rows missing or extra on either side, of the larger side.
    assert orders["row_drift_pct"] == round(100 * 5 / 3001, 6)
    assert orders["algorithm"] == "joindiff" and pairs["orders_hashdiff"]["algorithm"] == "hashdiff"
    copy = pairs["orders_copy"]
    assert copy["passed"] and copy["differing_rows"] == 0
    assert (copy["checksum_passes"], copy["segments_checked"], copy["rows_moved"]) == (1, 1, 0)


def test_hashdiff_and_joindiff_report_the_same_values(demo, spark):
    assert differences(spark, demo.schema, "orders") == differences(
        spark, demo.schema, "orders_hashdiff"
    )
    mismatches = {
        r[0]: r[2:] for r in differences(spark, demo.schema, "orders") if r[1] == "value_mismatch"
    }
    # column, both values (readable, then canonical), the delta (target - source, in the
    # column's unit), the relative error, and no hashes (nothing is sensitive).
    assert mismatches["770"] == ("note", None, "", None, None, None, "", None, None)
    assert mismatches["2718"][0] == "ordered_at" and mismatches["2718"][3] == "1000.000"
    assert mismatches["42"] == (
        "amount",
        "3986.18",
        "3986.19",
        "0.01",
        0.01 / 3986.19,
        "3986.18",
        "3986.19",
        None,
        None,
    )


def test_canonical_sql_hashes_as_the_reference_does(demo, spark):
    plan = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{demo.schema}.parity_plan").collect()]
    )
    orders = next(p for p in plan if p.name == "orders")
    for side in (orders.source, orders.target):
        rows = spark.sql(side.canonical_sql).collect()
        keys = [c for c in rows[0].asDict() if c.startswith(("__parity_k", "__parity_c"))]
        for row in rows:
            assert row["__parity_hash"] == row_hash([row[c] for c in keys])


def test_timestamps_are_canonical_utc_whatever_the_session_time_zone(demo, spark):
    plan = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{demo.schema}.parity_plan").collect()]
    )
    source = next(p for p in plan if p.name == "orders").source
    position = source.column_names.index("ordered_at")
    row = spark.sql(source.canonical_sql).where("__parity_k0 = '1'").first()
    # Order 1 was stored as the instant 2024-01-01T00:00:00Z + 7907 s + 13 µs.
    assert row[f"__parity_c{position}"] == "2024-01-01 02:11:47.000013"
    assert spark.conf.get("spark.sql.session.timeZone") != "UTC"


def test_config_hash_is_written_beside_results(demo, spark):
    plan = pairs_from_rows(
        [r.asDict() for r in spark.table(f"{demo.schema}.parity_plan").collect()]
    )
    pairs = summary(spark, demo.schema)
    for pair in plan:
        assert pairs[pair.name]["config_hash"] == config_hash(pair.config)
    assert plan[0].config["bisection_factor"] == 32


def test_rebuild_keeps_every_result(demo, spark):
    before = summary(spark, demo.schema)
    before_differences = spark.table(f"{demo.schema}.parity_differences").collect()
    # Results are published only by the run that planned them: the plan is rebuilt too. Nothing
    # changed, so each result is kept as it was (a full refresh compares again and finds the
    # same: test_incremental_runs.py).
    assert demo.dbt(
        "run", "--select", "parity_plan+", vars=demo.demo_vars(), parse_once=True
    ).success
    kept = summary(spark, demo.schema)
    for pair, row in before.items():
        assert kept[pair]["run_mode"] == "unchanged"
        assert {k: v for k, v in kept[pair].items() if not k.startswith("run_mode")} == {
            k: v for k, v in row.items() if not k.startswith("run_mode")
        }
    assert spark.table(f"{demo.schema}.parity_differences").collect() == before_differences


def test_error_threshold_fails_the_test_and_identical_pair_passes(demo):
    result = demo.dbt(
        "test",
        "--select",
        "lakehouse_orders lakehouse_orders_copy",
        vars=demo.demo_vars(orders_error_above=0),
    )
    assert not result.success
    statuses = {r.node.name: str(r.status) for r in result.result.results}
    assert [s for n, s in statuses.items() if "no_differences_lakehouse_orders_orders" in n] == [
        "fail"
    ]
    assert [s for n, s in statuses.items() if "orders_copy" in n] == ["pass"]


def test_package_refs_reach_the_package_first_and_the_pairs_the_project(tmp_path):
    # The demo's flag require_ref_searches_node_package_before_root: a model of the project named
    # as one of parity's does not capture parity's ref to it, and parity's refs to the relations
    # of the pairs, models of the project, are no longer worth dbt's warning (an error here).
    project = DbtProject.copy_of_demo(tmp_path / "project", "parity_refs")
    project.write(
        "models/parity_remote_columns.sql",
        "{{ config(alias='not_parity_remote_columns') }}\nselect 1 as column_name\n",
    )
    warning = '{"error": ["PackageNodeDependsOnRootProjectNode"]}'
    parsed = project.dbt("parse", "--warn-error-options", warning)
    assert parsed.success, error_text(parsed)
    plan = parsed.result.nodes["model.parity.parity_plan"].depends_on.nodes
    assert sorted(plan) == [
        "model.parity.parity_remote_columns",
        "model.parity_demo.lakehouse_orders",
        "model.parity_demo.lakehouse_orders_copy",
        "model.parity_demo.legacy_orders",
    ]
