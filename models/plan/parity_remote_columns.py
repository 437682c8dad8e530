"""The columns of every pair side outside Spark, read from its own engine's catalog.

Macros cannot reach other engines, so this model introspects them for the plan to negotiate
column types on both sides. A thin entry point into the parity library.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from parity.sides.remote_columns import remote_columns

    return remote_columns(session, dbt.ref("parity_remote_relations"))
