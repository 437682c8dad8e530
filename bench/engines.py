"""Benchmark: parity where the tables live in other engines, side by side with what a user runs
there instead, in one run on one machine.

    python -m bench.engines [--rows 1000000] [--scenarios 0 100] [--repeat 2] [--output FILE]

For each scenario a pair is generated afresh (bench/generate.py, `d` planted differences) and
copied, keyed by a primary key, into a throwaway PostgreSQL server on 127.0.0.1 (both tables)
and into a DuckDB file (the source). Then, each the best of --repeat runs:

- Reladiff 0.6's hashdiff over the two PostgreSQL tables, with 1 and 4 threads, run by its own
  command line from its own environment (`.venv-reladiff`, which `make bench` installs: it is
  never a dependency of parity);
- parity's hashdiff of the same two PostgreSQL tables, of the PostgreSQL source against the
  Spark target, and of the DuckDB source against the Spark target (the pair reconciled and its
  result row written, as dbt does);
- parity's re-run of the PostgreSQL pair with nothing changed: no fingerprint is taken of a
  PostgreSQL table, so the first pass reads both sides again, finds the checksums of the last
  result, and keeps it (pipelines/incremental.py);
- parity's re-run of the PostgreSQL pair with one source row changed: the segments that differed
  in the last result and did not change are read back from its differences, not drilled into
  (pipelines/reused_differences.py); only the changed row's segment is;
- DuckDB's own `except all`, both ways, between its table and the target's Parquet files: what
  a DuckDB user runs instead;
- per engine (PostgreSQL, DuckDB, Spark), parity's canonical checksum scan of one table against
  that engine's floor, the lower 60 bits of the MD5 of each row's own text, summed.

Rows moved are those that left each side's engine for the comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import duckdb
import psycopg
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from bench.generate import write_pair
from bench.harness import RESULTS, SCHEMA, bench_session, reconciled, rendered_pairs, timed
from bench.to_postgres import copy_table
from parity.pipelines.incremental import STATE_FIELDS, verdict_text
from parity.pipelines.reused_differences import DIFFERENCES
from parity.results.pair_result import PairResult
from tests.integration.postgres_server import postgres_server

RELADIFF = Path(__file__).resolve().parent.parent / ".venv-reladiff" / "bin" / "reladiff"
COLUMNS = ["customer_id", "status", "amount", "discount", "ordered_at", "note"]
FLOOR = {
    "postgres": "select sum(cast(cast('x' || substring(md5(cast(t as text)), 18, 15) as bit(60))"
    " as bigint)) from {table} as t",
    "duckdb": "select sum(cast('0x' || substring(md5(cast(t as varchar)), 18, 15) as bigint))"
    " from {table} as t",
    "spark": "select sum(cast(conv(substring(md5(to_json(struct(*))), 18, 15), 16, 10)"
    " as decimal(38, 0))) from {table}",
}


def main() -> None:
    options = _options()
    if not RELADIFF.exists():
        raise SystemExit(f"Reladiff is not installed at {RELADIFF}: run `make bench`")
    spark = bench_session("parity-bench-engines")
    figures = {"rows": options.rows, "scenarios": []}
    with postgres_server() as cluster, tempfile.TemporaryDirectory() as folder:
        url = cluster.url
        os.environ["PARITY_BENCH_PG_URL"] = url
        os.environ["PARITY_BENCH_DUCKDB"] = str(Path(folder) / "bench.duckdb")
        for scenario in options.scenarios:
            figures["scenarios"].append(_scenario(spark, options, int(scenario), url))
    spark.stop()
    output = options.output or RESULTS / f"engines-{options.rows}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _scenario(spark: SparkSession, options: argparse.Namespace, differences: int, url: str):
    planted = write_pair(spark, SCHEMA, options.rows, differences, 0, "uniform")
    for name in ("bench_source", "bench_target"):
        copy_table(spark, SCHEMA, url, name)
    duckdb_file = os.environ["PARITY_BENCH_DUCKDB"]
    target_files = spark.table(f"{SCHEMA}.bench_target").inputFiles()
    _to_duckdb(spark, duckdb_file)
    pairs = rendered_pairs(
        spark,
        [
            _pair("postgres_postgres", ["bench_pg", "bench_source"], ["bench_pg", "bench_target"]),
            _pair("postgres_spark", ["bench_pg", "bench_source"], ["bench", "bench_target"]),
            _pair("duckdb_spark", ["bench_duckdb", "bench_source"], ["bench", "bench_target"]),
        ],
    )
    cases: dict[str, dict] = {}

    def measure(name: str, action) -> object:
        best = None
        for _ in range(options.repeat):
            seconds, value = timed(action)
            if best is None or seconds < best[0]:
                best = seconds, value
        cases[name] = {"seconds": round(best[0], 3)}
        return best[1]

    for dialect, side in (
        ("postgres", pairs["postgres_postgres"].source),
        ("duckdb", pairs["duckdb_spark"].source),
        ("spark", pairs["duckdb_spark"].target),
    ):
        floor = FLOOR[dialect].format(table=side.relation_name)
        measure(f"md5 floor, {dialect}", lambda d=dialect, q=floor: _scalar(spark, d, q))
        canonical = f"select count(*), {side.checksum_sql} from ({side.canonical_sql}) as c"
        measure(f"canonical scan, {dialect}", lambda d=dialect, q=canonical: _scalar(spark, d, q))
    for threads in (1, 4):
        found = measure(
            f"reladiff, {threads} thread{'s' * (threads > 1)}", lambda n=threads: _reladiff(url, n)
        )
        cases[f"reladiff, {threads} thread{'s' * (threads > 1)}"]["differences_reported"] = found
    found = measure("duckdb except all, both ways", lambda: _except_all(duckdb_file, target_files))
    cases["duckdb except all, both ways"]["differences_reported"] = found
    for name, title in (
        ("postgres_postgres", "parity, postgres against postgres"),
        ("postgres_spark", "parity, postgres against spark"),
        ("duckdb_spark", "parity, duckdb against spark"),
    ):
        result = measure(title, lambda p=pairs[name]: reconciled(spark, p))
        cases[title].update(
            differing_rows=result.differing_rows,
            source_rows_moved=result.source_rows_moved,
            target_rows_moved=result.target_rows_moved,
            checksum_passes=result.checksum_passes,
        )
        if name == "postgres_postgres":
            again = replace(pairs[name], previous_state=_state_of(result))
            title = "parity, postgres against postgres, re-run unchanged"
            kept = measure(title, lambda p=again: reconciled(spark, p))
            cases[title]["run_mode"] = kept.run_mode
            state = _state_of(result)
            if result.found is not None:  # identical tables keep no differing segment
                state[DIFFERENCES] = _history_of(spark, result)
            again = replace(pairs[name], previous_state=state)
            title = "parity, postgres against postgres, re-run one row changed"
            with _one_row_changed(url, options.rows // 3):
                changed = measure(title, lambda p=again: reconciled(spark, p))
            cases[title].update(
                differing_rows=changed.differing_rows,
                segments_reused=changed.segments_reused,
                source_rows_moved=changed.source_rows_moved,
                target_rows_moved=changed.target_rows_moved,
            )
    _ratios(cases)
    return {
        "planted_differences": planted.count,
        "bisection_threshold": pairs["postgres_postgres"].bisection_threshold,
        "cases": cases,
    }


def _ratios(cases: dict[str, dict]) -> None:
    """Each figure against the baseline a user of that engine would compare it with."""
    baselines = {
        "parity, postgres against postgres": ["reladiff, 1 thread", "reladiff, 4 threads"],
        "parity, postgres against postgres, re-run unchanged": [
            "reladiff, 1 thread",
            "reladiff, 4 threads",
            "parity, postgres against postgres",
        ],
        "parity, postgres against postgres, re-run one row changed": [
            "reladiff, 1 thread",
            "reladiff, 4 threads",
            "parity, postgres against postgres",
        ],
        "parity, postgres against spark": ["reladiff, 1 thread", "reladiff, 4 threads"],
        "parity, duckdb against spark": ["duckdb except all, both ways"],
        "canonical scan, postgres": ["md5 floor, postgres"],
        "canonical scan, duckdb": ["md5 floor, duckdb"],
        "canonical scan, spark": ["md5 floor, spark"],
    }
    for name, against in baselines.items():
        cases[name]["over"] = {
            b: round(cases[name]["seconds"] / cases[b]["seconds"], 2) for b in against
        }


def _state_of(result: PairResult) -> dict:
    """The state a run's result leaves the next run, as parity_plan reads it from the history."""
    fields = ("run_id", "status", *STATE_FIELDS, "state_hash")
    return {**{name: getattr(result, name) for name in fields}, **verdict_text(result)}


