"""Pairs reconciled several at once (the var parity_concurrent_pairs) publish exactly what they
publish one at a time: each in a Spark session of its own, whose settings parity changes for
that pair alone. The mix holds a joindiff pair, a hashdiff pair, a pair with a tolerance matrix
and a pair that cannot be planned."""

from __future__ import annotations

import threading

import yaml

import parity.reconcile
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import reconcile

NOT_COMPARED = {"run_id", "computed_run_id", "run_started_at", "elapsed_seconds"}
TABLES = ("parity_summary", "parity_differences", "parity_column_drift")
MISSING = {
    "name": "orders_missing",
    "source": {"ref": "legacy_orders"},
    "target": {"relation": ["parity_scratch", "no_such_orders"]},
    "key": "order_id",
}
WIDEST = "spark.sql.codegen.wholeStage"


def demo_pairs(project) -> list[dict]:
    settings = yaml.safe_load((project.path / "dbt_project.yml").read_text())
    declared = settings["vars"]["parity"]["pairs"]
    return [p for p in declared if p["name"] in ("orders", "orders_hashdiff", "orders_tolerant")]


def published(spark, project, pairs, at_once: int, monkeypatch) -> tuple[dict, int]:
    """The pairs reconciled ``at_once``: their rows of each table, each as its compared
    columns' text, and the most pairs that were being reconciled at one time."""
    running, most, lock = [0], [0], threading.Lock()
    reconcile_pair = parity.reconcile.reconcile_pair

    def counted(spark_session, pair):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            return reconcile_pair(spark_session, pair)
        finally:
            with lock:
                running[0] -= 1

    with monkeypatch.context() as patched:
        patched.setattr(parity.reconcile, "reconcile_pair", counted)
        result = reconcile(project, pairs, None, "--full-refresh", parity_concurrent_pairs=at_once)
    assert result.success, error_text(result)
    names = ", ".join(f"'{p['name']}'" for p in pairs)
    summary = spark.table(f"{project.schema}.parity_summary").where(f"pair_name in ({names})")
    (run_id,) = {r["run_id"] for r in summary.collect()}
    rows = {}
    for table in TABLES:  # parity_column_drift holds every published run: this one's rows
        found = spark.table(f"{project.schema}.{table}").where(
            f"pair_name in ({names}) and run_id = '{run_id}'"
        )
        rows[table] = sorted(
            repr(sorted((k, v) for k, v in r.asDict().items() if k not in NOT_COMPARED))
            for r in found.collect()
        )
    return rows, most[0]


def test_pairs_at_once_publish_what_pairs_one_at_a_time_publish(scratch, spark, monkeypatch):
    pairs = [*demo_pairs(scratch), MISSING]
    assert len(pairs) == 4
    before = spark.conf.get(WIDEST, None)
    one_at_a_time, most = published(spark, scratch, pairs, 1, monkeypatch)
    assert most == 1
    at_once, most = published(spark, scratch, pairs, 3, monkeypatch)
    assert most > 1
    for table in TABLES:
        assert at_once[table] == one_at_a_time[table], table
    summary = "\n".join(at_once["parity_summary"])
    assert summary.count("('status', 'complete')") == 3
    assert "('status', 'error')" in summary and "no_such_orders" in summary
    assert at_once["parity_differences"] and at_once["parity_column_drift"]
    # What a pair set on its own session never reached dbt's.
    assert spark.conf.get(WIDEST, None) == before


def test_a_bad_number_of_pairs_at_once_fails_the_plan(scratch):
    result = reconcile(scratch, demo_pairs(scratch)[:1], None, parity_concurrent_pairs=0)
    assert not result.success
    assert "var 'parity_concurrent_pairs' must be a whole number of at least 1, not '0'" in (
        error_text(result)
    )


def test_vars_reach_the_python_models(scratch):
    """A package's dbt_project.yml never sees the vars: the Python models take theirs from their
    properties, where the command's vars reach them."""
    vars = scratch.demo_vars(
        parity_concurrent_pairs=3,
        parity_submission_method="job_cluster",
        parity_apply={"pair": "orders"},  # parity_applies exists only with it
    )
    manifest = scratch.dbt("parse", vars=vars).result
    models = ("parity_pair_results", "parity_remote_columns", "parity_applies")
    for name in models:
        assert (
            manifest.nodes[f"model.parity.{name}"].config.get("submission_method") == "job_cluster"
        )
    results = manifest.nodes["model.parity.parity_pair_results"]
    assert results.config.meta["concurrent_pairs"] == 3
