"""Benchmark: what incremental re-runs save. A project of ten pairs of Parquet directories, each
side 1M rows, reconciled by `dbt run` (plan, reconciliation, publication) in five runs:

    python -m bench.incremental [--rows 1000000] [--pairs 10] [--output FILE]
                                [--source-engine parquet|postgres] [--tolerance]

1. full: `--full-refresh`, every pair compared (the baseline);
2. no change: every pair keeps its last result;
3. new batch: a file of 1% more rows added to one pair's target;
4. added column: one pair's target written again with one more column;
5. full again, to see how much the baseline moves between runs on this machine.

With --source-engine postgres, each pair's source is a table of a throwaway PostgreSQL server on
127.0.0.1 and its target a copy that drifted (DRIFT): the usual migration pair. The runs are:
full; no change; one row updated in one pair's source; a batch of 1% more rows appended to
another pair's source and target; full again.
--tolerance declares a tolerance on `amount` and `discount`, so hashdiff hashes them on their
grid, as a pair with a tolerance matrix does.

Each run reports its seconds (the whole dbt invocation, and the reconciliation model alone), the
pairs compared, and the rows scanned (both sides' rows of every pair compared), as ratios to the
full run's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from contextlib import ExitStack
from pathlib import Path

import psycopg
import yaml
from dbt.cli.main import dbtRunner
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

from bench.harness import PROJECT, RESULTS, SCHEMA, bench_session
from tests.integration.postgres_server import postgres_server

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
# The same rows in PostgreSQL's types, for a source copied there.
POSTGRES_TABLE = """
create table {name} (
    id bigint primary key,
    customer_id integer,
    amount numeric(12, 2),
    discount double precision,
    ordered_at timestamptz,
    note text
)
"""
# The target of a PostgreSQL pair: one discount in ten recomputed within any tolerance, and one
# note in 20,000 changed.
DRIFT = (
    "id",
    "customer_id",
    "amount",
    "if(id % 10 = 0, discount * (1 + 1e-12), discount) as discount",
    "ordered_at",
    "if(id % 20000 = 0, concat(note, ' (edited)'), note) as note",
)
POSTGRES_URL = "PARITY_BENCH_PG_URL"
TOLERANCE = {"columns": {"amount": {"abs_tol": 0.01}, "discount": {"rel_tol": 1.0e-9}}}


def main() -> None:
    options = _options()
    spark = bench_session("parity-bench-incremental")
    folder = RESULTS / "incremental-files"
    postgres = options.source_engine == "postgres"
    figures = {
        "rows": options.rows,
        "pairs": options.pairs,
        "source_engine": options.source_engine,
        "tolerance": options.tolerance,
        "runs": [],
    }
    if not dbtRunner().invoke(["deps", "--quiet", *PROJECT]).success:
        raise SystemExit("dbt deps failed for the benchmark project")
    with ExitStack() as stack:
        if postgres:
            os.environ[POSTGRES_URL] = stack.enter_context(postgres_server()).url
        stack.callback(SOURCES.unlink, missing_ok=True)
        names = _write_pairs(spark, folder, options.rows, options.pairs, postgres)
        pairs = [_pair(name, options.tolerance) for name in names]
        figures["runs"].append(_run(spark, "full", pairs, "--full-refresh"))
        figures["runs"].append(_run(spark, "no change", pairs))
        batch = _rows(spark, options.rows + 1, options.rows + options.rows // 100)
        if postgres:
            with psycopg.connect(os.environ[POSTGRES_URL], autocommit=True) as connection:
                connection.execute(
                    f"update {names[0]}_source set note = 'changed' where id = {options.rows // 2}"
                )
            figures["runs"].append(_run(spark, "one row changed", pairs))
            _copy_rows(batch, f"{names[-1]}_source", create=False)
            batch.coalesce(1).write.mode("append").parquet(str(folder / f"{names[-1]}_target"))
            figures["runs"].append(_run(spark, "batch appended to one pair", pairs))
        else:
            batch.coalesce(1).write.mode("append").parquet(str(folder / f"{names[3]}_target"))
            figures["runs"].append(_run(spark, "new batch in one table", pairs))
            target = folder / f"{names[7]}_target"
            widened = spark.read.parquet(str(target)).withColumn("channel", F.lit("web"))
            widened = widened.localCheckpoint()
            shutil.rmtree(target)
            widened.write.parquet(str(target))
            figures["runs"].append(_run(spark, "column added to one table", pairs))
        figures["runs"].append(_run(spark, "full again", pairs, "--full-refresh"))
    full = figures["runs"][0]
    for run in figures["runs"]:
        run["x_full_seconds"] = round(run["seconds"] / full["seconds"], 3)
        run["x_full_reconcile_seconds"] = round(
            run["reconcile_seconds"] / full["reconcile_seconds"], 3
        )
        run["x_full_rows_scanned"] = round(run["rows_scanned"] / full["rows_scanned"], 4)
    _print(figures)
    name = f"incremental-{options.rows}" + ("-postgres" if postgres else "")
    name += "-tolerance" if options.tolerance else ""
    output = Path(options.output or RESULTS / f"{name}.json")
    output.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nwritten to {output}")


def _pair(name: str, tolerance: bool) -> dict:
    pair = {
        "name": name,
        "source": {"source": ["incremental", f"{name}_source"]},
        "target": {"source": ["incremental_files", f"{name}_target"]},
        "key": "id",
    }
    return {**pair, "tolerance": TOLERANCE} if tolerance else pair


def _write_pairs(
    spark: SparkSession, folder: Path, rows: int, count: int, postgres: bool
) -> list[str]:
    """One table of generated rows written once, copied to both sides of every pair (each source
    into PostgreSQL, with `postgres`), and declared as the benchmark project's sources."""
    shutil.rmtree(folder, ignore_errors=True)
    _rows(spark, 1, rows).repartition(4).write.parquet(str(folder / "base"))
    names = [f"pair_{n:02d}" for n in range(count)]
    files = [f"{name}_target" for name in names]
    sources = [] if postgres else [f"{name}_source" for name in names]
    if postgres:  # a migrated copy that drifted: each pair has differences to drill into
        drifted = spark.read.parquet(str(folder / "base")).selectExpr(*DRIFT)
        drifted.write.parquet(str(folder / "drifted"))
    for table in files + sources:
        shutil.copytree(folder / ("drifted" if postgres else "base"), folder / table)
    declared = [
        {
            "name": "incremental_files",
            "meta": {"parity": {"format": "parquet"}},
            "tables": [{"name": t, "meta": {"parity": {"path": str(folder / t)}}} for t in files],
        }
    ]
    if postgres:
        base = spark.read.parquet(str(folder / "base"))
        for name in names:
            _copy_rows(base, f"{name}_source", create=True)
        connection = {"dialect": "postgres", "connection_env": POSTGRES_URL}
        tables = [{"name": f"{name}_source"} for name in names]
        declared.append(
            {
                "name": "incremental",
                "schema": "public",
                "meta": {"parity": connection},
                "tables": tables,
            }
        )
    else:
        tables = [{"name": t, "meta": {"parity": {"path": str(folder / t)}}} for t in sources]
        declared.append(
            {"name": "incremental", "meta": {"parity": {"format": "parquet"}}, "tables": tables}
        )
    SOURCES.write_text(yaml.safe_dump({"version": 2, "sources": declared}))
    return names


