"""Benchmark: hashdiff over a pair whose every value drifts within its tolerance, with segment
checksums on the tolerance grid and without.

    python -m bench.tolerant_hashing [--rows 1000000] [--output FILE]

Every double of the target is its source's times (1 + 1e-12), every timestamp moved by up to
0.5 ms, with tolerances rel_tol 1e-9 and temporal_tolerance_ms 1. Two timestamp drifts:

- rounded: a loader rounded the timestamps to milliseconds (half up), so each moved by up to
  0.5 ms and lands where the grid (cells of 1 ms centred on whole milliseconds) puts its source;
- jitter: each timestamp moved by a pseudo-random -500..500 µs. No checksum that never hides a
  change beyond the tolerance can keep these alike (docs/design-notes.md): a cell of at most
  1 ms is straddled by about a quarter of them, and nearly every segment differs.

The rounded drift runs twice, with tolerant checksums (the default) and without; the jitter
runs with them. Each reports the rows moved out of the engines (as a share of the table) and
the differences found beyond tolerance, beside the floor of one checksum scan per side.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from pyspark.sql import SparkSession

from bench.harness import RESULTS, SCHEMA, bench_session, reconciled, rendered_pairs, timed
from parity.sides.spark import SparkSide

# Readings with every bit of their mantissa in use, as measurements have (a quotient such as
# k / 7 repeats a bit pattern that never lands near a cell boundary).
SOURCE = """
    id,
    sqrt(id) * 1000 + sin(id) as reading,
    timestamp_micros(1700000000000000 + id * 1000003 + pmod(id * 7907, 999983)) as measured_at,
    concat('site-', pmod(id, 97)) as site,
    cast(pmod(id * 31, 1000) as int) as quantity
"""
DRIFTS = {
    "rounded": "timestamp_micros((unix_micros(measured_at) + 500) div 1000 * 1000)",
    "jitter": "timestamp_micros(unix_micros(measured_at) + pmod(xxhash64(id), 1001) - 500)",
}
TOLERANCE = {
    "defaults": {"numeric": {"rel_tol": "1e-9"}, "timestamp": {"temporal_tolerance_ms": 1}}
}
# Every run keeps the default bisection settings: the cost model decides how far to refine.
RUNS = {
    "rounded_on_grid": ("rounded", {}),
    "rounded_exact_checksums": ("rounded", {"tolerant_checksums": False}),
    "jitter_on_grid": ("jitter", {}),
}


def main() -> None:
    options = _options()
    # Without tolerant checksums every row leaves the engine: 2,000,000 at the default.
    spark = bench_session("parity-bench-tolerance", **{"spark.driver.memory": "6g"})
    _write_tables(spark, options.rows)
    pairs = rendered_pairs(
        spark,
        [
            {
                "name": name,
                "source": {"source": ["bench", "tolerance_source"]},
                "target": {"source": ["bench", f"tolerance_{drift}"]},
                "key": "id",
                "algorithm": "hashdiff",
                "tolerance": TOLERANCE,
                **options_of_run,
            }
            for name, (drift, options_of_run) in RUNS.items()
        ],
    )
    first = pairs["rounded_on_grid"]
    sides = [SparkSide(spark, first.name, plan) for plan in (first.source, first.target)]
    floor, _ = timed(lambda: [side.profile() for side in sides])
    figures = {"rows": options.rows, "floor_checksum_scan_seconds": round(floor, 3)}
    for name in RUNS:
        seconds, outcome = timed(lambda n=name: reconciled(spark, pairs[n]))
        result = {f.name: getattr(outcome, f.name) for f in dataclasses.fields(outcome)}
        figures[name] = {
            "seconds": round(seconds, 3),
            "over_floor": round(seconds / floor, 2),
            "rows_moved": result["rows_moved"],
            "rows_moved_pct_of_table": round(100 * result["rows_moved"] / options.rows, 3),
            "beyond_tolerance_rows": result["value_mismatch_rows"],
            "within_tolerance_rows_seen": result["within_tolerance_rows"],
            "checksum_passes": result["checksum_passes"],
            "segments_checked": result["segments_checked"],
        }
    spark.stop()
    output = options.output or RESULTS / f"tolerance-{options.rows}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _write_tables(spark: SparkSession, rows: int) -> None:
    if not spark.catalog.databaseExists(SCHEMA):  # Hive logs an error for "if not exists"
        spark.sql(f"create database {SCHEMA}")
    source = spark.range(1, rows + 1).selectExpr(
        *[" ".join(c.split()) for c in SOURCE.split(",\n")]
    )
    source.write.mode("overwrite").format("parquet").saveAsTable(f"{SCHEMA}.tolerance_source")
    for drift, timestamp in DRIFTS.items():
        drifted = spark.table(f"{SCHEMA}.tolerance_source").selectExpr(
            "id",
            "reading * (1 + 1e-12) as reading",
            f"{timestamp} as measured_at",
            "site",
            "quantity",
        )
        drifted.write.mode("overwrite").format("parquet").saveAsTable(f"{SCHEMA}.tolerance_{drift}")


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    print(f"\nparity tolerance benchmark: {figures['rows']:,} rows, every value drifting")
    print(f"  floor (one checksum scan per side): {figures['floor_checksum_scan_seconds']:>8.2f} s")
    for name in RUNS:
        run = figures[name]
        print(
            f"  {name:<24}: {run['seconds']:>8.2f} s ({run['over_floor']}x floor), rows moved "
            f"{run['rows_moved']:,} ({run['rows_moved_pct_of_table']}% of the table), "
            f"beyond tolerance {run['beyond_tolerance_rows']}, within tolerance seen "
            f"{run['within_tolerance_rows_seen']:,}, passes {run['checksum_passes']}"
        )
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
