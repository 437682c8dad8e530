"""Results are published whole: a run becomes visible in every result model at once, only after
its own consistency audits pass; a run stopped before that (dbt killed between two models) or
failing an audit leaves every result model showing the previous run, and the report says so."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import migration_pair, remote_pair
from tests.integration.run_results import planned_problem

GOOD = migration_pair("p")
NEXT = {**GOOD, "name": "p_next"}
UP_TO_HISTORY = "parity_remote_relations parity_remote_columns parity_plan parity_pair_results"
# Every table a run writes before it publishes, each row tagged with the run.
PLANNED_AND_COMPUTED = UP_TO_HISTORY.split()


def published(spark, scratch):
    """The run id each result model shows, and the pairs of the summary."""
    summary = spark.table(f"{scratch.schema}.parity_summary").collect()
    differences = spark.table(f"{scratch.schema}.parity_differences").collect()
    runs = {r["run_id"] for r in summary} | {r["run_id"] for r in differences}
    return runs, sorted(r["pair_name"] for r in summary)


def run_all(scratch, pair, **options):
    return scratch.dbt(
        "run",
        "--select",
        "parity_remote_relations+",
        vars=scratch.demo_vars(parity={"pairs": [pair]}),
        parse_once=True,
        **options,
    )


@pytest.fixture(scope="module")
def previous(scratch, spark):
    """A published run for the tests' runs to leave in place: this module's first, each test
    then finding the one the test before it published."""
    assert run_all(scratch, GOOD).success


def test_a_run_stopped_before_publication_leaves_the_previous_one(scratch, spark, previous):
    before = published(spark, scratch)
    assert len(before[0]) == 1 and before[1]

    logged: list[str] = []
    stopped = scratch.dbt(
        "run",
        "--select",
        f"{UP_TO_HISTORY} parity_run_results",
        vars=scratch.demo_vars(parity={"pairs": [NEXT]}),
        logged=logged,
        parse_once=True,
    )
    assert stopped.success
    history = spark.table(f"{scratch.schema}.parity_run_results")
    assert history.where("pair_name = 'p_next'").count() == 1  # reconciled, not published
    assert published(spark, scratch) == before
    (run_id,) = before[0]
    seconds = (
        spark.table(f"{scratch.schema}.parity_runs")
        .where(f"run_id = '{run_id}'")
        .selectExpr("unix_seconds(run_started_at) as s")
        .first()["s"]
    )
    # The session's clock is in New York; the report says UTC, and means it.
    utc = dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    assert any(
        "this run published no results" in line and f"{run_id}, started {utc} UTC" in line
        for line in logged
    ), logged

    assert run_all(scratch, NEXT).success
    runs, pairs = published(spark, scratch)
    assert runs != before[0] and pairs == ["p_next"]


def test_a_run_failing_its_audits_is_not_published(scratch, spark, previous):
    before = published(spark, scratch)
    table = f"{scratch.schema}.parity_pair_results"

    def tamper() -> None:
        """A reconciliation whose counts do not add up, in the run that computed it."""
        spark.table(table).withColumn(
            "differing_rows", spark.table(table)["differing_rows"] + 1
        ).write.mode("overwrite").saveAsTable(f"{table}_tampered")
        spark.sql(f"insert overwrite table {table} select * from {table}_tampered")

    # A pair of its own: one the published run holds would be kept, not reconciled.
    tampered = {**GOOD, "name": "p_tampered"}
    failed = run_all(scratch, tampered, after_model={"parity_pair_results": tamper})
    assert not failed.success
    assert "failed its audits, so it is not published" in error_text(failed)
    assert "pair 'p_tampered': differing rows" in error_text(failed)
    assert published(spark, scratch) == before
    assert spark.table(f"{scratch.schema}.parity_runs").where("pairs > 0").count() >= 2


def test_results_a_stopped_run_left_are_never_published_by_another(scratch, spark, previous):
    before = published(spark, scratch)
    history = spark.table(f"{scratch.schema}.parity_run_results")
    appended_before = history.count()
    vars = scratch.demo_vars(parity={"pairs": [NEXT]})
    # Stopped after reconciling, before the history: as if dbt had been killed there.
    assert scratch.dbt("run", "--select", UP_TO_HISTORY, vars=vars, parse_once=True).success
    (stopped,) = {
        r["run_id"] for r in spark.table(f"{scratch.schema}.parity_pair_results").collect()
    }
    (planned,) = {r["run_id"] for r in spark.table(f"{scratch.schema}.parity_plan").collect()}
    assert stopped == planned and stopped not in before[0]

    again = scratch.dbt(
        "run", "--select", "parity_run_results parity_runs", vars=vars, parse_once=True
    )
    assert not again.success
    message = error_text(again)
    assert "pair 'p_next': no result in this run" in message
    assert f"parity_pair_results holds results computed from the plan of run {stopped}" in message
    assert spark.table(f"{scratch.schema}.parity_run_results").count() == appended_before
    assert published(spark, scratch) == before


def test_every_table_of_a_run_says_which_run_it_belongs_to(scratch, spark, remote_legacy):
    from_postgres = remote_pair("p_pg", "legacy_pg", {"ref": "legacy_orders"})
    assert run_all(scratch, from_postgres).success
    (run_id,), _ = published(spark, scratch)
    for model in PLANNED_AND_COMPUTED:
        rows = spark.table(f"{scratch.schema}.{model}").collect()
        assert rows and {r["run_id"] for r in rows} == {run_id}, model

    # A plan never negotiates types from columns another run read.
    logged: list[str] = []
    alone = scratch.dbt(
        "run",
        "--select",
        "parity_plan",
        vars=scratch.demo_vars(parity={"pairs": [from_postgres]}),
        logged=logged,
    )
    assert alone.success, error_text(alone)
    # Nor does a run that reconciles nothing report the published run as if it were its own.
    assert not any("Full results:" in line or "published no results" in line for line in logged)
    problem = planned_problem(spark, scratch.schema, "p_pg")
    assert "its columns were not read in this run" in problem
