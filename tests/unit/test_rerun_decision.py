"""Whether a pair is compared again, from the state its last published result left: unchanged
only when every part of the state is there, intact and equal; or, where only its inputs may have
changed, when its first pass finds both sides' checksums as they were."""

from __future__ import annotations

import pytest

from parity.algorithms.segment_state import SegmentState
from parity.pipelines.incremental import (
    HASHED_FIELDS,
    STATE_FIELDS,
    UNREAD_SCHEMA,
    VERDICT_FIELDS,
    Rerun,
    _checksums_since,
    _last_state,
    _segments_since,
    _why_compared,
    checksum_text,
    next_state,
    state_hash,
)
from parity.sides.fingerprints import InputFingerprint
from parity.values.keyspace import KeySpace
from parity.values.profile import Checksum, KeyCounts, Profile

FILES = InputFingerprint("files", "d" * 64, "3 files")
NONE = InputFingerprint.none("compared by its whole-table checksum")
STATE = {
    "config_hash": "c1",
    "tolerance_hash": "t1",
    "source_schema_hash": "s1",
    "target_schema_hash": "s2",
    "source_fingerprint": "files:" + "a" * 64,
    "target_fingerprint": "files:" + "b" * 64,
    "source_checksum": "rows 3, null keys 0, duplicate keys 0, compared 3, sum 17",
    "target_checksum": "rows 3, null keys 0, duplicate keys 0, compared 3, sum 18",
    "segment_checksums": "space 0 1024 1024 32 depth 1; 3 1 9 1 10",
    # Its verdict and counts, as the history gives them back (text): a pair that differs.
    **{name: "0" for name in VERDICT_FIELDS},
    "data_compared": "true",
    "passed": "false",
    "halted": "false",
    "keys_flagged": "false",
    "schema_compatible": "true",
    "source_rows": "3",
    "target_rows": "3",
    "value_mismatch_rows": "1",
    "mismatched_values": "1",
    "differing_rows": "1",
    "row_drift_pct": "0.000000",
}
CHECKSUMS = (STATE["source_checksum"], STATE["target_checksum"])


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


@pytest.mark.parametrize("field", [*HASHED_FIELDS, "run_id", "status"])
def test_a_state_whose_hash_does_not_match_is_corrupted(field):
    assert why(previous(**{field: "tampered"})) == (
        "its state is corrupted (its hash does not match it)"
    )


def test_a_result_edited_to_pass_is_corrupted():
    """The kept result of a pair that differs, edited by hand to pass, its state untouched."""
    edited = previous(passed="true", differing_rows="0")
    assert why(edited) == "its state is corrupted (its hash does not match it)"
    assert _last_state(edited, STATE) is None


@pytest.mark.parametrize("field", VERDICT_FIELDS)
def test_a_state_without_a_count_is_partial_but_a_null_count_is_not(field):
    last = previous()
    del last[field]
    assert why(last) == "its state is partial"
    # A pair whose data was not compared has NULL sizes and key counts, and its state is whole.
    last = {**previous(), field: None}
    last["state_hash"] = state_hash("r1", "complete", last)
    assert why(last) is None


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


def errored(status: str = "error", **changes) -> dict:
    """The state a result that is not complete left, its hash made with its changes."""
    last = {**STATE, "run_id": "r1", "status": status, **changes}
    last["state_hash"] = state_hash("r1", status, last)
    return last


def test_a_last_result_in_error_is_compared_again_and_says_why_it_failed():
    last = errored(status_reason="the source could not be connected to: password\nmore")
    assert why(last) == "its last run failed: the source could not be connected to: password"
    assert why(errored()) == "its last run failed"


def test_an_incomplete_last_result_is_compared_again():
    assert why(errored("incomplete", status_reason="1 segment(s) ...")) == (
        "its last result is incomplete"
    )


UNREAD = {"source_schema_hash": UNREAD_SCHEMA, "target_schema_hash": UNREAD_SCHEMA}


def test_after_a_run_that_could_not_plan_the_pair_only_its_failure_is_named():
    # That run's plan read no schema and resolved no tolerance: neither is a change.
    last = errored(status_reason="the connection failed", tolerance_hash="t0", **UNREAD)
    assert why(last) == "its last run failed: the connection failed"


