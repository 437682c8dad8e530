"""What a pair publishes no value of."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Masking:
    """What a pair keeps secret: everything, or these columns (lower-cased source names)."""

    everything: bool
    columns: frozenset[str]

    def hides(self, column: str | None) -> bool:
        return self.everything or (column is not None and column.lower() in self.columns)
