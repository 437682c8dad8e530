"""What searching a pair for its differences cost, and what stopped it early: one record that
every algorithm fills (hashdiff all of it, joindiff what halted it) and the pair's result
publishes (results/judgement.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SearchStats:
    """Checksum passes, cells compared, and the rows downloaded out of each side's engine (or
    read in the Spark session) for the comparison; and what halted it early, if anything: the
    circuit breaker (``critical_drift_ratio``) or ``max_differences``."""

    passes: int = 0
    segments_checked: int = 0
    # Differing cells whose row differences came from the last result, not the sides.
    segments_reused: int = 0
    source_rows_moved: int = 0
    target_rows_moved: int = 0
    halted_by: str | None = None

    @property
    def halted(self) -> bool:
        return self.halted_by is not None

    @property
    def rows_moved(self) -> int:
        return self.source_rows_moved + self.target_rows_moved
