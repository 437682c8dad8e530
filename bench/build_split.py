"""Where one `dbt build` process spent its time, node by node, read from the JSON lines dbt
writes to logs/dbt.log (`--log-format-file json`) for the invocation that run_results.json
names, and from the process's own start and end:

- startup: the process's start (Python, dbt's imports) to dbt's first log line;
- parse: to dbt's count of what it found (the adapter's registration, the project's parsing,
  the manifest written), with whether dbt parsed in part, skipped it or parsed in full, and why;
- spark start: dbt-spark opens the session on the first statement (`show databases`): that
  statement's seconds, Spark's start most of them;
- relation cache: the rest up to the first node (the schemas' relations listed);
- nodes: the first node's start to the last node's end; each node's own seconds, from its start
  to its end (run_results.json's execution_time leaves out dbt's own work around it), are given
  apart: with several threads, nodes run at once and their seconds add up to more;
- on-run-end: the last node's end to the hooks' end (parity's report);
- wrap-up: to dbt's last log line (run_results.json written, the summary printed);
- exit: the last log line to the process's end (the JVM's stop, the interpreter's exit);
- other: what falls between these.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

PARSING = {"PartialParsingSkipParsing", "PartialParsingEnabled", "UnableToPartialParse"}


def build_split(project: Path, started: float, ended: float) -> dict:
    """The build's seconds in all, by phase and by node (``started`` and ``ended``: the
    process's, as time.time() gives them)."""
    run = json.loads((project / "target" / "run_results.json").read_text())
    invocation = run["metadata"]["invocation_id"]
    events = [
        (_seconds(e["info"]["ts"]), e)
        for e in map(json.loads, (project / "logs" / "dbt.log").read_text().splitlines())
        if e["info"]["invocation_id"] == invocation
    ]
    first, last = events[0][0], events[-1][0]
    found = _first(events, "FoundStats")
    spark = _spark_start(events)
    starts = {_node(e): t for t, e in events if e["info"]["name"] == "NodeStart"}
    ends = {_node(e): t for t, e in events if e["info"]["name"] == "NodeFinished"}
    manifest = json.loads((project / "target" / "manifest.json").read_text())["nodes"]
    nodes = {_name(manifest[node]): ends[node] - t for node, t in starts.items()}
    hooks = [t for t, e in events if e["info"]["name"] == "LogHookEndLine"]
    report = (max(hooks) - max(ends.values())) if hooks else 0.0
    phases = {
        "startup": first - started,
        "parse": found - first,
        "spark start": spark,
        "relation cache": min(starts.values()) - found - spark,
        "nodes": max(ends.values()) - min(starts.values()),
        "on-run-end": report,
        "wrap-up": last - (max(hooks) if hooks else max(ends.values())),
        "exit": ended - last,
    }
    phases["other"] = (ended - started) - sum(phases.values())
    parity = [
        r for r in run["results"] if ".parity." in r["unique_id"] and r["unique_id"][:5] != "test."
    ]
    return {
        "seconds": round(ended - started, 2),
        "parsing": next(e["info"]["msg"] for _, e in events if e["info"]["name"] in PARSING),
        "phases": {name: round(seconds, 2) for name, seconds in phases.items()},
        "nodes": {name: round(seconds, 2) for name, seconds in nodes.items()},
        "parity_models_seconds": round(sum(r["execution_time"] for r in parity), 2),
        "reconcile_seconds": round(
            sum(
                r["execution_time"]
                for r in parity
                if r["unique_id"].endswith(".parity_pair_results")
            ),
            2,
        ),
    }


def _spark_start(events: list[tuple[float, dict]]) -> float:
    """The seconds of the statement on which dbt-spark opened its session."""
    opened = next(
        i
        for i, (_, e) in enumerate(events)
        if e["info"]["name"] == "NewConnectionOpening" and "state init" in e["info"]["msg"]
    )
    done = next(t for t, e in events[opened:] if e["info"]["name"] == "SQLQueryStatus")
    return done - events[opened][0]


def _first(events: list[tuple[float, dict]], name: str) -> float:
    return next(t for t, e in events if e["info"]["name"] == name)


def _node(event: dict) -> str:
    return event["data"]["node_info"]["unique_id"]


def _name(node: dict) -> str:
    """A node's kind and name, a test's by its generic test (each is used once in a one-pair
    project), whatever relation it is attached to."""
    test = node.get("test_metadata")
    if test:
        return f"test {test['namespace'] or node['package_name']}.{test['name']}"
    return f"{node['resource_type']} {node['name']}"


def _seconds(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp()