def _copy_rows(rows: DataFrame, table: str, create: bool) -> None:
    """These rows into a PostgreSQL table with COPY, value for value: timestamps as UTC text with
    an explicit offset, amounts as exact decimal text."""
    text = rows.selectExpr(
        "id",
        "customer_id",
        "cast(amount as string)",
        "discount",
        "concat(cast(timestampadd(microsecond, unix_micros(ordered_at),"
        " timestamp_ntz'1970-01-01 00:00:00') as string), '+00')",
        "note",
    )
    with psycopg.connect(os.environ[POSTGRES_URL], autocommit=True) as connection:
        if create:
            connection.execute(f"drop table if exists {table}")
            connection.execute(POSTGRES_TABLE.format(name=table))
        with connection.cursor() as cursor, cursor.copy(f"copy {table} from stdin") as copy:
            for row in text.toLocalIterator():
                copy.write_row(tuple(row))
        connection.execute(f"vacuum analyze {table}")


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
    source = "PostgreSQL" if figures["source_engine"] == "postgres" else "Parquet"
    tolerance = ", a tolerance declared" if figures["tolerance"] else ""
    print(
        f"\n{figures['pairs']} pairs of {figures['rows']:,} rows a side, {source} sources"
        f"{tolerance}, by dbt run"
    )
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
    parser.add_argument("--source-engine", choices=("parquet", "postgres"), default="parquet")
    parser.add_argument("--tolerance", action="store_true", help="a tolerance on two columns")
    return parser.parse_args()


if __name__ == "__main__":
    main()
