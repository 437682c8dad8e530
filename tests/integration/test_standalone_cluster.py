"""The same package, unchanged, on a real Spark cluster: the demo built by a dbt process whose
profile points at a standalone master on 127.0.0.1 (PARITY_SPARK_MASTER), its jobs run by a
worker's executor in a JVM of its own, and its results equal to the embedded run's. One worker
of two cores, not two of one: the same tasks side by side, and one JVM less to start and warm
up on the machine that runs the suite."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from pyspark.sql import DataFrame

from tests.conftest import JVM_OPTIONS, REPO
from tests.integration.dbt_project_copy import DbtProject
from tests.integration.standalone_cluster import standalone_cluster

# What differs from one run to the next, whatever runs it; and the input fingerprints (with
# the state hash over them), which name the files each warehouse wrote.
RUN_DEPENDENT = [
    "run_id",
    "run_started_at",
    "elapsed_seconds",
    "source_fingerprint",
    "target_fingerprint",
    "state_hash",
]


def test_the_demo_on_a_cluster_finds_what_the_embedded_run_finds(demo, spark, tmp_path):
    # The embedded demo's schema too, in a warehouse and metastore of its own: relation names,
    # which results carry, are then the same.
    project = DbtProject.copy_of_demo(tmp_path / "project", demo.schema)
    warehouse = tmp_path / "warehouse"
    with standalone_cluster() as cluster:
        built = subprocess.run(
            [
                str(Path(sys.executable).parent / "dbt"),
                *("build", "--project-dir", str(project.path)),
                *("--profiles-dir", str(REPO / "profiles")),
                *("--vars", yaml.safe_dump(demo.demo_vars())),
            ],
            cwd=tmp_path,
            env={
                **os.environ,
                "PARITY_SPARK_MASTER": cluster.url,
                "PARITY_SCHEMA": demo.schema,
                "PARITY_WAREHOUSE_DIR": str(warehouse),
                "PARITY_METASTORE_DIR": str(tmp_path / "metastore_db"),
                # The driver's JVM, with the tests' JVM options (tests/conftest.py).
                "JAVA_TOOL_OPTIONS": JVM_OPTIONS,
            },
            capture_output=True,
            text=True,
            timeout=900,
        )
        # The cluster ran the jobs: its worker started an executor for them.
        assert cluster.workers_running_executors() == 1
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    assert "Done. PASS=28 WARN=2 ERROR=0" in built.stdout
    published = spark.table(f"{demo.schema}.parity_summary").select("run_id").distinct()
    for history, count in (("parity_run_results", 4), ("parity_run_differences", 39)):
        on_cluster = spark.read.parquet(str(warehouse / f"{demo.schema}.db" / history))
        embedded = spark.table(f"{demo.schema}.{history}").join(published, "run_id")
        expected = _results(embedded)
        assert len(expected) == count
        assert _results(on_cluster) == expected


def _results(frame: DataFrame) -> list[dict]:
    """Each row, nested column drift and schema findings included, but for what depends on the
    run, in one order."""
    rows = frame.drop(*RUN_DEPENDENT).collect()
    return sorted((row.asDict(recursive=True) for row in rows), key=repr)
