"""What a pair's result says in its span and metrics: only names, counts and hashes, never a
compared value, a key or an engine's words beyond the published `status_reason`, which was made
publishable where it was written."""

from __future__ import annotations

from parity.results.pair_result import PairResult
from parity.values.rows import ROW_KINDS

Attributes = dict[str, str | int | float | bool]
PAIR = "parity.pair.name"


def verdict(result: PairResult) -> str:
    """As the report spells it (macros/reporting/parity_report.sql, `_verdict`)."""
    if result.status == "error":
        return "ERROR"
    if result.passed:
        return "PASS"
    return "HALTED" if result.halted else "DIFFERENT"


def compared(result: PairResult) -> bool:
    """Whether this run compared the pair's data: a pair whose last result stands (run mode
    `unchanged`) compared nothing, and its counts are that result's, not this run's."""
    return result.run_mode == "compared" and result.data_compared


def span_attributes(result: PairResult) -> Attributes:
    attributes: Attributes = {
        PAIR: result.pair_name,
        "parity.algorithm": result.algorithm,
        "parity.status": result.status,
        "parity.run_mode": result.run_mode,
        "parity.config_hash": result.config_hash,
    }
    if result.run_mode != "compared":
        return {**attributes, "parity.computed_run_id": result.computed_run_id}
    attributes.update(
        {
            "parity.verdict": verdict(result),
            "parity.checksum_passes": result.checksum_passes,
            "parity.segments_checked": result.segments_checked,
            "parity.rows_moved": result.rows_moved,
            "parity.differing_rows": result.differing_rows,
            "parity.data_compared": result.data_compared,
        }
    )
    if result.source_rows is not None and result.target_rows is not None:
        attributes["parity.rows_scanned"] = result.source_rows + result.target_rows
    return attributes


def differences(result: PairResult) -> dict[str, int]:
    """The pair's differing rows by kind, as parity_summary counts them (`<kind>_rows`)."""
    return {kind: getattr(result, f"{kind}_rows") for kind in ROW_KINDS}
