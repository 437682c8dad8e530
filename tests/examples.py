"""How many examples a property test draws: its full count in `make test`, a tenth of it (three at
least) in the fast lane, where the Makefile sets PARITY_FEW_EXAMPLES. The fast lane checks that
each property still holds on a few draws; the whole suite searches for the draw that breaks it."""

from __future__ import annotations

import os

FEW = "PARITY_FEW_EXAMPLES"


def examples(full: int) -> int:
    return max(3, full // 10) if os.environ.get(FEW) else full
