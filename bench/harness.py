"""What every benchmark shares: its session, its pairs planned by dbt in this process (so a
benchmark runs the real SQL), where its figures go, and a timer."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from pyspark.sql import SparkSession

from parity.embedded import embedded_session
from parity.plan import PairPlan, pairs_from_rows
from parity.reconcile import reconcile_pair
from parity.results.pair_result import PairResult, results_frame

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
SCHEMA = "parity_bench"
PROJECT = ["--project-dir", str(HERE / "project"), "--profiles-dir", str(HERE.parent / "profiles")]


def dbt_environment(work: Path, schema: str) -> dict[str, str]:
    """The environment of a benchmark's dbt process: the shipped profile, a warehouse and a
    metastore of its own under ``work``, and the schema its project writes."""
    return {
        **os.environ,
        "PARITY_WAREHOUSE_DIR": str(work / "warehouse"),
        "PARITY_METASTORE_DIR": str(work / "metastore_db"),
        "PARITY_SCHEMA": schema,
        "DBT_PROFILES_DIR": str(HERE.parent / "profiles"),
        "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
    }


def bench_session(app_name: str, **settings: str) -> SparkSession:
    """The embedded session, its tables in bench/results/work, in the schema PARITY_SCHEMA."""
    os.environ["PARITY_SCHEMA"] = SCHEMA
    return embedded_session(
        RESULTS / "work",
        app_name,
        **{"spark.sql.shuffle.partitions": "8", "spark.sql.session.timeZone": "UTC", **settings},
    )


def run_process(
    command: list[str], environment: dict[str, str], folder: Path
) -> subprocess.CompletedProcess:
    """A process run to its end in ``folder``, its output kept; one that fails stops the
    benchmark with the end of what it printed."""
    done = subprocess.run(command, env=environment, capture_output=True, text=True, cwd=folder)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed:\n{done.stdout[-3000:]}{done.stderr}")
    return done


def timed(action):
    """Seconds an action took, and what it returned."""
    started = time.perf_counter()
    value = action()
    return time.perf_counter() - started, value


def reconciled(spark: SparkSession, pair: PairPlan) -> PairResult:
    """A pair reconciled and its row of results written (to Spark's no-op sink), differences
    nested, as dbt writes parity_pair_results: the differences are computed only then."""
    result = reconcile_pair(spark, pair)
    results_frame(spark, [result]).write.format("noop").mode("overwrite").save()
    return result


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


class PeakMemory:
    """Peak resident memory of the driver: this Python process and the JVM it drives (the
    driver in local mode), from Linux's high-water marks, which ``reset`` clears so each
    measured case reports its own peak."""

    def __init__(self, spark: SparkSession) -> None:
        jvm_pid = spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid()
        self.pids = {"python": os.getpid(), "jvm": int(jvm_pid)}

    def reset(self) -> None:
        for pid in self.pids.values():
            Path(f"/proc/{pid}/clear_refs").write_text("5")

    def read(self) -> dict[str, int]:
        """Peak MiB of each process since the last reset."""
        peaks = {}
        for name, pid in self.pids.items():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peaks[name] = int(line.split()[1]) // 1024
        return peaks
