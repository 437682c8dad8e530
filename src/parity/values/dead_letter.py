"""A segment of a pair that no query could compare, even the fallback's smallest: its rows are
neither matched nor reported as differing, so the pair that holds one is incomplete."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeadLetter:
    # The side whose engine failed: "source" or "target".
    side: str
    # The cell, at its depth of the pair's key space (values/keyspace.py).
    depth: int
    cell: int
    # The cell's range, inclusive, as text: the first and last key where the key is a single
    # integer, else "hash position N" (the range of the keys' row-hash positions).
    low: str
    high: str
    # The engine's last reason (no secret in it).
    error: str
