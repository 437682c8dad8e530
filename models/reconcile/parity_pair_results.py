"""Runs every planned pair through the parity library: one row per pair, then one per difference
found in the pairs' data.

A thin entry point: the algorithm lives in the ``parity`` Python library. The file format comes
from dbt_project.yml, the submission method and how many pairs run at once from the model's
properties (the vars parity_submission_method and parity_concurrent_pairs), so the same model
runs on the embedded session and on Databricks.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from parity.reconcile import reconcile_plan

    concurrent_pairs = int(dbt.config.meta_get("concurrent_pairs"))
    return reconcile_plan(session, dbt.ref("parity_plan"), concurrent_pairs)
