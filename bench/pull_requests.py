"""Benchmark: a pull-request check over many small models. A user's project of N models
(m01, m02, ..., each keyed by `unique_key='id'`), each with a production copy and a dev copy, and
one `dbt build --select package:parity` comparing all of them, beside the plain PySpark join a
user would run for each pair, in the same run:

    python -m bench.pull_requests [--models 50] [--output FILE]

The tables are Parquet tables in the embedded metastore, written directly with Spark (dbt never
builds the models): sizes geometric from 10,000 to 1,000,000 rows, an integer key and four
columns (a decimal, a string, a timestamp, a double); one model in ten differs in dev (rows
deleted, rows changed), the others are faithful copies. Timed, each a process of its own from
its start to its exit:

- the plain script (bench/plain_script.py): one process joining the N pairs one after the other,
  each join's own seconds too;
- dbt's floor: a `dbt build` of one view of the user's (`select 1`), no pair compared: dbt's and
  Spark's start, and what any build of this project costs;
- parity's check of one model (m01, the smallest): the build's fixed cost;
- parity's check of all N models, split node by node (bench/build_split.py).

The one-model check runs first, as a CI job that ran before: the full check finds m01 unchanged
and does not compare it again. Then parity_summary is read: the planted models, and only they,
must not pass, with the plain join's count of differing rows. Figures go to
bench/results/pull-requests-<N>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

from bench.build_split import build_split
from bench.harness import HERE, RESULTS, dbt_environment, run_process

WORK = RESULTS / "work" / "pull-requests"
REPO = HERE.parent
PROD, DEV = "parity_pr_prod", "parity_pr"
DBT = str(Path(sys.executable).parent / "dbt")
FLOOR = "floor_probe"
SMALLEST, LARGEST = 10_000, 1_000_000
COLUMNS = [
    "id",
    "cast(pmod(id * 104729, 10000000) / 100 as decimal(12, 2)) as amount",
    "element_at(array('placed', 'paid', 'shipped'), cast(1 + pmod(id, 3) as int)) as status",
    "timestamp_micros(1704067200000000 + pmod(id * 7907, 31536000) * 1000000) as updated_at",
    "cast(pmod(id * 31, 1000) as double) / 997 as score",
]
# In a planted model's dev copy: about one row in a thousand deleted, as many with a new status.
PLANTED = ("pmod(id, 997) != 0", "case when pmod(id, 991) = 0 then 'refunded' else status end")
PER_MODEL = (
    "rows",
    "planted",
    "plain_join_differing",
    "plain_join_seconds",
    "parity_passed",
    "parity_differing",
    "parity_seconds",
)
# Run in a process of its own: the builds' metastore is free then.
GENERATE = """
import json, sys
from pathlib import Path
from pyspark.sql.functions import expr
from parity.embedded import embedded_session
work, prod, dev = sys.argv[1:4]
models, columns, (kept, changed) = map(json.loads, sys.argv[4:])
spark = embedded_session(Path(work), "parity-pull-requests-generate")
for schema in (prod, dev):
    spark.sql(f"create database if not exists {schema}")
for name, (rows, planted) in models.items():
    table = spark.range(1, rows + 1).selectExpr(*columns)
    table.write.format("parquet").mode("overwrite").saveAsTable(f"{prod}.{name}")
    if planted:
        table = table.where(kept).withColumn("status", expr(changed))
    table.write.format("parquet").mode("overwrite").saveAsTable(f"{dev}.{name}")
