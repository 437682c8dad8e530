"""What the report page shows, from the document the macros read out of the published views
(macros/reporting/html_report.sql): per pair its verdict, counts, columns, schema findings and
first differences, and per run the series its charts draw. Everything here is already capped by
the queries; this only groups, orders and says what was left out."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from markupsafe import Markup

from parity.report import charts

Row = dict[str, Any]
# The kinds of a row difference, in the order the page lists them; schema findings have a
# section of their own.
KINDS = (
    "value_mismatch",
    "missing_in_target",
    "missing_in_source",
    "duplicate_in_source",
    "duplicate_in_target",
    "within_tolerance",
)
# The verdicts, worst first: the page's order, and the order its verdict column sorts by.
RANK = ("ERROR", "HALTED", "DIFFERENT", "PASS")
# Escapes for the characters that would break a value's line or hide in it.
CONTROL = {**{code: f"\\x{code:02x}" for code in [*range(32), 127]}, 10: "\\n", 13: "\\r", 9: "\\t"}


@dataclass(frozen=True)
class Shown:
    """A value as a cell shows it: its text, and how to style it (a value, NULL or hidden)."""

    text: str
    style: str = "value"


@dataclass(frozen=True)
class Example:
    key: Shown
    column: str | None
    source: Shown
    target: Shown
    delta: float | None


@dataclass(frozen=True)
class KindExamples:
    kind: str
    rows: list[Example]
    total: int

    @property
    def left_out(self) -> int:
        return self.total - len(self.rows)


@dataclass(frozen=True)
class Column:
    drift: Row
    chart: Markup | None


@dataclass(frozen=True)
class Pair:
    summary: Row
    verdict: str
    columns: list[Column]
    schema: list[Row]
    schema_total: int
    examples: list[KindExamples]
    chart: Markup

    @property
    def name(self) -> str:
        return self.summary["pair_name"]

    @property
    def rank(self) -> int:
        return RANK.index(self.verdict)

    @property
    def figures(self) -> dict[str, Any]:
        """What the pairs table shows and sorts by; nothing of its data for a pair in error."""
        s = self.summary
        known = self.verdict != "ERROR"
        return {
            "differing": s["differing_rows"] if known else None,
            "drift": s["row_drift_pct"] if known else None,
            "mismatched": s["mismatched_values"] if known else None,
            "within": s["within_tolerance_values"] if known else None,
            "findings": s["schema_findings"] if known else None,
            "elapsed": s["elapsed_seconds"],
        }


@dataclass(frozen=True)
class Page:
    run_id: str
    command: str
    written_at: str
    published: bool | None
    published_run: Row
    runs: list[Row]
    runs_chart: Markup
    pairs: list[Pair]
    examples_per_kind: int

    @property
    def verdicts(self) -> dict[str, int]:
        counted: dict[str, int] = defaultdict(int)
        for pair in self.pairs:
            counted[pair.verdict] += 1
        return dict(sorted(counted.items()))

    @property
    def passed(self) -> bool:
        return all(pair.verdict == "PASS" for pair in self.pairs)

    @property
    def in_error(self) -> list[Pair]:
        return [pair for pair in self.pairs if pair.verdict == "ERROR"]


def verdict(pair: Row) -> str:
    """A pair's verdict, as the log report prints it (macros/reporting/parity_report.sql)."""
    if pair.get("status") == "error":
        return "ERROR"
    if pair.get("passed"):
        return "PASS"
    return "HALTED" if pair.get("halted") else "DIFFERENT"


def shown(value: Any, hashed: str | None, length: int | None, max_chars: int) -> Shown:
    """A value on one line: control characters escaped, cut at ``max_chars`` saying how long it
    is; NULL, or hidden with the start of its hash where the pair keeps it secret."""
    if value is None:
        return (
            Shown("NULL", "null") if hashed is None else Shown(f"hidden ({hashed[:19]}…)", "hidden")
        )
    text = str(value)
    whole = length if length is not None else len(text)
    cut = f"… ({whole:,} characters)" if whole > max_chars else ""
    return Shown(text[:max_chars].translate(CONTROL) + cut)


