"""Runs every planned pair through the parity library: one row per pair, then one per difference
found in the pairs' data.

A thin entry point: the algorithm lives in the ``parity`` Python library. The submission method
and file format come from dbt_project.yml, so the same model runs on the embedded session and on
Databricks.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from parity.reconcile import reconcile_plan

    return reconcile_plan(session, dbt.ref("parity_plan"))
