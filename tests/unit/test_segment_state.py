"""The differing segments a result keeps for the next run, as text and back."""

from __future__ import annotations

import pytest

from parity.algorithms.segment_state import SegmentState
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum

STATE = SegmentState(
    KeySpace.spanning(-5, 10**12, 32, 64),
    2,
    {
        0: (Checksum(3, 2**62), Checksum(0, 0)),
        1023: (Checksum(7, 11), Checksum(8, 12)),
    },
)


def test_a_state_reads_back_as_it_was_kept():
    assert SegmentState.parse(STATE.text()) == STATE
    assert STATE.text().startswith("space -64 ")


def test_a_state_with_no_differing_cell_reads_back_too():
    empty = SegmentState(KeySpace.hashed(32), 3, {})
    assert SegmentState.parse(empty.text()) == empty


@pytest.mark.parametrize(
    "text",
    [
        "",
        "space 0 1 2 depth 1",
        "space 0 1 2 3 depth x",
        "cells 0 1 2 3 depth 1",
        "space 0 1 2 3 depth 1; 5 1 2 3",
        "space 0 1 2 3 depth 1; 5 1 2 3 4 6",
        "space 0 1 2 3 depth 1; five 1 2 3 4",
    ],
)
def test_text_not_of_its_form_reads_as_no_state(text):
    assert SegmentState.parse(text) is None
