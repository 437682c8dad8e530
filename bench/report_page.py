"""Benchmark: the report page of a large run. A user's project reconciles 200 pairs in one
`dbt run` with the var `parity_html_report`, together about a million differences: a few large
pairs differing on every row (250,000 rows each by default), half the others differing on a few
rows of 1,000, the rest identical. Then:

    python -m bench.report_page [--pairs 200] [--large 4] [--large-rows 250000] [--output FILE]

- the page the run's on-run-end hook wrote: its size;
- `dbt run-operation parity_html_report`, which writes it again from the published views: the
  whole process, timed;
- the page opened in headless Chromium (tests/integration/headless_chromium.py) three times: each
  load's time from the navigation's start to the load event, the time a sort by rows differing
  takes in the page, and a screenshot, bench/results/report-page-<pairs>.png.

The tables are Parquet tables in the embedded metastore, written directly with Spark. Figures go
to bench/results/report-page-<pairs>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

import yaml

from bench.harness import HERE, RESULTS, dbt_environment, run_process
from tests.integration.headless_chromium import opened

WORK = RESULTS / "work" / "report-page"
REPO = HERE.parent
SCHEMA = "parity_page"
DBT = str(Path(sys.executable).parent / "dbt")
SMALL_ROWS = 1_000
LOADS = 3
COLUMNS = [
    "id",
    "cast(pmod(id * 104729, 10000000) / 100 as decimal(12, 2)) as amount",
    "element_at(array('placed', 'paid', 'shipped'), cast(1 + pmod(id, 3) as int)) as status",
    "concat('customer-', pmod(id * 31, 977)) as note",
]
# A large pair's target: every amount a cent more. A small one's: one row in 250 gone, one in
# 333 with a new status.
LARGE_CHANGE = "amount + 0.01"
SMALL_KEPT = "pmod(id, 250) != 7"
SMALL_STATUS = "case when pmod(id, 333) = 5 then 'refunded' else status end"
# Run in a process of its own: dbt's metastore is free then.
GENERATE = """
import json, sys
from pathlib import Path
from pyspark.sql.functions import expr
from parity.embedded import embedded_session
work, schema = sys.argv[1:3]
columns, large, large_rows, small_rows, changes = map(json.loads, sys.argv[3:])
spark = embedded_session(Path(work), "parity-report-page-generate")
spark.sql(f"create database if not exists {schema}")
def save(frame, name):
    frame.write.format("parquet").mode("overwrite").saveAsTable(f"{schema}.{name}")
for index in range(large):
    table = spark.range(1, large_rows + 1).selectExpr(*columns)
    save(table, f"large_{index}_source")
    save(table.withColumn("amount", expr(changes["large"])), f"large_{index}_target")
