"""Benchmark: the user's wait. A one-pair project (the benchmark's two Spark tables, `auto`),
built by `dbt build` as a user runs it, a process of its own from start to end, Spark's start
included; and what part of that wait is parity's own work.

    python -m bench.user_wait [--rows 10000 1000000] [--output FILE]

For each size it reports the whole `dbt build`, the time parity's models ran in it (dbt's
run_results.json), the reconciliation among them; and, as the fixed
cost nobody's package can cut, a `dbt show` of `select 1` (dbt and Spark starting, one query).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.harness import HERE, PROJECT, RESULTS, SCHEMA, timed

WORK = RESULTS / "wait-work"
PAIR = {
    "name": "bench",
    "source": {"source": ["bench", "bench_source"]},
    "target": {"source": ["bench", "bench_target"]},
    "key": "id",
}
GENERATE = """
import sys
from pathlib import Path
from bench.generate import write_pair
from bench.harness import SCHEMA
from parity.embedded import embedded_session
spark = embedded_session(Path(sys.argv[2]), "parity-wait-generate")
write_pair(spark, SCHEMA, int(sys.argv[1]), 100)
"""


def main() -> None:
    options = _options()
    environment = {
        **os.environ,
        "PARITY_SCHEMA": SCHEMA,
        "PARITY_WAREHOUSE_DIR": str(WORK / "warehouse"),
        "PARITY_METASTORE_DIR": str(WORK / "metastore_db"),
        "PYTHONPATH": str(HERE.parent),
    }
    dbt = str(Path(sys.executable).parent / "dbt")
    variables = ["--vars", json.dumps({"parity": {"pairs": [PAIR]}})]
    _run([dbt, "deps", "--quiet", *PROJECT], environment)
    fixed, _ = timed(lambda: _run([dbt, "show", "--inline", "select 1", *PROJECT], environment))
    sizes = []
    for rows in options.rows:
        # In a process of its own, as a user's tables are: the build's metastore is then free.
        _run([sys.executable, "-c", GENERATE, str(rows), str(WORK)], environment)
        seconds, _ = timed(lambda: _run([dbt, "build", *PROJECT, *variables], environment))
        sizes.append({"rows": rows, "build_seconds": round(seconds, 2), **_node_seconds()})
    figures = {"fixed_seconds": round(fixed, 2), "sizes": sizes}
    output = options.output or RESULTS / "user-wait.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _node_seconds() -> dict[str, float]:
    """Seconds the build's nodes ran, from the run_results.json it wrote: parity's models (the
    benchmark project has none of its own), and the reconciliation alone."""
    results = json.loads((HERE / "project" / "target" / "run_results.json").read_text())["results"]
    times = {r["unique_id"]: r["execution_time"] for r in results}
    return {
        "parity_seconds": round(sum(t for node, t in times.items() if ".parity." in node), 2),
        "reconcile_seconds": round(
            sum(t for node, t in times.items() if node.endswith(".parity_pair_results")), 2
        ),
    }


def _run(command: list[str], environment: dict[str, str]) -> None:
    done = subprocess.run(command, env=environment, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:3])} failed:\n{done.stdout[-3000:]}{done.stderr}")


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    print(f"\nparity, the user's wait (dbt show of select 1: {figures['fixed_seconds']:.2f} s)")
    print("  rows       dbt build  parity  of which reconcile  beyond select 1")
    for size in figures["sizes"]:
        print(
            f"  {size['rows']:<9,}  {size['build_seconds']:>8.2f}"
            f"  {size['parity_seconds']:>6.2f}  {size['reconcile_seconds']:>18.2f}"
            f"  {size['build_seconds'] - figures['fixed_seconds']:>15.2f}"
        )
    print(f"figures written to {output}")


if __name__ == "__main__":
    main()
