"""Benchmark: hashdiff and joindiff against the floor of one checksum scan per side.

    python -m bench.run_bench [--rows 1000000] [--differences 100] [--output FILE]

All figures come from one run on one machine, so the ratios between them are what to compare
across machines; the absolute seconds are only this run's.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from pathlib import Path

from pyspark.sql import SparkSession

from bench.generate import write_pair
from parity.embedded import embedded_session
from parity.plan import pairs_from_rows
from parity.reconcile import reconcile_pair
from parity.results import RESULT_SCHEMA
from parity.spark_side import SparkSide

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SCHEMA = "parity_bench"


def main() -> None:
    options = _options()
    os.environ["PARITY_SCHEMA"] = SCHEMA
    spark = embedded_session(
        HERE / "results" / "work", "parity-bench", **{"spark.sql.shuffle.partitions": "8"}
    )
    started = time.perf_counter()
    planted = write_pair(spark, SCHEMA, options.rows, options.differences)
    generated = time.perf_counter() - started
    pair = _plan(spark)

    floor = _timed(
        lambda: [SparkSide(spark, pair.name, s).profile() for s in (pair.source, pair.target)]
    )
    runs = {}
    for algorithm in ("hashdiff", "joindiff"):
        variant = dataclasses.replace(pair, config={**pair.config, "algorithm": algorithm})
        seconds, row = _timed(lambda v=variant: reconcile_pair(spark, v))
        result = dict(zip(RESULT_SCHEMA.names, row, strict=True))
        runs[algorithm] = {
            "seconds": round(seconds, 3),
            "differing_rows": result["differing_rows"],
            "rows_moved": result["rows_moved"],
            "checksum_passes": result["checksum_passes"],
            "segments_checked": result["segments_checked"],
        }
    floor_seconds = round(floor[0], 3)
    figures = {
        "rows": options.rows,
        "planted_differences": sum(map(len, planted.values())),
        "bisection_factor": pair.bisection_factor,
        "bisection_threshold": pair.bisection_threshold,
        "generate_seconds": round(generated, 3),
        "floor_checksum_scan_seconds": floor_seconds,
        **{name: figures for name, figures in runs.items()},
        "ratios": {
            "hashdiff_over_floor": _ratio(runs["hashdiff"]["seconds"], floor_seconds),
            "joindiff_over_floor": _ratio(runs["joindiff"]["seconds"], floor_seconds),
            "hashdiff_over_joindiff": _ratio(
                runs["hashdiff"]["seconds"], runs["joindiff"]["seconds"]
            ),
        },
    }
    spark.stop()
    output = options.output or HERE / "results" / f"bench-{options.rows}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--differences", type=int, default=100)
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _plan(spark: SparkSession):
    """Renders the pair's plan with dbt, in this process, so the benchmark runs the real SQL."""
    from dbt.cli.main import dbtRunner

    project = ["--project-dir", str(HERE / "project"), "--profiles-dir", str(REPO / "profiles")]
    for command in (["deps", "--quiet"], ["run", "--quiet", "--select", "parity_plan"]):
        result = dbtRunner().invoke([*command, *project])
        if not result.success:
            raise SystemExit(
                f"dbt {command[0]} failed for the benchmark project: {result.exception}"
            )
    (pair,) = pairs_from_rows([r.asDict() for r in spark.table(f"{SCHEMA}.parity_plan").collect()])
    return pair


def _timed(action):
    started = time.perf_counter()
    value = action()
    return time.perf_counter() - started, value


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 2) if b else None


def _print(figures: dict, output: Path) -> None:
    print(
        f"\nparity benchmark: {figures['rows']:,} rows, "
        f"{figures['planted_differences']} planted differences"
    )
    print(f"  floor (one checksum scan per side): {figures['floor_checksum_scan_seconds']:>8.2f} s")
    for name in ("hashdiff", "joindiff"):
        run = figures[name]
        print(
            f"  {name:<34}: {run['seconds']:>8.2f} s  differing rows {run['differing_rows']}, "
            f"rows moved {run['rows_moved']:,}, passes {run['checksum_passes']}, "
            f"segments {run['segments_checked']:,}"
        )
    for name, value in figures["ratios"].items():
        print(f"  {name:<34}: {value}")
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
