"""Applies the published run's corrections of the pairs the `parity_apply` var names, and appends
what it did (or would do, in a dry run) to this history. Built only when that var is set
(dbt_project.yml): no `dbt build` without it reaches this model."""


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append")
    from parity.sync.apply import apply_corrections

    return apply_corrections(
        session,
        dbt.config.get("parity_apply"),
        dbt.config.get("parity_dbt_target"),
        dbt.ref("parity_plan"),
        dbt.ref("parity_summary"),
        dbt.ref("parity_run_results"),
        dbt.ref("parity_corrections"),
        session.table(str(dbt.this)) if dbt.is_incremental else None,
    )