"""
SUMMARY = """
import json, sys
from pathlib import Path
from parity.embedded import embedded_session
spark = embedded_session(Path(sys.argv[1]), "parity-pull-requests-summary")
columns = "pair_name, passed, differing_rows, elapsed_seconds"
rows = spark.sql(f"select {columns} from {sys.argv[2]}.parity_summary").collect()
print(json.dumps({r.pair_name: [r.passed, r.differing_rows, r.elapsed_seconds] for r in rows}))
"""


def main() -> None:
    options = _options()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    models = _models(options.models)
    project = _project(models)
    environment = dbt_environment(WORK, DEV)
    python = {**environment, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    _run([DBT, "deps", "--quiet", *project], environment)
    generate = [json.dumps(models), json.dumps(COLUMNS), json.dumps(PLANTED)]
    _run([sys.executable, "-c", GENERATE, str(WORK), PROD, DEV, *generate], python)
    tables = [f"{schema}.{name}" for name in models for schema in (PROD, DEV)]
    started = time.perf_counter()
    joins = _run([sys.executable, str(HERE / "plain_script.py"), "id", *tables], environment)
    plain_seconds = round(time.perf_counter() - started, 2)
    found = [line.split() for line in joins.stdout.splitlines() if " rows differ in " in line]
    plain = {
        name: (int(line[0]), float(line[-2])) for name, line in zip(models, found, strict=True)
    }
    floor = _build(project, ["--select", FLOOR], environment)
    one = _check(project, [next(iter(models))], environment)
    build = _check(project, list(models), environment)
    summary = json.loads(
        _run([sys.executable, "-c", SUMMARY, str(WORK), DEV], python).stdout.splitlines()[-1]
    )
    figures = _figures(models, plain_seconds, plain, one, build, summary)
    figures["dbt_floor_seconds"] = floor["seconds"]
    output = options.output or RESULTS / f"pull-requests-{options.models}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _models(count: int) -> dict[str, tuple[int, bool]]:
    """Each model's rows, geometric from SMALLEST to LARGEST, and whether dev differs: one model
    in ten, spread over the sizes, at least one."""
    planted = max(1, count // 10)
    step = count // planted
    return {
        f"m{i + 1:02d}": (
            round(SMALLEST * (LARGEST / SMALLEST) ** (i / max(1, count - 1))),
            (i + 1) % step == 0 and (i + 1) // step <= planted,
        )
        for i in range(count)
    }


def _project(models: dict[str, tuple[int, bool]]) -> list[str]:
    """A user's project in the work folder, parity installed from this checkout, production
    declared as a schema; its dbt arguments."""
    folder = WORK / "project"
    (folder / "models").mkdir(parents=True)
    settings = {
        "name": "pull_requests",
        "version": "0.1.0",
        "config-version": 2,
        "profile": "parity",
        "flags": {"require_ref_searches_node_package_before_root": True},
        "on-run-end": ["{{ parity.parity_report() }}"],
        "vars": {"parity": {"environments": {"prod": {"schema": PROD}}}},
    }
    (folder / "dbt_project.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    (folder / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    for name in models:
        (folder / "models" / f"{name}.sql").write_text(
            "{{ config(unique_key='id') }}\nselect 1 as id\n"
        )
    (folder / "models" / f"{FLOOR}.sql").write_text(
        "{{ config(materialized='view') }}\nselect 1 as id\n"
    )
    return ["--project-dir", str(folder), "--log-format-file", "json"]


def _check(project: list[str], models: list[str], environment: dict[str, str]) -> dict:
    """parity's check of ``models``, its process timed and split node by node."""
    check = {"parity_ci": {"against": "prod", "models": models}}
    arguments = ["--select", "package:parity", "--vars", json.dumps(check)]
    return _build(project, arguments, environment)


def _build(project: list[str], arguments: list[str], environment: dict[str, str]) -> dict:
    """One `dbt build` with these arguments, its process timed and split node by node."""
    log = WORK / "project" / "logs" / "dbt.log"
    log.unlink(missing_ok=True)  # the timed build's log alone
    started = time.time()
    _run([DBT, "build", *arguments, *project], environment)
    return build_split(WORK / "project", started, time.time())


