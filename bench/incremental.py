"""Benchmark: what incremental re-runs save. A project of ten pairs of Parquet directories, each
side 1M rows, reconciled by `dbt run` (plan, reconciliation, publication) in five runs:

    python -m bench.incremental [--rows 1000000] [--pairs 10] [--output FILE]

1. full: `--full-refresh`, every pair compared (the baseline);
2. no change: every pair keeps its last result;
3. new batch: a file of 1% more rows added to one pair's target;
4. added column: one pair's target written again with one more column;
5. full again, to see how much the baseline moves between runs on this machine.

Each run reports its seconds (the whole dbt invocation, and the reconciliation model alone), the
pairs compared, and the rows scanned (both sides' rows of every pair compared), as ratios to the
full run's.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

import yaml
from dbt.cli.main import dbtRunner
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from bench.harness import PROJECT, RESULTS, SCHEMA, bench_session

HERE = Path(__file__).resolve().parent
SOURCES = HERE / "project" / "models" / "incremental_sources.yml"
ROWS = """
    id,
    cast(pmod(id * 7919, 5000) as int) as customer_id,
    cast(pmod(id * 104729, 1000000) / 100 as decimal(12, 2)) as amount,
    cast(pmod(id * 31, 1000) as double) / 997 as discount,
    timestamp_micros(1704067200000000 + pmod(id * 7907, 31536000) * 1000000) as ordered_at,
    concat('order ', id) as note
"""


def main() -> None:
    options = _options()
    spark = bench_session("parity-bench-incremental")
    folder = RESULTS / "incremental-files"
    names = _write_pairs(spark, folder, options.rows, options.pairs)
    pairs = [
        {
            "name": name,
            "source": {"source": ["incremental", f"{name}_source"]},
            "target": {"source": ["incremental", f"{name}_target"]},
            "key": "id",
        }
        for name in names
    ]
    figures = {"rows": options.rows, "pairs": options.pairs, "runs": []}
    if not dbtRunner().invoke(["deps", "--quiet", *PROJECT]).success:
        raise SystemExit("dbt deps failed for the benchmark project")
    try:
        figures["runs"].append(_run(spark, "full", pairs, "--full-refresh"))
        figures["runs"].append(_run(spark, "no change", pairs))
        batch = _rows(spark, options.rows + 1, options.rows + options.rows // 100)
        batch.coalesce(1).write.mode("append").parquet(str(folder / f"{names[3]}_target"))
        figures["runs"].append(_run(spark, "new batch in one table", pairs))
        target = folder / f"{names[7]}_target"
        widened = spark.read.parquet(str(target)).withColumn("channel", F.lit("web"))
        widened = widened.localCheckpoint()
        shutil.rmtree(target)
        widened.write.parquet(str(target))
        figures["runs"].append(_run(spark, "column added to one table", pairs))
        figures["runs"].append(_run(spark, "full again", pairs, "--full-refresh"))
    finally:
        SOURCES.unlink(missing_ok=True)
    full = figures["runs"][0]
    for run in figures["runs"]:
        run["x_full_seconds"] = round(run["seconds"] / full["seconds"], 3)
        run["x_full_reconcile_seconds"] = round(
            run["reconcile_seconds"] / full["reconcile_seconds"], 3
        )
        run["x_full_rows_scanned"] = round(run["rows_scanned"] / full["rows_scanned"], 4)
    _print(figures)
    output = Path(options.output or RESULTS / f"incremental-{options.rows}.json")
    output.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nwritten to {output}")


def _write_pairs(spark: SparkSession, folder: Path, rows: int, count: int) -> list[str]:
    """One 1M-row table written once, copied to both sides of every pair, and declared as the
    benchmark project's sources."""
    shutil.rmtree(folder, ignore_errors=True)
    _rows(spark, 1, rows).repartition(4).write.parquet(str(folder / "base"))
    names = [f"pair_{n:02d}" for n in range(count)]
    for name in names:
        for side in ("source", "target"):
            shutil.copytree(folder / "base", folder / f"{name}_{side}")
    tables = [
        {"name": f"{name}_{side}", "meta": {"parity": {"path": str(folder / f"{name}_{side}")}}}
        for name in names
        for side in ("source", "target")
    ]
    sources = {"name": "incremental", "meta": {"parity": {"format": "parquet"}}, "tables": tables}
    SOURCES.write_text(yaml.safe_dump({"version": 2, "sources": [sources]}))
    return names


def _rows(spark: SparkSession, first: int, last: int) -> DataFrame:
    return spark.sql(f"select {ROWS} from range({first}, {last + 1})")


def _run(spark: SparkSession, case: str, pairs: list[dict], *flags: str) -> dict:
    variables = ["--vars", json.dumps({"parity": {"pairs": pairs}})]
    command = ["run", "--quiet", "--select", "parity_remote_relations+", *flags]
    started = time.perf_counter()
    result = dbtRunner().invoke([*command, *PROJECT, *variables])
    seconds = time.perf_counter() - started
    if not result.success:
        raise SystemExit(f"dbt run failed for the benchmark project: {result.exception}")
    (reconcile,) = [r for r in result.result.results if r.node.name == "parity_pair_results"]
    this_run = spark.table(f"{SCHEMA}.parity_runs").orderBy(F.desc("published_at")).first()
    pairs_of_run = spark.table(f"{SCHEMA}.parity_run_pairs").where(
        F.col("run_id") == this_run["run_id"]
    )
    compared = pairs_of_run.where("run_mode = 'compared'").select("pair_name", "computed_run_id")
    results = spark.table(f"{SCHEMA}.parity_run_results")
    scanned = (
        compared.join(
            results,
            (compared.computed_run_id == results.run_id)
            & (compared.pair_name == results.pair_name),
        )
        .select(F.sum(F.col("source_rows") + F.col("target_rows")))
        .first()[0]
    )
    reasons = sorted({r["run_mode_reason"] for r in pairs_of_run.collect()})
    return {
        "case": case,
        "seconds": round(seconds, 2),
        "reconcile_seconds": round(reconcile.execution_time, 2),
        "pairs_compared": compared.count(),
        "rows_scanned": int(scanned or 0),
        "reasons": reasons,
    }


def _print(figures: dict) -> None:
    print(f"\n{figures['pairs']} pairs of {figures['rows']:,} rows a side, by dbt run")
    header = (
        f"{'run':<28}{'seconds':>9}{'x full':>8}{'reconcile s':>13}{'x full':>8}"
        f"{'pairs compared':>16}{'rows scanned':>14}{'x full':>8}"
    )
    print(header)
    for run in figures["runs"]:
        print(
            f"{run['case']:<28}{run['seconds']:>9.1f}{run['x_full_seconds']:>8.3f}"
            f"{run['reconcile_seconds']:>13.1f}{run['x_full_reconcile_seconds']:>8.3f}"
            f"{run['pairs_compared']:>16}{run['rows_scanned']:>14,}{run['x_full_rows_scanned']:>8.4f}"
        )


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--pairs", type=int, default=10)
    parser.add_argument("--output")
    return parser.parse_args()


if __name__ == "__main__":
    main()