def test_after_a_run_that_could_not_plan_the_pair_real_changes_are_named():
    last = errored(status_reason="the connection failed", tolerance_hash="t0", **UNREAD)
    now = {**STATE, "config_hash": "c2", "target_fingerprint": "files:" + "c" * 64}
    assert why(last, now) == (
        "its last run failed: the connection failed; its configuration changed;"
        " the target's inputs changed"
    )


def test_after_a_failure_of_a_planned_pair_every_change_is_named():
    last = errored(status_reason="Spark failed")
    assert why(last, {**STATE, "source_schema_hash": "s3"}) == (
        "its last run failed: Spark failed; the source's schema changed"
    )


def test_a_run_that_cannot_plan_the_pair_names_no_schema_nor_tolerance_change():
    now = {**STATE, **UNREAD, "tolerance_hash": "t0"}
    assert _why_compared(previous(), now, {"source": FILES, "target": FILES}, unplanned=True) == (
        "this run's plan could not plan it"
    )
    now["config_hash"] = "c2"
    assert _why_compared(previous(), now, {"source": FILES, "target": FILES}, unplanned=True) == (
        "this run's plan could not plan it; its configuration changed"
    )


def test_a_failed_or_incomplete_last_result_is_not_built_on():
    assert _last_state(errored(), STATE) is None
    assert _last_state(errored("incomplete"), STATE) is None


def test_no_state_says_why():
    assert why({"missing": "--full-refresh: every pair compared in full"}) == (
        "--full-refresh: every pair compared in full"
    )


def test_a_first_pass_is_kept_with_everything_the_result_depends_on():
    profile = Profile(Checksum(3, 17), 1, 9, KeyCounts(5, 3, 1, 1), 17)
    assert checksum_text(profile) == ("rows 5, null keys 1, duplicate keys 1, compared 3, sum 17")
    # The exact checksum of a side hashed on a tolerance's grid, not its tolerant one.
    tolerant = Profile(Checksum(3, 17), 1, 9, KeyCounts(5, 3, 1, 1), 23)
    assert checksum_text(tolerant).endswith("compared 3, sum 23")


def rerun(last: dict, now: dict | None = None) -> Rerun:
    now = now or STATE
    return Rerun("compared", "why", "r2", now, _checksums_since(_last_state(last, now)))


@pytest.mark.parametrize(
    "inputs",
    [
        {"source_fingerprint": ""},
        {"target_fingerprint": "files:" + "c" * 64},
    ],
)
def test_a_pair_whose_inputs_alone_changed_is_kept_when_its_checksums_are_found_again(inputs):
    kept = rerun(previous(), {**STATE, **inputs}).unchanged_by_checksums(CHECKSUMS)
    assert kept.unchanged
    assert kept.computed_run_id == "r1"
    assert kept.reason == (
        "unchanged since run r1: why, but both sides' whole-table checksums are that run's"
    )


def test_a_checksum_or_key_count_found_different_compares_the_pair():
    moved = (CHECKSUMS[0], CHECKSUMS[1].replace("sum 18", "sum 19"))
    assert rerun(previous()).unchanged_by_checksums(moved) is None
    counted = (CHECKSUMS[0].replace("null keys 0", "null keys 1"), CHECKSUMS[1])
    assert rerun(previous()).unchanged_by_checksums(counted) is None


@pytest.mark.parametrize(
    "last",
    [
        previous(source_checksum="tampered"),
        {**previous(), "status": "incomplete"},
        {"missing": "no earlier published result of the pair"},
    ],
)
def test_checksums_of_a_state_that_is_not_sound_keep_nothing(last):
    assert rerun(last).unchanged_by_checksums(CHECKSUMS) is None


@pytest.mark.parametrize(
    "field", ["config_hash", "tolerance_hash", "source_schema_hash", "target_schema_hash"]
)
def test_checksums_computed_under_another_configuration_or_schema_keep_nothing(field):
    assert rerun(previous(), {**STATE, field: "new"}).unchanged_by_checksums(CHECKSUMS) is None


