"""The benchmarks' pairs, planned by dbt in this process, so a benchmark runs the real SQL."""

from __future__ import annotations

import json
import os
from pathlib import Path

from pyspark.sql import SparkSession

from parity.plan import PairPlan, pairs_from_rows

HERE = Path(__file__).resolve().parent
PROJECT = ["--project-dir", str(HERE / "project"), "--profiles-dir", str(HERE.parent / "profiles")]


def rendered_pairs(spark: SparkSession, pairs: list[dict]) -> dict[str, PairPlan]:
    """Builds the plan of ``pairs`` (as a user declares them in `vars`) in the benchmark
    project, whose sources are the generated tables in the schema PARITY_SCHEMA names; returns
    each pair's plan by name."""
    from dbt.cli.main import dbtRunner

    variables = ["--vars", json.dumps({"parity": {"pairs": pairs}})]
    models = "parity_remote_relations parity_remote_columns parity_plan"
    for command in (["deps", "--quiet"], ["run", "--quiet", "--select", models]):
        result = dbtRunner().invoke([*command, *PROJECT, *variables])
        if not result.success:
            raise SystemExit(
                f"dbt {command[0]} failed for the benchmark project: {result.exception}"
            )
    plan = spark.table(f"{os.environ['PARITY_SCHEMA']}.parity_plan")
    return {pair.name: pair for pair in pairs_from_rows([r.asDict() for r in plan.collect()])}
