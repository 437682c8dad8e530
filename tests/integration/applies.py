"""An apply and a reconciliation of one declared pair among others, as the apply tests run them:
the apply's row of parity_applies, the pair's row of parity_summary."""

from __future__ import annotations

from typing import Any

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import reconcile


def applied(
    project, spark, pairs: list[dict], name: str, logged: list[str] | None = None, **request: Any
) -> dict[str, Any]:
    ran = project.dbt(
        "run",
        "--select",
        "parity_applies",
        vars=project.demo_vars(parity={"pairs": pairs}, parity_apply={"pair": name, **request}),
        logged=logged,
    )
    assert ran.success, error_text(ran)
    rows = spark.table(f"{project.schema}.parity_applies").where(f"pair_name = '{name}'")
    return max(rows.collect(), key=lambda r: r["applied_at"]).asDict()


def summary(project, spark, pairs: list[dict], name: str) -> dict[str, Any]:
    assert reconcile(project, pairs).success
    rows = spark.table(f"{project.schema}.parity_summary").where(f"pair_name = '{name}'")
    (row,) = rows.collect()
    return row.asDict()
