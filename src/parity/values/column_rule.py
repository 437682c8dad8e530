"""One compared column as the plan resolved it: its kind and its tolerance."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

# Options whose value is a word, not a number or a flag.
WORDS = {"temporal_grid"}


@dataclass(frozen=True)
class ColumnRule:
    """One compared column: the kind both sides were canonicalized as, and its tolerance."""

    column: str
    kind: str
    tolerance: dict[str, Any]
    scale: int = 0  # a decimal's
    bits: int = 64  # a float's

    @classmethod
    def from_plan(cls, rule: dict[str, Any]) -> ColumnRule:
        options = {
            name: value
            if isinstance(value, bool) or name in WORDS
            else str(Decimal(str(value)).normalize())
            for name, value in rule["tolerance"].items()
        }
        return cls(
            rule["column"],
            rule["kind"],
            options,
            int(rule.get("scale", 0)),
            int(rule.get("bits", 64)),
        )

    def number(self, option: str) -> Decimal | None:
        value = self.tolerance.get(option)
        return None if value is None else Decimal(value)
