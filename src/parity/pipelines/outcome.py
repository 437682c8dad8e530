"""What every pipeline hands back for a pair's verdict, whichever algorithm ran."""

from __future__ import annotations

from dataclasses import dataclass

from parity.algorithms.search_stats import SearchStats
from parity.pipelines.incremental import Rerun
from parity.results.summary import Findings
from parity.values.dead_letter import DeadLetter
from parity.values.profile import KeyCounts


@dataclass(frozen=True)
class Outcome:
    findings: Findings
    counts: tuple[KeyCounts, KeyCounts]
    stats: SearchStats
    # Whether enforce_key (warn) flagged the pair for its NULL or duplicate keys.
    keys_flagged: bool
    # The cells no query could compare (hashdiff's fallback): the pair is incomplete where any
    # is, whatever it found elsewhere.
    dead_letters: tuple[DeadLetter, ...] = ()
    # Each side's first pass as the state keeps it (incremental.checksum_text); "" where the
    # algorithm's first pass has no whole-table checksum (joindiff).
    checksums: tuple[str, str] = ("", "")
    # The differing cells of the first segment pass, as the state keeps them (SegmentState.text;
    # "" where none are kept).
    segments: str = ""
    # The last result stands: the first pass found both sides as they were when it was
    # computed, so nothing else was compared (Rerun.unchanged_by_checksums).
    kept: Rerun | None = None
