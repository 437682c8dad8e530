"""Values within tolerance are published in aggregate (drift.column_stats) and as a few examples
per column: a pair where a million values drift within tolerance would otherwise write a million
rows nobody reads. Every other difference is published in full.

The examples of a column are its values of largest error (|delta|, then relative error), then of
smallest key, then by a hash of their values (two rows of one key): chosen in Spark by what is
published of them only, so the same inputs publish the same rows, and a sensitive column's (no
error published) are those of its smallest published (hashed) keys. A pair's
``within_tolerance_examples`` is how many per column; None lists every one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from parity.results.presentation import hashed_sql, hidden_sql
from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking
from parity.values.rows import WITHIN_TOLERANCE

# The most examples per column Spark's bottom-k aggregate keeps (min_by's k); a pair wanting
# more lists every one (`all`). macros/config/parity_pairs.sql holds a pair to it.
MOST_EXAMPLES = 100_000


@dataclass(frozen=True)
class ColumnExamples:
    """How many of a column's values within tolerance the result lists in its differences
    (parity_column_drift.within_tolerance_listed): a list of its own beside column_stats, so that
    column_stats keeps the type the history has."""

    column_name: str
    within_tolerance_listed: int


def capped(
    differences: DataFrame,
    examples: int | None,
    masking: Masking,
    rules: tuple[ColumnRule, ...],
    key_names: tuple[str, ...],
) -> DataFrame:
    """The differences as found (summary.DIFFERENCE_COLUMNS) with at most ``examples`` within
    tolerance per column, the first in ``order``; None keeps them all. Chosen before they are
    presented, by a bottom-k aggregate per column: each task keeps its first ``examples`` of
    each column, so only those cross the shuffle, no row is sorted, and only the examples are
    made readable."""
    if examples is None:
        return differences
    within = F.col("kind") == WITHIN_TOLERANCE
    others = differences.where(~within)
    if examples == 0:
        return others
    first = F.min_by(F.struct(*differences.columns), order(masking, rules, key_names), examples)
    chosen = differences.where(within).groupBy("column_name").agg(first.alias("examples"))
    # Their kind, never NULL, said so to Spark again: the aggregate's array admits NULL.
    examples_found = chosen.select(F.inline("examples")).withColumn("kind", F.lit(WITHIN_TOLERANCE))
    return others.unionByName(examples_found)


def order(masking: Masking, rules: tuple[ColumnRule, ...], key_names: tuple[str, ...]) -> Column:
    """What ranks a column's values within tolerance, smallest first, from what is published of
    them (presentation.present): largest |delta| (in the column's unit), then largest relative
    error, an error not published last; then smallest key (hashed where the key is hidden);
    then a hash of the two values (two rows of one key, which then tie only where their values'
    hashes do)."""
    hidden = hidden_sql(masking, rules)
    # Negated, an error not published (NULL) after every other: four fields, as each row is
    # compared with the examples kept so far (a struct of six cost a fifth more).
    error = f"case when not {hidden} then -abs(try_cast(`delta` as double)) end"
    relative = f"case when not {hidden} then -`relative_error` end"
    key = hashed_sql("`key`") if any(masking.hides(name) for name in key_names) else "`key`"
    last = "cast('Infinity' as double)"
    return F.expr(
        f"struct(coalesce({error}, {last}), coalesce({relative}, {last}), {key},"
        " xxhash64(`source_value`, `target_value`))"
    )


def listed(
    totals: dict[str, dict[str, Any]],
    rules: tuple[ColumnRule, ...],
    examples: int | None,
    published: bool,
) -> list[ColumnExamples]:
    """Per compared column, how many of its values within tolerance (``totals``,
    drift.drift_totals) are listed: none where no difference is ``published`` (a pair its circuit
    breaker halted), else as many as ``examples`` lets through."""
    counts = []
    for rule in rules:
        within = int(totals.get(rule.column, {}).get("within") or 0)
        shown = within if examples is None else min(within, examples)
        counts.append(ColumnExamples(rule.column, shown if published else 0))
    return counts


def all_listed(totals: dict[str, dict[str, Any]], examples: int | None) -> bool:
    """Whether every value within tolerance is listed: no column has more than ``examples``."""
    return examples is None or all(
        int(found.get("within") or 0) <= examples for found in totals.values()
    )