def _history_of(spark: SparkSession, result: PairResult) -> str:
    """The result's differences written as parity_run_differences keeps them; the table's name."""
    table = f"{SCHEMA}.bench_run_differences"
    published = result.found.select(
        F.lit(result.run_id).alias("run_id"), F.lit(result.pair_name).alias("pair_name"), "*"
    )
    published.write.mode("overwrite").saveAsTable(table)
    return table


@contextmanager
def _one_row_changed(url: str, row_id: int) -> Iterator[None]:
    """One source row's status changed in PostgreSQL, and put back afterwards."""
    with psycopg.connect(url, autocommit=True) as connection:
        (status,) = connection.execute(
            "select status from bench_source where id = %s", [row_id]
        ).fetchone()
        connection.execute("update bench_source set status = 'bench' where id = %s", [row_id])
        try:
            yield
        finally:
            connection.execute(
                "update bench_source set status = %s where id = %s", [status, row_id]
            )


def _pair(name: str, source: list[str], target: list[str]) -> dict:
    return {
        "name": name,
        "source": {"source": source},
        "target": {"source": target},
        "key": ["id"],
        "algorithm": "hashdiff",
        "columns": COLUMNS,
    }


def _scalar(spark: SparkSession, dialect: str, sql: str) -> object:
    if dialect == "spark":
        return spark.sql(sql).collect()[0]
    if dialect == "postgres":
        with psycopg.connect(os.environ["PARITY_BENCH_PG_URL"]) as connection:
            return connection.execute(sql).fetchone()
    with duckdb.connect(os.environ["PARITY_BENCH_DUCKDB"], read_only=True) as connection:
        return connection.execute(sql).fetchone()


