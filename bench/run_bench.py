"""Benchmark: hashdiff and joindiff against what a user could run instead (a plain scan and the
plain PySpark join of two Spark tables) and against the floor of one checksum scan per side.

    python -m bench.run_bench [--rows 1000000] [--scenarios 0 100 10000 100:10]
                              [--cases ...] [--output FILE] [--key-shapes uniform ...]
                              [--source-engine spark|postgres] [--repeat 2]

Each scenario is a pair generated afresh: `d` planted differences, or `d:k` with k more keys
that the target holds twice (the pair then runs under enforce_key: warn). With --key-shapes,
each scenario runs once per shape of key (bench/generate.py's KEY_SHAPES: uniform, gaps,
compound, prefix, copies), and each case is also given as a ratio to the same case on the
uniform key. The plain join is left out for `copies`: joined on a key held 10,000 times by
each side, it multiplies them.

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

from bench.baselines import plain_join, plain_scan
from bench.generate import KEY_SHAPES, write_pair
from bench.harness import (
    RESULTS,
    SCHEMA,
    PeakMemory,
    bench_session,
    reconciled,
    rendered_pairs,
    timed,
)
from bench.to_postgres import copy_table
from parity.plan import PairPlan
from parity.sides.backoff import Backoff
from parity.sides.spark import SparkSide
from parity.sides.sql import SqlSide
from tests.integration.postgres_server import postgres_server

CASES = ("plain scan", "plain join", "floor", "hashdiff", "joindiff")


def main() -> None:
    options = _options()
    spark = bench_session("parity-bench")
    figures = {"rows": options.rows, "source_engine": options.source_engine, "scenarios": []}
    with ExitStack() as stack:
        if options.source_engine == "postgres":
            os.environ["PARITY_BENCH_PG_URL"] = stack.enter_context(postgres_server()).url
        for shape in options.key_shapes:
            for scenario in options.scenarios:
                figures["scenarios"].append(_scenario(spark, options, scenario, shape))
    _over_uniform(figures["scenarios"])
    spark.stop()
    name = f"bench-{options.rows}" + ("" if options.source_engine == "spark" else "-postgres")
    output = options.output or RESULTS / f"{name}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _scenario(spark: SparkSession, options: argparse.Namespace, scenario: str, shape: str) -> dict:
    differences, _, duplicated = scenario.partition(":")
    started = time.perf_counter()
    planted = write_pair(spark, SCHEMA, options.rows, int(differences), int(duplicated or 0), shape)
    if options.source_engine == "postgres":
        copy_table(spark, SCHEMA, os.environ["PARITY_BENCH_PG_URL"])
    generated = time.perf_counter() - started
    pair = _plan(spark, options.source_engine, bool(planted.duplicated) or shape == "copies", shape)
    cases = [c for c in options.cases if not (c == "plain join" and shape == "copies")]
    figures = {
        "scenario": scenario,
        "key_shape": shape,
        "planted_differences": planted.count,
        "duplicated_keys": planted.duplicated,
        "bisection_factor": pair.bisection_factor,
        "bisection_threshold": pair.bisection_threshold,
        "generate_seconds": round(generated, 3),
        **_measure(spark, pair, options.source_engine, options.repeat, cases),
    }
    if options.source_engine == "postgres" and "hashdiff" in figures["cases"]:
        # What pushdown promises: only the rows of small differing segments leave PostgreSQL.
        figures["rows_out_of_postgres"] = figures["cases"]["hashdiff"]["source_rows_moved"]
        figures["rows_out_of_postgres_bound"] = (
            figures["planted_differences"] * pair.bisection_threshold
        )
    return figures


def _measure(
    spark: SparkSession, pair: PairPlan, source_engine: str, repeat: int, wanted: list[str]
) -> dict:
    """Each case in this run, with the baselines a user could run instead: a plain scan and
    the plain join (two Spark tables only), the floor of one checksum scan per side, and each
    algorithm the pair allows; seconds, rows moved and the driver's peak memory of each."""
    memory = PeakMemory(spark)
    tables = (pair.source.relation_name, pair.target.relation_name)
    keys, columns = list(pair.source.key_names), list(pair.source.column_names)
    cases: dict[str, dict] = {}

    def measure(name: str, action) -> object:
        """The best of ``repeat`` runs (the first warms the JVM and the file cache); the peak
        memory is the last run's."""
        best = None
        for _ in range(repeat):
            memory.reset()
            seconds, value = timed(action)
            if best is None or seconds < best[0]:
                best = seconds, value
        cases[name] = {"seconds": round(best[0], 3), "peak_mib": memory.read()}
        return best[1]

    if source_engine == "spark" and "plain scan" in wanted:
        measure("plain scan", lambda: plain_scan(spark, tables, [*keys, *columns]))
    if source_engine == "spark" and "plain join" in wanted:
        found = measure("plain join", lambda: plain_join(spark, tables, keys, columns))
        cases["plain join"]["differing_rows"] = found
    source = (
        SqlSide(spark, pair.name, pair.source, Backoff(pair.retries, pair.retry_seconds))
        if source_engine == "postgres"
        else SparkSide(spark, pair.name, pair.source)
    )
    if "floor" in wanted:
        with source, SparkSide(spark, pair.name, pair.target) as target:
            measure("floor", lambda: [side.profile() for side in (source, target)])
    algorithms = ("hashdiff",) if source_engine == "postgres" else ("hashdiff", "joindiff")
    for algorithm in [a for a in algorithms if a in wanted]:
        variant = dataclasses.replace(pair, algorithm=algorithm)
        result = measure(algorithm, lambda v=variant: reconciled(spark, v))
        cases[algorithm].update(
            {
                name: getattr(result, name)
                for name in (
                    "differing_rows",
                    "rows_moved",
                    "source_rows_moved",
                    "target_rows_moved",
                    "checksum_passes",
                    "segments_checked",
                )
            }
        )
    for case in cases.values():
        for baseline in ("plain join", "floor", "plain scan"):
            if baseline in cases:
                case[f"over_{baseline.replace(' ', '_')}"] = _ratio(
                    case["seconds"], cases[baseline]["seconds"]
                )
    return {"cases": cases}


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument(
        "--scenarios",
        nargs="+",
        default=["0", "100", "10000", "100:10"],
        help="planted differences per scenario, or d:k with k duplicated keys",
    )
    parser.add_argument(
        "--cases", nargs="+", default=list(CASES), choices=CASES, help="the cases to measure"
    )
    parser.add_argument("--output", type=Path)
    parser.add_argument(
        "--key-shapes", nargs="+", default=["uniform"], choices=list(KEY_SHAPES), help="key shapes"
    )
    parser.add_argument("--source-engine", choices=("spark", "postgres"), default="spark")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each case; the best counts")
    return parser.parse_args()


