"""Row-level differences and the multiset comparison that finds them.

Rows are (key, values) tuples of canonical text (None for NULL). Duplicates count: for each key,
rows present on both sides are cancelled copy by copy, the rest are paired in canonical order
as value mismatches, and what is left over is missing (the other side has no row with that key)
or a duplicate (the other side has fewer rows with that key). Both algorithms compare in Spark
(canonical_join.py); this is the reference the property tests hold that comparison to.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from parity.values.rows import (
    DUPLICATE_IN_SOURCE,
    DUPLICATE_IN_TARGET,
    MISSING_IN_SOURCE,
    MISSING_IN_TARGET,
    VALUE_MISMATCH,
    Row,
    RowDiff,
    Values,
)


def canonical_order(values: Values) -> tuple[tuple[bool, str], ...]:
    """Ascending by each value, NULLs last: the order Spark's ``asc nulls last`` gives on text."""
    return tuple((value is None, value or "") for value in values)


def compare_rows(source: Iterable[Row], target: Iterable[Row]) -> list[RowDiff]:
    by_key: dict[Values, tuple[Counter, Counter]] = defaultdict(lambda: (Counter(), Counter()))
    for key, values in source:
        by_key[key][0][values] += 1
    for key, values in target:
        by_key[key][1][values] += 1

    diffs: list[RowDiff] = []
    for key in sorted(by_key, key=canonical_order):
        in_source, in_target = by_key[key]
        common = in_source & in_target
        left = sorted((in_source - common).elements(), key=canonical_order)
        right = sorted((in_target - common).elements(), key=canonical_order)
        paired = min(len(left), len(right))
        diffs.extend(RowDiff(key, VALUE_MISMATCH, s, t) for s, t in zip(left, right, strict=False))
        extra_kind = MISSING_IN_TARGET if not in_target else DUPLICATE_IN_SOURCE
        diffs.extend(RowDiff(key, extra_kind, s, None) for s in left[paired:])
        extra_kind = MISSING_IN_SOURCE if not in_source else DUPLICATE_IN_TARGET
        diffs.extend(RowDiff(key, extra_kind, None, t) for t in right[paired:])
    return diffs