def _figures(models, plain_seconds, plain, one, build, summary) -> dict:
    """The check against the plain joins, and each model's: its rows, whether it was planted, the
    rows the plain join and parity found differing, and the seconds each spent on it (parity's
    from parity_summary: m01, unchanged since the one-model check, keeps that check's)."""
    joins = round(sum(seconds for _, seconds in plain.values()), 2)
    comparison = build["nodes"]["model parity_pair_results"]
    absent = [None, None, None]
    checked = {
        name: dict(
            zip(PER_MODEL, [rows, planted, *plain[name], *summary.get(name, absent)], strict=True)
        )
        for name, (rows, planted) in models.items()
    }
    return {
        "models": len(models),
        "rows": sum(rows for rows, _ in models.values()),
        "plain_script_seconds": plain_seconds,
        "plain_joins_seconds": joins,
        "dbt_build_one_model": one,
        "dbt_build": build,
        "ratio_to_plain_script": round(build["seconds"] / plain_seconds, 2),
        "ratio_to_joins": round(build["seconds"] / joins, 2),
        "comparison_seconds": comparison,
        # m01's seconds are the one-model check's: the full check did not compare it again.
        "parity_pairs_seconds": round(
            sum(c["parity_seconds"] or 0 for c in list(checked.values())[1:]), 2
        ),
        "rest_of_build_seconds": round(build["seconds"] - comparison, 2),
        "per_pair_overhead_seconds": round((comparison - joins) / len(models), 3),
        "found_exactly_the_planted": all(
            c["parity_passed"] is not c["planted"]
            and c["parity_differing"] == c["plain_join_differing"]
            for c in checked.values()
        ),
        "per_model": checked,
    }


def _run(command: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess:
    return run_process(command, environment, WORK)


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    build, one = figures["dbt_build"], figures["dbt_build_one_model"]
    planted = [n for n, c in figures["per_model"].items() if c["planted"]]
    print(
        f"\nparity, a pull-request check: {figures['models']} models,"
        f" {figures['rows']:,} rows a side, differences planted in {', '.join(planted)};"
        " seconds"
    )
    _row("plain script, whole process (N joins)", figures["plain_script_seconds"])
    _row("  the joins alone, summed", figures["plain_joins_seconds"])
    _row("dbt's floor: a build of one view, no pair", figures["dbt_floor_seconds"])
    _row("dbt build, one model, whole process", one["seconds"])
    _row("dbt build, all models, whole process", build["seconds"])
    _row("  x the plain script", f"{figures['ratio_to_plain_script']:.2f}x")
    _row("  x the joins alone", f"{figures['ratio_to_joins']:.2f}x")
    _row("  parity_pair_results (the comparison)", figures["comparison_seconds"])
    _row("    each pair's own, summed (the first aside)", figures["parity_pairs_seconds"])
    _row("  the rest of the build", figures["rest_of_build_seconds"])
    _row("per-pair overhead: (comparison - joins) / N", figures["per_pair_overhead_seconds"])
    _row("found exactly the planted differences", str(figures["found_exactly_the_planted"]))
    print("\nthe dbt builds, node by node (seconds)")
    _row("", "one model", "all models")
    for name in build["phases"]:
        _row(name, one["phases"][name], build["phases"][name])
        if name == "nodes":
            for node in build["nodes"]:
                _row(f"  {node}", one["nodes"].get(node, "-"), build["nodes"][node])
    _row(
        "parity's models (run_results.json)",
        one["parity_models_seconds"],
        build["parity_models_seconds"],
    )
    _row("of which the reconciliation", one["reconcile_seconds"], build["reconcile_seconds"])
    print(f"  parsing: {one['parsing']} / {build['parsing']}")
    print(f"figures written to {output}")


def _row(label: str, *cells: object) -> None:
    shown = [f"{c:.2f}" if isinstance(c, float) else str(c) for c in cells]
    print(f"  {label:46s}" + "".join(f"{c:>14s}" for c in shown))


if __name__ == "__main__":
    main()
