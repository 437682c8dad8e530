"""Benchmark: the user's wait. The whole `dbt build` of a user's one-pair project, a process of
its own from start to exit, beside the whole process of the tool that user would run instead,
on the same tables in the same run:

    python -m bench.user_wait [--rows 600000] [--key-shape lineitem] [--differences 500]
                              [--engines spark postgres] [--output FILE]

- Spark against Spark (bench/user_project/spark): the plain PySpark script
  (bench/plain_script.py: Python's start, the session the embedded profile configures, both
  tables read, a null-safe full outer join on the key, the differing rows collected);
- PostgreSQL against PostgreSQL (bench/user_project/postgres, both tables in a throwaway server
  on 127.0.0.1): Reladiff 0.6's hashdiff, its whole command line process (`.venv-reladiff`,
  which `make bench` installs).

Each project is a user's: its pair in dbt_project.yml's vars, the tables as sources, the
README's tests for a pair, parity's report on-run-end. The timed build is a re-run: a first
build (not timed) compares a faithful copy and leaves dbt's partial parsing file and parity's
history; then the copy drifts (--differences planted: a quarter deleted, a quarter added, half
changed) and the timed build compares it. The plain script and Reladiff run on the drifted
tables too.

Each build is split node by node (bench/build_split.py): the process's start to dbt's first
log line, parsing (and whether it was partial), Spark's start, the relation cache, each model
and test, the on-run-end report, the process's exit. Beside them, as the fixed cost no package
can cut, a `dbt show` of `select 1` in the Spark project (dbt and Spark starting, one query).
`--engines spark` leaves PostgreSQL out: at 10M rows, copying the tables into it row by row
takes longer than everything else. Figures go to bench/results/user-wait-<rows>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from contextlib import nullcontext
from pathlib import Path

import psycopg
import yaml

from bench.build_split import build_split
from bench.generate import KEY_SHAPES
from bench.harness import HERE, RESULTS, run_process
from tests.integration.postgres_server import postgres_server

WORK = RESULTS / "wait-work"
REPO = HERE.parent
DATA_SCHEMA = "lake"
RELADIFF = REPO / ".venv-reladiff" / "bin" / "reladiff"
DBT = str(Path(sys.executable).parent / "dbt")
# Per engine: the tool a user would run instead, as the figures name it and as printed.
PEERS = {
    "spark": ("plain_script", "Spark <-> Spark: the plain PySpark script"),
    "postgres": ("reladiff", "PostgreSQL <-> PostgreSQL: Reladiff 0.6"),
}
PAIR_NAMES = {"spark": "Spark <-> Spark", "postgres": "PostgreSQL <-> PostgreSQL"}
# Run in a process of its own, as a user's tables are written: the builds' metastore is free then.
GENERATE = """
import sys
from pathlib import Path
from bench.generate import KEY_SHAPES, write_pair
from bench.to_postgres import copy_table
from parity.embedded import embedded_session
rows, differences, shape, work, schema, url = sys.argv[1:]
spark = embedded_session(Path(work), "parity-wait-generate")
write_pair(spark, schema, int(rows), int(differences), 0, shape)
for name in ("bench_source", "bench_target") if url else ():
    copy_table(spark, schema, url, name, tuple(KEY_SHAPES[shape][0]))
