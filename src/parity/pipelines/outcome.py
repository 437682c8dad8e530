"""What every pipeline hands back for a pair's verdict, whichever algorithm ran."""

from __future__ import annotations

from dataclasses import dataclass

from parity.algorithms.hashdiff import HashdiffStats
from parity.results.summary import Findings
from parity.values.dead_letter import DeadLetter
from parity.values.profile import KeyCounts


@dataclass(frozen=True)
class Outcome:
    findings: Findings
    counts: tuple[KeyCounts, KeyCounts]
    stats: HashdiffStats
    # Whether enforce_key (warn) flagged the pair for its NULL or duplicate keys.
    keys_flagged: bool
    # The cells no query could compare (hashdiff's fallback): the pair is incomplete where any
    # is, whatever it found elsewhere.
    dead_letters: tuple[DeadLetter, ...] = ()
