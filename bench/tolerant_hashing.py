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
runs with them. Each reports the rows moved out of the engines (as a share of the table), the
differences found beyond tolerance, and the values within tolerance seen and listed (the
pairs' default `within_tolerance_examples`: 10 per column), beside the floor of one checksum
scan per side; and how long writing its results took (to Spark's no-op sink, as dbt's table
would be written). Then dbt itself runs the jittered pair, from its plan to its publication
(`parity_incremental: false`: compared in full), and each model's seconds are reported: the
reconciliation writing parity_pair_results, the history copying its differences, the audit.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from pyspark.sql import SparkSession

from bench.harness import PROJECT, RESULTS, SCHEMA, bench_session, rendered_pairs, timed
from parity.reconcile import reconcile_pair
from parity.results.pair_result import PairResult, results_frame
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
    declared = {name: _declared(name, *run) for name, run in RUNS.items()}
    pairs = rendered_pairs(spark, list(declared.values()))
    first = pairs["rounded_on_grid"]
    sides = [SparkSide(spark, first.name, plan) for plan in (first.source, first.target)]
    floor, _ = timed(lambda: [side.profile() for side in sides])
    figures = {"rows": options.rows, "floor_checksum_scan_seconds": round(floor, 3)}
    for name in RUNS:
        # As harness.reconciled, its two steps timed apart: the pair reconciled, then its row
        # of results and its differences written (to Spark's no-op sink), as dbt writes
        # parity_pair_results.
        # Compared in full whatever an earlier benchmark published: no last result kept.
        pair = dataclasses.replace(pairs[name], previous_state={"missing": "a benchmark run"})
        found, outcome = timed(lambda p=pair: reconcile_pair(spark, p))
        written, _ = timed(lambda o=outcome: _write(spark, o))
        seconds = found + written
        result = {f.name: getattr(outcome, f.name) for f in dataclasses.fields(outcome)}
        figures[name] = {
            "seconds": round(seconds, 3),
            "over_floor": round(seconds / floor, 2),
            "writing_seconds": round(written, 3),
            "rows_moved": result["rows_moved"],
            "rows_moved_pct_of_table": round(100 * result["rows_moved"] / options.rows, 3),
            "beyond_tolerance_rows": result["value_mismatch_rows"],
            "within_tolerance_rows_seen": result["within_tolerance_rows"],
            "within_tolerance_values_seen": result["within_tolerance_values"],
            "within_tolerance_values_listed": sum(
                c.within_tolerance_listed for c in outcome.column_examples
            ),
            "checksum_passes": result["checksum_passes"],
            "segments_checked": result["segments_checked"],
        }
    by_dbt = {**declared["jitter_on_grid"], "name": "jitter_on_grid_by_dbt"}
    figures["dbt_jitter_on_grid_model_seconds"] = _published_by_dbt(by_dbt)
    spark.stop()
    output = options.output or RESULTS / f"tolerance-{options.rows}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _declared(name: str, drift: str, options: dict) -> dict:
    """A run's pair, as a user declares it in `vars`."""
    return {
        "name": name,
        "source": {"source": ["bench", "tolerance_source"]},
        "target": {"source": ["bench", f"tolerance_{drift}"]},
        "key": "id",
        "algorithm": "hashdiff",
        "tolerance": TOLERANCE,
        **options,
    }


def _published_by_dbt(pair: dict) -> dict[str, float]:
    """The pair planned, reconciled and published by `dbt run` in the benchmark project: each
    model's seconds (dbt's execution_time), for those that take more than a tenth of one, and
    the wait from the reconciliation's end to the run's (`after_reconciliation`: the history,
    the audit, the views and the run's end hooks; dbt runs some of them at once)."""
    from dbt.cli.main import dbtRunner

    variables = {"parity": {"pairs": [pair]}, "parity_incremental": False}
    models = "parity_remote_relations parity_remote_columns parity_plan+"
    command = ["run", "--quiet", "--select", models, *PROJECT, "--vars", json.dumps(variables)]
    result = dbtRunner().invoke(command)
    if not result.success:
        raise SystemExit(f"dbt run failed for the benchmark project: {result.exception}")
    results = result.result.results
    seconds = {r.node.name: round(r.execution_time, 3) for r in results}
    ended = {r.node.name: max(t.completed_at for t in r.timing) for r in results if r.timing}
    after = max(ended.values()) - ended["parity_pair_results"]
    return {
        **{name: s for name, s in seconds.items() if s >= 0.1},
        "after_reconciliation": round(after.total_seconds(), 3),
    }


def _write(spark: SparkSession, result: PairResult) -> None:
    results_frame(spark, [result]).write.format("noop").mode("overwrite").save()


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
            f"  {name:<24}: {run['seconds']:>8.2f} s ({run['over_floor']}x floor; writing"
            f" {run['writing_seconds']:.2f} s), rows moved "
            f"{run['rows_moved']:,} ({run['rows_moved_pct_of_table']}% of the table), "
            f"beyond tolerance {run['beyond_tolerance_rows']}, within tolerance seen "
            f"{run['within_tolerance_rows_seen']:,} rows"
            f" ({run['within_tolerance_values_seen']:,} values,"
            f" {run['within_tolerance_values_listed']:,} listed), passes {run['checksum_passes']}"
        )
    dbt = figures["dbt_jitter_on_grid_model_seconds"]
    print("  dbt run of jitter_on_grid, seconds by model:")
    for model, seconds in dbt.items():
        print(f"    {model:<28}: {seconds:>8.2f} s")
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
