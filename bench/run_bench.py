"""Benchmark: hashdiff and joindiff against the floor of one checksum scan per side.

    python -m bench.run_bench [--rows 1000000] [--differences 100] [--output FILE]
                              [--source-engine spark|postgres]

With --source-engine postgres the source table is copied into a throwaway PostgreSQL server
on 127.0.0.1 and reconciled against the Spark target by hashdiff, checksums running inside
PostgreSQL (the double column is left out: Spark's floats do not yet compare with others').
Rows moved are reported per side; the rows that left PostgreSQL are shown beside their bound,
planted differences times the bisection threshold.

All figures come from one run on one machine, so the ratios between them are what to compare
across machines; the absolute seconds are only this run's.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from contextlib import ExitStack
from pathlib import Path

from pyspark.sql import SparkSession

from bench.generate import write_pair
from bench.harness import RESULTS, SCHEMA, bench_session, rendered_pairs, timed
from bench.to_postgres import copy_source
from parity.plan import PairPlan
from parity.reconcile import reconcile_pair
from parity.sides.spark import SparkSide
from parity.sides.sql import SqlSide
from tests.integration.postgres_server import postgres_server


def main() -> None:
    options = _options()
    spark = bench_session("parity-bench")
    started = time.perf_counter()
    planted = write_pair(spark, SCHEMA, options.rows, options.differences)
    with ExitStack() as stack:
        if options.source_engine == "postgres":
            os.environ["PARITY_BENCH_PG_URL"] = stack.enter_context(postgres_server())
            copy_source(spark, SCHEMA, os.environ["PARITY_BENCH_PG_URL"])
        generated = time.perf_counter() - started
        pair = _plan(spark, options.source_engine)
        figures = {
            "rows": options.rows,
            "source_engine": options.source_engine,
            "planted_differences": sum(map(len, planted.values())),
            "bisection_factor": pair.bisection_factor,
            "bisection_threshold": pair.bisection_threshold,
            "generate_seconds": round(generated, 3),
            **_measure(spark, pair, options.source_engine),
        }
        if options.source_engine == "postgres":
            # What pushdown promises: only the rows of small differing segments leave PostgreSQL.
            figures["rows_out_of_postgres"] = figures["hashdiff"]["source_rows_moved"]
            figures["rows_out_of_postgres_bound"] = (
                figures["planted_differences"] * pair.bisection_threshold
            )
    spark.stop()
    name = f"bench-{options.rows}" + ("" if options.source_engine == "spark" else "-postgres")
    output = options.output or RESULTS / f"{name}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _measure(spark: SparkSession, pair: PairPlan, source_engine: str) -> dict:
    """The floor, then each algorithm the pair allows, and their ratios; all in this run."""
    source = (
        SqlSide(pair.name, pair.source)
        if source_engine == "postgres"
        else SparkSide(spark, pair.name, pair.source)
    )
    with source, SparkSide(spark, pair.name, pair.target) as target:
        floor_seconds = round(timed(lambda: [side.profile() for side in (source, target)])[0], 3)
    runs = {}
    for algorithm in ("hashdiff",) if source_engine == "postgres" else ("hashdiff", "joindiff"):
        variant = dataclasses.replace(pair, algorithm=algorithm)
        seconds, outcome = timed(lambda v=variant: reconcile_pair(spark, v))
        result = dataclasses.asdict(outcome)
        runs[algorithm] = {
            "seconds": round(seconds, 3),
            "differing_rows": result["differing_rows"],
            "rows_moved": result["rows_moved"],
            "source_rows_moved": result["source_rows_moved"],
            "target_rows_moved": result["target_rows_moved"],
            "checksum_passes": result["checksum_passes"],
            "segments_checked": result["segments_checked"],
        }
    ratios = {
        f"{name}_over_floor": _ratio(run["seconds"], floor_seconds) for name, run in runs.items()
    }
    if len(runs) == 2:
        ratios["hashdiff_over_joindiff"] = _ratio(
            runs["hashdiff"]["seconds"], runs["joindiff"]["seconds"]
        )
    return {"floor_checksum_scan_seconds": floor_seconds, **runs, "ratios": ratios}


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--differences", type=int, default=100)
    parser.add_argument("--output", type=Path)
    parser.add_argument("--source-engine", choices=("spark", "postgres"), default="spark")
    return parser.parse_args()


def _plan(spark: SparkSession, source_engine: str) -> PairPlan:
    pair = {
        "name": "bench",
        "source": {"source": ["bench", "bench_source"]},
        "target": {"source": ["bench", "bench_target"]},
        "key": "id",
        "algorithm": "hashdiff",
    }
    if source_engine == "postgres":
        pair["source"] = {"source": ["bench_pg", "bench_source"]}
        # Spark's floats do not yet compare with others': the double column is left out.
        pair["columns"] = ["customer_id", "status", "amount", "ordered_at", "note"]
    return rendered_pairs(spark, [pair])["bench"]


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 2) if b else None


def _print(figures: dict, output: Path) -> None:
    print(
        f"\nparity benchmark: {figures['rows']:,} rows, "
        f"{figures['planted_differences']} planted differences"
    )
    print(f"  source engine: {figures['source_engine']}")
    print(f"  floor (one checksum scan per side): {figures['floor_checksum_scan_seconds']:>8.2f} s")
    for name in ("hashdiff", "joindiff"):
        if name not in figures:
            continue
        run = figures[name]
        print(
            f"  {name:<34}: {run['seconds']:>8.2f} s  differing rows {run['differing_rows']}, "
            f"rows moved {run['rows_moved']:,} (out of source {run['source_rows_moved']:,}, "
            f"out of target {run['target_rows_moved']:,}), passes {run['checksum_passes']}, "
            f"segments {run['segments_checked']:,}"
        )
    if "rows_out_of_postgres" in figures:
        print(
            f"  {'rows out of PostgreSQL':<34}: {figures['rows_out_of_postgres']:>8,}  "
            f"(at most differences x threshold = {figures['rows_out_of_postgres_bound']:,})"
        )
    for name, value in figures["ratios"].items():
        print(f"  {name:<34}: {value}")
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
