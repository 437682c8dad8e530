"""A pair's key constraints, enforced by its ``enforce_key`` before any row is compared.

Each side's NULL keys and duplicate keys are counted by its algorithm's first pass (KeyCounts);
this decides what they mean: ``error`` stops the run, ``warn`` flags the pair and compares it as
a multiset, ``off`` only reports the counts. An error for duplicate keys shows the side's first
few of them with their rows, asked of the side only then (the counting pass stays as cheap); a
key the pair masks is shown as the hash parity_differences publishes of it.
"""

from __future__ import annotations

import json

from parity.errors import ParityError
from parity.log import logger
from parity.plan import PairPlan
from parity.sides.side import Side
from parity.values.masking import hashed
from parity.values.profile import KeyCounts


def enforce_keys(
    pair: PairPlan, counts: tuple[KeyCounts, KeyCounts], sides: tuple[Side, Side]
) -> bool:
    """Whether the pair is flagged for its keys; raises a ParityError under ``error``."""
    if pair.enforce_key == "off":
        return False
    error = pair.enforce_key == "error"
    problems = [
        problem
        for side, side_counts in zip(sides, counts, strict=True)
        for problem in _problems(pair, side, side_counts, error)
    ]
    if not problems:
        return False
    if error:
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


def _problems(pair: PairPlan, side: Side, counts: KeyCounts, examples: bool) -> list[str]:
    """What the side's key counts break; with ``examples``, its first duplicated keys too."""
    plan = side.plan
    where = f"{plan.side} relation {plan.relation_name} ({plan.dialect})"
    keys = ", ".join(plan.key_names)
    problems = []
    if counts.null_keys:
        problems.append(f"{where} has {counts.null_keys} rows with a NULL in key column(s) {keys}")
    if counts.duplicate_keys:
        shown = f", such as {_examples(pair, side)}" if examples else ""
        problems.append(
            f"{where} has {counts.duplicate_keys} key values held by more than one row in key"
            f" column(s) {keys}{shown}"
        )
    return problems


def _examples(pair: PairPlan, side: Side) -> str:
    """The side's first duplicated keys, each with its rows: `5 (3 rows)`."""
    masked = any(pair.masking.hides(name) for name in pair.source.key_names)
    return ", ".join(f"{_shown(key, masked)} ({rows} rows)" for key, rows in side.duplicated_keys())


def _shown(key: tuple[str, ...], masked: bool) -> str:
    """A key as parity_differences publishes it: its text, a compound key's as a JSON array,
    and a masked key as the sha256 of that text."""
    text = (
        key[0]
        if len(key) == 1
        else json.dumps(list(key), separators=(",", ":"), ensure_ascii=False)
    )
    return hashed(text) if masked else text
