"""Whether a pair is compared again, from the state its last published result left: unchanged
only when every part of the state is there, intact and equal."""

from __future__ import annotations

import pytest

from parity.pipelines.incremental import STATE_FIELDS, _why_compared, state_hash
from parity.sides.fingerprints import InputFingerprint

FILES = InputFingerprint("files", "d" * 64, "3 files")
NONE = InputFingerprint.none("compared by its whole-table checksum")
STATE = {
    "config_hash": "c1",
    "tolerance_hash": "t1",
    "source_schema_hash": "s1",
    "target_schema_hash": "s2",
    "source_fingerprint": "files:" + "a" * 64,
    "target_fingerprint": "files:" + "b" * 64,
}


def previous(**changes) -> dict:
    """A published result's state, its hash made before the changes (as corruption would)."""
    state = {**STATE, "run_id": "r1", "status": "complete"}
    state["state_hash"] = state_hash("r1", "complete", state)
    return {**state, **changes}


def why(last: dict, now: dict | None = None, inputs: dict | None = None) -> str | None:
    return _why_compared(last, now or STATE, inputs or {"source": FILES, "target": FILES})


def test_an_intact_equal_state_keeps_the_last_result():
    assert why(previous()) is None


@pytest.mark.parametrize(
    ("field", "reason"),
    [
        ("config_hash", "its configuration changed"),
        ("tolerance_hash", "its tolerance changed"),
        ("source_schema_hash", "the source's schema changed"),
        ("target_schema_hash", "the target's schema changed"),
        ("source_fingerprint", "the source's inputs changed"),
        ("target_fingerprint", "the target's inputs changed"),
    ],
)
def test_each_change_compares_the_pair_and_says_which(field, reason):
    assert why(previous(), {**STATE, field: "new"}) == reason


def test_several_changes_are_all_named():
    now = {**STATE, "tolerance_hash": "t2", "target_fingerprint": "files:" + "c" * 64}
    assert why(previous(), now) == "its tolerance changed; the target's inputs changed"


def test_a_side_without_fingerprint_is_always_compared():
    now = {**STATE, "source_fingerprint": ""}
    last = {**previous(source_fingerprint=""), "source_fingerprint": ""}
    last["state_hash"] = state_hash("r1", "complete", last)
    reason = why(last, now, {"source": NONE, "target": FILES})
    assert reason == "the source has no input fingerprint (compared by its whole-table checksum)"


@pytest.mark.parametrize("field", [*STATE_FIELDS, "run_id", "status"])
def test_a_state_whose_hash_does_not_match_is_corrupted(field):
    assert why(previous(**{field: "tampered"})) == (
        "its state is corrupted (its hash does not match it)"
    )


@pytest.mark.parametrize("field", [*STATE_FIELDS, "run_id", "status", "state_hash"])
def test_a_state_missing_a_field_is_partial(field):
    last = previous()
    last[field] = None
    assert why(last) in (
        "its state is partial",
        "its state is corrupted (its hash does not match it)",
    )
    del last[field]
    assert why(last) in (
        "its state is partial",
        "its state is corrupted (its hash does not match it)",
    )


def test_a_last_result_in_error_is_compared_again():
    last = {**STATE, "run_id": "r1", "status": "error"}
    last["state_hash"] = state_hash("r1", "error", last)
    assert why(last) == "its last result is not complete (error)"


def test_no_state_says_why():
    assert why({"missing": "--full-refresh: every pair compared in full"}) == (
        "--full-refresh: every pair compared in full"
    )