def _plan(spark: SparkSession, source_engine: str, duplicated: bool, shape: str) -> PairPlan:
    pair = {
        "name": "bench",
        "source": {"source": ["bench", "bench_source"]},
        "target": {"source": ["bench", "bench_target"]},
        "key": KEY_SHAPES[shape][0],
        # auto: joindiff for two Spark tables, whose plan also renders what hashdiff runs.
        "algorithm": "auto",
        "enforce_key": "warn" if duplicated else "error",
    }
    if source_engine == "postgres":
        pair["source"] = {"source": ["bench_pg", "bench_source"]}
        # Spark's floats do not yet compare with others': the double column is left out.
        pair["columns"] = ["customer_id", "status", "amount", "ordered_at", "note"]
    return rendered_pairs(spark, [pair])["bench"]


def _over_uniform(scenarios: list[dict]) -> None:
    """Each case of a skewed key's scenario as a ratio to the same case and scenario on the
    uniform key, where the run measured it."""
    uniform = {s["scenario"]: s["cases"] for s in scenarios if s["key_shape"] == "uniform"}
    for scenario in scenarios:
        baseline = uniform.get(scenario["scenario"])
        if baseline is None or scenario["key_shape"] == "uniform":
            continue
        for name, case in scenario["cases"].items():
            if name in baseline:
                case["over_uniform"] = _ratio(case["seconds"], baseline[name]["seconds"])


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 2) if b else None


def _print(figures: dict, output: Path) -> None:
    baselines = ("plain join", "floor", "plain scan")
    header = [
        "key",
        "differences",
        "case",
        "seconds",
        *[f"x {b}" for b in baselines],
        "found",
        "rows moved",
        "peak MiB (py/jvm)",
        "x uniform",
    ]
    rows = []
    for scenario in figures["scenarios"]:
        planted = f"{scenario['planted_differences']:,}"
        if scenario["duplicated_keys"]:
            planted += f" ({scenario['duplicated_keys']} dup keys)"
        for name, case in scenario["cases"].items():
            ratios = [case.get(f"over_{b.replace(' ', '_')}") for b in baselines]
            peak = case["peak_mib"]
            rows.append(
                [
                    scenario["key_shape"],
                    planted,
                    name,
                    f"{case['seconds']:.2f}",
                    *["" if r is None else f"{r:.2f}" for r in ratios],
                    f"{case['differing_rows']:,}" if "differing_rows" in case else "",
                    f"{case['rows_moved']:,}" if "rows_moved" in case else "",
                    f"{peak['python']}/{peak['jvm']}",
                    "" if "over_uniform" not in case else f"{case['over_uniform']:.2f}",
                ]
            )
        if "rows_out_of_postgres" in scenario:
            rows.append(
                [
                    scenario["key_shape"],
                    planted,
                    "rows out of PostgreSQL",
                    f"{scenario['rows_out_of_postgres']:,} (at most differences x threshold ="
                    f" {scenario['rows_out_of_postgres_bound']:,})",
                    *[""] * (len(header) - 4),
                ]
            )
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]
    print(f"\nparity benchmark: {figures['rows']:,} rows, source in {figures['source_engine']}")
    for row in [header, *rows]:
        print(
            ("  " + "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True))).rstrip()
        )
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
