"""The segments a pair's last result found differing, as the next run reads them back: the key
space and depth of hashdiff's first segment pass, and each differing cell's checksums on both
sides. A cell the next run finds again with both checksums unchanged holds the same rows on both
sides, so it holds the same differences: they are reused, not drilled into again.

As text (a result's `segment_checksums`): `space <low> <scale> <width> <factor> depth <depth>`,
then `; <cell> <source rows> <source sum> <target rows> <target sum>` per cell. "" where the
result keeps none.
"""

from __future__ import annotations

from dataclasses import dataclass

from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum

# A result keeps the differing cells of its first segment pass only up to this many: past it the
# state would outweigh what it saves (drift everywhere is compared again anyway).
MAX_KEPT_CELLS = 4096


@dataclass(frozen=True)
class SegmentState:
    space: KeySpace
    depth: int
    # Each differing cell: (source checksum, target checksum).
    cells: dict[int, tuple[Checksum, Checksum]]

    def text(self) -> str:
        space = self.space
        head = f"space {space.low} {space.scale} {space.width} {space.factor} depth {self.depth}"
        cells = [
            f"{cell} {s.rows} {s.total} {t.rows} {t.total}"
            for cell, (s, t) in sorted(self.cells.items())
        ]
        return "; ".join([head, *cells])

    @classmethod
    def parse(cls, text: str) -> SegmentState | None:
        """The state a result kept; None for "" (it kept none) or text not of this form."""
        head, *cells = text.split("; ")
        words = head.split()
        if len(words) != 7 or words[0] != "space" or words[5] != "depth":
            return None
        try:
            low, scale, width, factor, depth = (int(w) for w in (*words[1:5], words[6]))
            parsed = {}
            for cell in cells:
                index, rows, total, other_rows, other_total = map(int, cell.split())
                parsed[index] = (Checksum(rows, total), Checksum(other_rows, other_total))
        except ValueError:  # not numbers, or not five of them
            return None
        return cls(KeySpace(low, scale, width, factor), depth, parsed)
