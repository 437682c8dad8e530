"""What an apply is asked to do, from the `parity_apply` var: which pairs, whether to write, and
whether to pass the guards a user may override."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

OPTIONS = ("pair", "pairs", "write", "force", "undo")


class RequestError(ValueError):
    """The `parity_apply` var is not a request: nothing is read or written."""

    def __init__(self, problem: str) -> None:
        super().__init__(f"parity_apply: {problem}")


@dataclass(frozen=True)
class ApplyRequest:
    pairs: tuple[str, ...]
    # False (the default): a dry run, which reads and counts and writes nothing.
    write: bool = False
    # Apply beyond max_corrections, or to a relation changed since the run.
    force: bool = False
    # Restore what the pair's last apply replaced, instead of applying.
    undo: bool = False


def read_request(text: str) -> ApplyRequest:
    """The var as the model's properties hand it over (JSON: models/apply/_apply__models.yml)."""
    value: Any = json.loads(text)
    if not isinstance(value, dict):
        raise RequestError(f"must be a mapping of {', '.join(OPTIONS)}, not {text}")
    unknown = sorted(set(value) - set(OPTIONS))
    if unknown:
        raise RequestError(f"unknown option '{unknown[0]}' (allowed: {', '.join(OPTIONS)})")
    pairs = value.get("pairs", [value["pair"]] if "pair" in value else [])
    if isinstance(pairs, str):
        pairs = [pairs]
    if not pairs or not all(isinstance(p, str) and p for p in pairs):
        raise RequestError("name the pair to correct: {pair: name} or {pairs: [names]}")
    for flag in ("write", "force", "undo"):
        if not isinstance(value.get(flag, False), bool):
            raise RequestError(f"'{flag}' must be true or false, not {value[flag]!r}")
    return ApplyRequest(
        tuple(dict.fromkeys(pairs)),
        value.get("write", False),
        value.get("force", False),
        value.get("undo", False),
    )