def _reladiff(url: str, threads: int) -> int:
    """Reladiff's hashdiff of the two PostgreSQL tables; the differing rows it printed."""
    command = [str(RELADIFF), url, "bench_source", url, "bench_target", "-k", "id"]
    command += ["--threads", str(threads), "-a", "hashdiff"]
    for column in COLUMNS:
        command += ["-c", column]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return sum(1 for line in done.stdout.splitlines() if line[:1] in "+-")


def _to_duckdb(spark: SparkSession, path: str) -> None:
    """The generated source as a DuckDB table, read from its Parquet files, with its key."""
    files = spark.table(f"{SCHEMA}.bench_source").inputFiles()
    with duckdb.connect(path) as connection:
        connection.execute("drop table if exists bench_source")
        connection.execute(
            "create table bench_source (id bigint primary key, customer_id integer, status varchar,"
            " amount decimal(12, 2), discount double, ordered_at timestamptz, note varchar)"
        )
        connection.execute("set TimeZone = 'UTC'")
        connection.execute("insert into bench_source select * from read_parquet(?)", [files])


def _except_all(path: str, target_files: list[str]) -> int:
    """DuckDB's own diff of its table and the target's Parquet files: the rows of each that the
    other lacks, both ways, collected."""
    with duckdb.connect(path, read_only=True) as connection:
        connection.execute("set TimeZone = 'UTC'")
        target = f"(select * from read_parquet({[str(f) for f in target_files]!r}))"
        found = 0
        for left, right in (("bench_source", target), (target, "bench_source")):
            found += len(
                connection.execute(
                    f"select * from {left} except all select * from {right}"
                ).fetchall()
            )
        return found


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--scenarios", nargs="+", default=["0", "100"], help="planted differences")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each case; the best counts")
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    print(f"\nparity against other engines' tools: {figures['rows']:,} rows")
    for scenario in figures["scenarios"]:
        print(
            f"\n{scenario['planted_differences']:,} planted differences"
            f" (bisection threshold {scenario['bisection_threshold']:,})"
        )
        for name, case in scenario["cases"].items():
            over = ", ".join(f"{r:.2f}x {b}" for b, r in case.get("over", {}).items())
            moved = (
                f"  rows moved {case['source_rows_moved']:,} + {case['target_rows_moved']:,}"
                if "source_rows_moved" in case
                else ""
            )
            found = case.get("differing_rows", case.get("differences_reported"))
            print(
                f"  {name:38s} {case['seconds']:7.2f}s  {over:40s}"
                + (f"  found {found:,}" if found is not None else "")
                + moved
            )
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