small = spark.range(1, small_rows + 1).selectExpr(*columns)
save(small, "small_source")
save(small.where(changes["kept"]).withColumn("status", expr(changes["status"])), "small_target")
"""


def main() -> None:
    options = _options()
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    pairs, tables = _pairs(options.pairs, options.large)
    project = _project(pairs, tables)
    environment = dbt_environment(WORK, SCHEMA)
    python = {**environment, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    changes = {"large": LARGE_CHANGE, "kept": SMALL_KEPT, "status": SMALL_STATUS}
    generate = [COLUMNS, options.large, options.large_rows, SMALL_ROWS, changes]
    _run([sys.executable, "-c", GENERATE, str(WORK), SCHEMA, *map(json.dumps, generate)], python)
    _run([DBT, "deps", "--quiet", *project], environment)
    reconciled_seconds, _ = _timed(
        [DBT, "run", "--select", "parity_remote_relations+", *project], environment
    )
    page = WORK / "project" / "target" / "parity_report.html"
    hook_bytes = page.stat().st_size
    operation_seconds, _ = _timed(
        [DBT, "run-operation", "parity_html_report", *project], environment
    )
    loads, sort_ms = [], []
    screenshot = RESULTS / f"report-page-{options.pairs}.png"
    for attempt in range(LOADS):
        with opened(page) as browser:
            loads.append(round(browser.load_seconds, 3))
            sort_ms.append(round(browser.page.evaluate(SORT), 1))
            if attempt == 0:
                browser.page.screenshot(path=screenshot)
            requests = browser.requests
    figures = {
        "pairs": options.pairs,
        "large_pairs": options.large,
        "large_rows": options.large_rows,
        "differences": options.large * options.large_rows
        + _small_differences() * ((options.pairs - options.large + 1) // 2),
        "dbt_run_seconds": reconciled_seconds,
        "page_bytes_hook": hook_bytes,
        "page_bytes": page.stat().st_size,
        "operation_seconds": operation_seconds,
        "load_seconds": loads,
        "load_seconds_median": statistics.median(loads),
        "sort_ms": sort_ms,
        "requests_beyond_the_page": len(requests) - 1,
        "screenshot": str(screenshot.relative_to(REPO)),
    }
    output = options.output or RESULTS / f"report-page-{options.pairs}.json"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(figures, indent=2) + "\n")
    _print(figures, output)


# The page's own sort by rows differing, clicked twice (descending), in milliseconds: the sort and
# the reordering of the table's rows, before the browser lays them out.
SORT = """() => {
  const heading = document.querySelector("th[data-sort='differing']");
  const started = performance.now();
  heading.click();
  heading.click();
  return performance.now() - started;
}"""


def _pairs(count: int, large: int) -> tuple[list[dict], list[str]]:
    """The pairs as a user declares them, and the tables they name: the large pairs first, then
    small pairs, every other one differing."""
    pairs = [_pair(f"large_{i}", f"large_{i}_source", f"large_{i}_target") for i in range(large)]
    for index in range(count - large):
        target = "small_target" if index % 2 == 0 else "small_source"
        pairs.append(_pair(f"small_{index:03d}", "small_source", target))
    tables = [f"large_{i}_{side}" for i in range(large) for side in ("source", "target")]
    return pairs, [*tables, "small_source", "small_target"]


def _pair(name: str, source: str, target: str) -> dict:
    return {
        "name": name,
        "source": {"source": ["page_lake", source]},
        "target": {"source": ["page_lake", target]},
        "key": "id",
    }


def _small_differences() -> int:
    """A small differing pair's differences: its rows gone, and its changed statuses among the
    rows kept."""
    ids = range(1, SMALL_ROWS + 1)
    gone = sum(1 for i in ids if i % 250 == 7)
    return gone + sum(1 for i in ids if i % 250 != 7 and i % 333 == 5)


def _project(pairs: list[dict], tables: list[str]) -> list[str]:
    """A user's project in the work folder, parity installed from this checkout, the generated
    tables declared as sources, the pairs and the page's var in its vars; its dbt arguments."""
    folder = WORK / "project"
    (folder / "models").mkdir(parents=True)
    settings = {
        "name": "report_page",
        "version": "0.1.0",
        "config-version": 2,
        "profile": "parity",
        "flags": {"require_ref_searches_node_package_before_root": True},
        "vars": {"parity": {"pairs": pairs}, "parity_html_report": True},
    }
    (folder / "dbt_project.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    (folder / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    sources = {
        "version": 2,
        "sources": [
            {"name": "page_lake", "schema": SCHEMA, "tables": [{"name": t} for t in tables]}
        ],
    }
    (folder / "models" / "sources.yml").write_text(yaml.safe_dump(sources, sort_keys=False))
    return ["--project-dir", str(folder)]


def _timed(command: list[str], environment: dict[str, str]) -> tuple[float, object]:
    started = time.perf_counter()
    done = _run(command, environment)
    return round(time.perf_counter() - started, 2), done


def _run(command: list[str], environment: dict[str, str]):
    return run_process(command, environment, WORK)


def _options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--large", type=int, default=4)
    parser.add_argument("--large-rows", type=int, default=250_000)
    parser.add_argument("--output", type=Path)
    return parser.parse_args()


def _print(figures: dict, output: Path) -> None:
    print(
        f"\nparity's report page: {figures['pairs']} pairs, {figures['differences']:,}"
        f" differences ({figures['large_pairs']} pairs of {figures['large_rows']:,} rows"
        " differing on every row)"
    )
    rows = [
        ("dbt run, 200 pairs, whole process (s)", figures["dbt_run_seconds"]),
        ("page written by the run's hook (bytes)", f"{figures['page_bytes_hook']:,}"),
        ("dbt run-operation parity_html_report, whole process (s)", figures["operation_seconds"]),
        ("page written by the operation (bytes)", f"{figures['page_bytes']:,}"),
        ("load in headless Chromium, to the load event (s)", figures["load_seconds"]),
        ("sort by rows differing, twice (ms)", figures["sort_ms"]),
        ("requests beyond the page itself", figures["requests_beyond_the_page"]),
    ]
    for label, value in rows:
        print(f"  {label:<58} {value}")
    print(f"figures: {output}; screenshot: {figures['screenshot']}")


if __name__ == "__main__":
    main()