def when(text: str | None) -> str:
    """An ISO 8601 time (as Spark's JSON writes it, in UTC) as the page prints it."""
    if not text:
        return ""
    # Spark writes UTC as "Z", which Python 3.10 does not read.
    parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    return parsed.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def page(document: Row) -> Page:
    """The page's content, from the macros' document."""
    runs = list(reversed(document["runs"]))  # oldest first, as the charts read
    max_chars = document["max_value_chars"]
    columns, examples, schema = (
        _by_pair(document[part]) for part in ("columns", "examples", "schema")
    )
    pair_history = {row["pair_name"]: row["by_run"] for row in document["pair_history"]}
    column_history = {
        (row["pair_name"], row["column_name"]): row["by_run"] for row in document["column_history"]
    }
    pairs = []
    for summary in document["pairs"]:
        name = summary["pair_name"]
        findings = schema.get(name, [])
        pairs.append(
            Pair(
                summary=summary,
                verdict=verdict(summary),
                columns=[
                    Column(drift, _column_chart(column, column_history.get((name, column)), runs))
                    for drift in _ordered_columns(columns.get(name, []))
                    for column in [drift["column_name"]]
                ],
                schema=findings,
                schema_total=findings[0]["of_pair"] if findings else 0,
                examples=_examples(examples.get(name, []), max_chars),
                chart=_pair_chart(name, pair_history.get(name), runs),
            )
        )
    # Worst first: a person opens the page for what did not pass.
    pairs.sort(key=lambda pair: (pair.rank, pair.name))
    return Page(
        run_id=document["run_id"],
        command=document["command"],
        written_at=document["written_at"],
        published=document["published"],
        published_run=document["runs"][0],
        runs=document["runs"],
        runs_chart=_runs_chart(runs),
        pairs=pairs,
        examples_per_kind=document["examples_per_kind"],
    )


def _runs_chart(runs: list[Row]) -> Markup:
    """Each run's pairs that passed, and those that did not."""
    passed = [run["pairs_passed"] for run in runs]
    return charts.stacked(
        passed,
        [run["pairs"] - run["pairs_passed"] for run in runs],
        f"Pairs passed of pairs, last {len(runs)} published runs, oldest first: "
        + ", ".join(f"{run['pairs_passed']}/{run['pairs']}" for run in runs),
    )


def _pair_chart(name: str, by_run: dict[str, Row] | None, runs: list[Row]) -> Markup:
    """The pair's rows differing, run by run: the result each run published for it."""
    results = [(by_run or {}).get(run["run_id"]) or {} for run in runs]
    # A run whose result was an error knows nothing of the pair's rows: no bar.
    differing = [
        None if result.get("status") == "error" else result.get("differing_rows")
        for result in results
    ]
    return charts.bars(
        differing,
        f"{name}: " + ", ".join(count(rows) for rows in differing) + " rows differing",
    )


def _by_pair(rows: list[Row]) -> dict[str, list[Row]]:
    grouped: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[row["pair_name"]].append(row)
    return grouped


def _ordered_columns(columns: list[Row]) -> list[Row]:
    """Most values beyond tolerance first, then within, then by name."""
    return sorted(
        columns,
        key=lambda c: (
            -(c["out_of_tolerance"] or 0),
            -(c["within_tolerance"] or 0),
            c["column_name"],
        ),
    )


def _column_chart(name: str, by_run: dict[str, Row] | None, runs: list[Row]) -> Markup | None:
    """The share of the column's compared values beyond tolerance, run by run; none for a column
    that differed in none of them (a 200-pair page holds thousands of columns)."""
    shown_runs = [(by_run or {}).get(run["run_id"]) for run in runs]
    if not any(
        drift and (drift["out_of_tolerance"] or drift["within_tolerance"]) for drift in shown_runs
    ):
        return None
    rates = [
        None if drift is None else drift["out_of_tolerance"] / (drift["values_compared"] or 1)
        for drift in shown_runs
    ]
    return charts.bars(
        rates,
        f"{name}: " + ", ".join("—" if rate is None else f"{100 * rate:.3g}%" for rate in rates),
    )


def _examples(rows: list[Row], max_chars: int) -> list[KindExamples]:
    grouped = defaultdict(list)
    totals = {}
    for row in rows:
        grouped[row["kind"]].append(
            Example(
                key=shown(row["key"], None, None, max_chars),
                column=row["column_name"],
                source=_side(row, "source", max_chars),
                target=_side(row, "target", max_chars),
                delta=row["delta"],
            )
        )
        totals[row["kind"]] = row["of_kind"]
    ordered = [kind for kind in KINDS if kind in grouped] + sorted(set(grouped) - set(KINDS))
    return [KindExamples(kind, grouped[kind], totals[kind]) for kind in ordered]


def _side(row: Row, side: str, max_chars: int) -> Shown:
    return shown(row[f"{side}_value"], row[f"{side}_hash"], row[f"{side}_length"], max_chars)


def count(value: Any) -> str:
    """A count as the page prints it, with thousands separated; a dash where there is none."""
    return "—" if value is None else f"{value:,}"