def test_a_result_computed_by_joindiff_has_no_checksums_to_keep_it_by():
    last = {**STATE, "source_checksum": "", "target_checksum": "", "run_id": "r1"}
    last["status"] = "complete"
    last["state_hash"] = state_hash("r1", "complete", last)
    assert rerun(last).unchanged_by_checksums(("", "")) is None


def segments_since(last: dict, now: dict | None = None):
    return _segments_since(last, _checksums_since(_last_state(last, now or STATE)))


def test_the_segments_a_sound_state_kept_are_handed_on_with_its_run():
    run_id, segments = segments_since(previous())
    assert run_id == "r1"
    assert segments == SegmentState(
        KeySpace(0, 1024, 1024, 32), 1, {3: (Checksum(1, 9), Checksum(1, 10))}
    )


@pytest.mark.parametrize(
    ("last", "now"),
    [
        (previous(segment_checksums="space 0 1024 1024 32 depth 1; 4 1 9 1 11"), None),
        ({**previous(), "status": "incomplete"}, None),
        (previous(), {**STATE, "config_hash": "new"}),
        (previous(), {**STATE, "target_schema_hash": "new"}),
    ],
)
def test_segments_of_a_state_that_cannot_be_built_on_are_not_handed_on(last, now):
    assert segments_since(last, now) is None


def test_a_result_that_kept_no_segments_hands_none_on():
    last = {**STATE, "segment_checksums": "", "run_id": "r1", "status": "complete"}
    last["state_hash"] = state_hash("r1", "complete", last)
    assert segments_since(last) is None


def test_a_result_kept_by_its_checksums_is_fingerprinted_from_then_on():
    """Files rewritten with the same rows: kept by their checksums, and the next run, finding
    the files as this run fingerprinted them, keeps the result without reading them."""
    now = {**STATE, "target_fingerprint": "files:" + "c" * 64}
    last = previous()
    kept = _last_state(last, now)
    compared = Rerun("compared", "why", "r2", now, _checksums_since(kept), None, kept)
    state, hashed = next_state(compared.unchanged_by_checksums(CHECKSUMS), "r2", "complete", {})
    assert state["target_fingerprint"] == now["target_fingerprint"]
    # What the next run reads: r1's result, with this run's fingerprints and hash.
    following = {**last, "target_fingerprint": now["target_fingerprint"], "state_hash": hashed}
    assert why(following, now) is None
    assert why({**following, "source_checksum": "tampered"}, now) == (
        "its state is corrupted (its hash does not match it)"
    )


def test_a_result_kept_by_its_fingerprints_keeps_its_hash():
    last = _last_state(previous(), STATE)
    kept = Rerun("unchanged", "unchanged since run r1", "r1", STATE, last_state=last)
    assert next_state(kept, "r2", "complete", {})[1] == previous()["state_hash"]


def test_a_result_this_run_computed_keeps_its_own_state():
    own = {name: STATE[name] for name in HASHED_FIELDS if "fingerprint" not in name}
    state, hashed = next_state(Rerun("compared", "why", "r2", STATE), "r2", "complete", own)
    assert state == STATE and hashed == state_hash("r2", "complete", STATE)


def test_no_state_comes_first_when_the_plan_failed_too():
    missing = {"missing": "--full-refresh: every pair compared in full"}
    assert _why_compared(missing, STATE, {"source": FILES, "target": FILES}, unplanned=True) == (
        "--full-refresh: every pair compared in full; this run's plan could not plan it"
    )


def test_a_fingerprint_refused_in_one_run_is_no_change_of_inputs():
    # This run refused it (a PostgreSQL table while another session was active).
    refused = InputFingerprint.none("1 other session(s) of the database active")
    now = {**STATE, "source_fingerprint": ""}
    assert why(previous(), now, {"source": refused, "target": FILES}) == (
        "the source has no input fingerprint (1 other session(s) of the database active)"
    )
    # The last run refused it, this one has it.
    last = {**STATE, "source_fingerprint": "", "run_id": "r1", "status": "complete"}
    last["state_hash"] = state_hash("r1", "complete", last)
    assert why(last) == "the source had no input fingerprint in run r1"
    # Beside a real change, only the change is named.
    assert why(previous(), {**now, "config_hash": "c2"}, {"source": refused, "target": FILES}) == (
        "its configuration changed"
    )