"""


def main() -> None:
    options = _options()
    if "postgres" in options.engines and not RELADIFF.exists():
        raise SystemExit(f"Reladiff is not installed at {RELADIFF}: run `make bench`")
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    keys = KEY_SHAPES[options.key_shape][0]
    projects = {engine: _project(engine, keys) for engine in options.engines}
    with postgres_server() if "postgres" in projects else nullcontext() as cluster:
        url = cluster.url if cluster else ""
        environment = {
            **os.environ,
            "PARITY_WAREHOUSE_DIR": str(WORK / "warehouse"),
            "PARITY_METASTORE_DIR": str(WORK / "metastore_db"),
            "PARITY_WAIT_DATA_SCHEMA": DATA_SCHEMA,
            "PARITY_WAIT_PG_URL": url,
            "DBT_PROFILES_DIR": str(REPO / "profiles"),
            "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        }
        generate = [sys.executable, "-c", GENERATE, str(options.rows)]
        generate_tail = [options.key_shape, str(WORK), DATA_SCHEMA, url]
        _run([*generate, "0", *generate_tail], {**environment, "PYTHONPATH": str(REPO)})
        for engine, project in projects.items():
            _run([DBT, "deps", "--quiet", *project], _env(environment, engine))
        for engine, project in projects.items():  # the first build: a faithful copy
            _run([DBT, "build", *project], _env(environment, engine))
        fixed = _whole(
            [DBT, "show", "--inline", "select 1", *next(iter(projects.values()))],
            _env(environment, next(iter(projects))),
        )
        _run(
            [*generate, str(options.differences), *generate_tail],
            {**environment, "PYTHONPATH": str(REPO)},
        )
        table = f"{DATA_SCHEMA}.bench_source", f"{DATA_SCHEMA}.bench_target"
        peers = {
            "spark": lambda: _whole(
                [sys.executable, str(HERE / "plain_script.py"), ",".join(keys), *table],
                environment,
            ),
            "postgres": lambda: _whole(_reladiff_command(url, keys), environment),
        }
        peer = {engine: peers[engine]() for engine in projects}
        builds = {}
        for engine, project in projects.items():
            (WORK / engine / "logs" / "dbt.log").unlink()  # the timed build's log alone
            started = time.time()
            _run([DBT, "build", *project], _env(environment, engine))
            builds[engine] = build_split(WORK / engine, started, time.time())
    figures = {
        "rows": options.rows,
        "key_shape": options.key_shape,
        "differences": options.differences,
        "select_1_seconds": fixed["seconds"],
    }
    for engine, build in builds.items():
        ratio = round(build["seconds"] / peer[engine]["seconds"], 2)
        figures[engine] = {PEERS[engine][0]: peer[engine], "dbt_build": build, "ratio": ratio}
    output = options.output or RESULTS / f"user-wait-{options.rows}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


def _project(engine: str, keys: list[str]) -> list[str]:
    """A copy of the user's project in the work folder, parity installed from this checkout and
    the pair keyed by the generated shape's key; its dbt arguments."""
    folder = WORK / engine
    shutil.copytree(HERE / "user_project" / engine, folder)
    (folder / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    settings = yaml.safe_load((folder / "dbt_project.yml").read_text())
    settings["vars"]["parity"]["pairs"][0]["key"] = keys
    (folder / "dbt_project.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    return ["--project-dir", str(folder), "--log-format-file", "json"]


def _env(environment: dict[str, str], engine: str) -> dict[str, str]:
    """Each project's results in a schema of their own: their histories do not mix."""
    return {**environment, "PARITY_SCHEMA": f"parity_{engine}"}


def _reladiff_command(url: str, keys: list[str]) -> list[str]:
    """Reladiff's hashdiff of the two PostgreSQL tables, every column compared."""
    with psycopg.connect(url) as connection:
        columns = connection.execute(
            "select column_name from information_schema.columns"
            " where table_name = 'bench_source' order by ordinal_position"
        ).fetchall()
    command = [str(RELADIFF), url, "bench_source", url, "bench_target", "-a", "hashdiff"]
    for key in keys:
        command += ["-k", key]
    for (column,) in columns:
        command += [] if column in keys else ["-c", column]
    return command


def _whole(command: list[str], environment: dict[str, str]) -> dict:
    """A process timed from its start to its exit, and the differing rows it reported: the
    plain script's count, or Reladiff's lines, one per row missing on one side (a changed row
    is one line on each side)."""
    started = time.perf_counter()
    printed = _run(command, environment).stdout.splitlines()
    seconds = round(time.perf_counter() - started, 2)
    if command[0] == str(RELADIFF):
        return {"seconds": seconds, "found": f"{sum(line[:1] in '+-' for line in printed)} lines"}
    return {"seconds": seconds, "found": printed[-1] if printed else ""}


def _run(command: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess:
    return run_process(command, environment, WORK)


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=600_000)
    parser.add_argument("--key-shape", default="lineitem", choices=list(KEY_SHAPES))
    parser.add_argument("--differences", type=int, default=500, help="planted in the re-run")
    parser.add_argument("--engines", nargs="+", default=list(PEERS), choices=list(PEERS))
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    keys = ", ".join(KEY_SHAPES[figures["key_shape"]][0])
    engines = [engine for engine in PEERS if engine in figures]
    print(
        f"\nparity, the user's wait: {figures['rows']:,} rows, key {figures['key_shape']}"
        f" ({keys}), {figures['differences']:,} differences planted; whole processes, seconds"
    )
    for engine in engines:
        key, label = PEERS[engine]
        side = figures[engine]
        _row(label, side[key]["seconds"], side[key]["found"])
        _row("  dbt build", side["dbt_build"]["seconds"], f"{side['ratio']:.2f}x")
    _row("dbt show of select 1 (dbt, Spark, one query)", figures["select_1_seconds"])
    builds = [figures[engine]["dbt_build"] for engine in engines]
    print("\nthe timed dbt build, node by node (seconds)")
    _row("", *(PAIR_NAMES[engine] for engine in engines))
    for name in dict.fromkeys(name for build in builds for name in build["phases"]):
        _row(name, *(b["phases"].get(name, "-") for b in builds))
        if name == "nodes":
            for node in dict.fromkeys(node for build in builds for node in build["nodes"]):
                _row(f"  {node}", *(b["nodes"].get(node, "-") for b in builds))
    _row("whole build", *(b["seconds"] for b in builds))
    _row("parity's models (run_results.json)", *(b["parity_models_seconds"] for b in builds))
    _row("of which the reconciliation", *(b["reconcile_seconds"] for b in builds))
    for engine, build in zip(engines, builds, strict=True):
        print(f"  parsing, {PAIR_NAMES[engine]}: {build['parsing']}")
    print(f"figures written to {output}")


def _row(label: str, *cells: object) -> None:
    shown = [f"{c:.2f}" if isinstance(c, float) else str(c) for c in cells]
    print(f"  {label:46s}" + "".join(f"{c:>27s}" for c in shown))


if __name__ == "__main__":
    main()
