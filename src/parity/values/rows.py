"""Rows as the sides hand them over, the differences found between them, and the kinds of
difference (docs: parity_differences.kind)."""

from __future__ import annotations

from dataclasses import dataclass

MISSING_IN_TARGET = "missing_in_target"
MISSING_IN_SOURCE = "missing_in_source"
VALUE_MISMATCH = "value_mismatch"
DUPLICATE_IN_SOURCE = "duplicate_in_source"
DUPLICATE_IN_TARGET = "duplicate_in_target"
# Kinds of row difference the algorithms find.
KINDS = (
    MISSING_IN_TARGET,
    MISSING_IN_SOURCE,
    VALUE_MISMATCH,
    DUPLICATE_IN_SOURCE,
    DUPLICATE_IN_TARGET,
)
# A value pair the pair's tolerance accepts: kept and shown, but failing nothing.
WITHIN_TOLERANCE = "within_tolerance"
# Kinds of row difference as published: the algorithms' and within_tolerance.
ROW_KINDS = (*KINDS, WITHIN_TOLERANCE)

# Canonical text of each value, None for NULL.
Values = tuple[str | None, ...]
# (key values, compared values).
Row = tuple[Values, Values]


@dataclass(frozen=True)
class RowDiff:
    key: Values
    kind: str
    source_values: Values | None
    target_values: Values | None
