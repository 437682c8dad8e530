"""A pair's key constraints, enforced by its ``enforce_key`` before any row is compared.

Each side's NULL keys and duplicate keys are counted by its algorithm's first pass (KeyCounts);
this decides what they mean: ``error`` stops the run, ``warn`` flags the pair and compares it as
a multiset, ``off`` only reports the counts.
"""

from __future__ import annotations

from parity.errors import ParityError
from parity.log import logger
from parity.plan import PairPlan, SidePlan
from parity.values.profile import KeyCounts


def enforce_keys(pair: PairPlan, counts: tuple[KeyCounts, KeyCounts]) -> bool:
    """Whether the pair is flagged for its keys; raises a ParityError under ``error``."""
    problems = [
        problem
        for plan, side_counts in zip((pair.source, pair.target), counts, strict=True)
        for problem in _problems(plan, side_counts)
    ]
    if not problems or pair.enforce_key == "off":
        return False
    if pair.enforce_key == "error":
        raise ParityError(
            pair.name,
            "; ".join(problems) + " (enforce_key: error; with warn, such a pair is compared as a"
            " multiset, rows with a NULL key left out)",
        )
    logger.warning(
        "parity pair '%s': %s (enforce_key: warn: compared as a multiset, rows with a NULL key"
        " left out)",
        pair.name,
        "; ".join(problems),
    )
    return True


def _problems(plan: SidePlan, counts: KeyCounts) -> list[str]:
    where = f"{plan.side} relation {plan.relation_name} ({plan.dialect})"
    keys = ", ".join(plan.key_names)
    problems = []
    if counts.null_keys:
        problems.append(f"{where} has {counts.null_keys} rows with a NULL in key column(s) {keys}")
    if counts.duplicate_keys:
        problems.append(
            f"{where} has {counts.duplicate_keys} key values held by more than one row in key"
            f" column(s) {keys}"
        )
    return problems
