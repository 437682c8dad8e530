"""Whether a pair must be compared again, from its state: the last published result's hashes and
input fingerprints (the plan's `previous_state`) against this run's.

A pair is `unchanged`, and its last result stays published, only when every part of its state
is there, intact, and equal: the same configuration and tolerance, the same schema on both
sides, and both sides' inputs fingerprinted and unchanged. Anything else (no earlier result,
state missing, partial or corrupted, a side that cannot be fingerprinted, an error last time)
compares the pair in full, and says why.

Where only the inputs may have changed (a side without a fingerprint, such as a PostgreSQL
table, or files rewritten), hashdiff's first pass decides instead: when both sides' whole-table
checksums and key counts are those the last result was computed from, that result stands, and
the drill-down, the downloads and the history's new rows are saved (``unchanged_by_checksums``).
When they are not, the segments the last result found differing (``segments_since``) are
reused where the drill-down finds them again unchanged (pipelines/reused_differences.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pyspark.sql import SparkSession

from parity.algorithms.segment_state import SegmentState
from parity.plan import PairPlan, canonical_hash
from parity.results.pair_result import PairResult
from parity.sides.fingerprints import InputFingerprint, input_fingerprint
from parity.values.profile import Profile

# The state a result keeps for the next run's decision, in the order its hash covers them: what
# is known before a side is read...
DECISION_FIELDS = (
    "config_hash",
    "tolerance_hash",
    "source_schema_hash",
    "target_schema_hash",
    "source_fingerprint",
    "target_fingerprint",
)
# ...and what hashdiff's first passes read (checksum_text, and the differing cells of its first
# segment pass: SegmentState.text; "" where joindiff ran, or none ran, or none was kept).
CHECKSUM_FIELDS = ("source_checksum", "target_checksum", "segment_checksums")
STATE_FIELDS = (*DECISION_FIELDS, *CHECKSUM_FIELDS)
# The result's verdict and every published count it rests on: its hash covers them too, so a
# result edited by hand (passed, differing_rows) no longer matches it and is compared again.
# NULL where no data was compared, so only their absence makes a state partial.
VERDICT_FIELDS = (
    "data_compared",
    "passed",
    "halted",
    "keys_flagged",
    "schema_compatible",
    "source_rows",
    "target_rows",
    "missing_in_target_rows",
    "missing_in_source_rows",
    "value_mismatch_rows",
    "duplicate_in_source_rows",
    "duplicate_in_target_rows",
    "within_tolerance_rows",
    "mismatched_values",
    "within_tolerance_values",
    "differing_rows",
    "schema_findings",
    "row_drift_pct",
    "source_null_keys",
    "source_duplicate_keys",
    "target_null_keys",
    "target_duplicate_keys",
)
HASHED_FIELDS = (*STATE_FIELDS, *VERDICT_FIELDS)
# The fields of the state that a pair's result holds itself (the rest come from this run's
# fingerprints).
RESULT_FIELDS = (*DECISION_FIELDS[:4], *CHECKSUM_FIELDS)
FINGERPRINT_FIELDS = DECISION_FIELDS[4:]
# What each field's change means, for the reason of a pair compared again.
CHANGED = {
    "config_hash": "its configuration changed",
    "tolerance_hash": "its tolerance changed",
    "source_schema_hash": "the source's schema changed",
    "target_schema_hash": "the target's schema changed",
    "source_fingerprint": "the source's inputs changed",
    "target_fingerprint": "the target's inputs changed",
}
# What a plan that could not plan a pair (its `problem`: a side it could not read) still knows of
# it: its configuration and its inputs, not its schemas, nor the tolerance resolved against them.
KNOWN_UNPLANNED = ("config_hash", "source_fingerprint", "target_fingerprint")
# The schema hash of such a plan's side: no columns, which no relation read has.
UNREAD_SCHEMA = canonical_hash([])


@dataclass(frozen=True)
class Rerun:
    """What this run does with a pair: compare it (`compared`) or keep its last result
    (`unchanged`, computed by ``computed_run_id``), and why."""

    mode: str
    reason: str
    computed_run_id: str
    # This run's state of the pair (DECISION_FIELDS), kept with its result.
    state: dict[str, str]
    # Where only the pair's inputs may have changed: the last result's run and its sides'
    # checksums (CHECKSUM_FIELDS), which the first pass may find again.
    checksums_since: tuple[str, tuple[str, str]] | None = None
    # And where that result kept the differing cells of its first segment pass: its run and
    # those cells, which the drill-down may find again unchanged.
    segments_since: tuple[str, SegmentState] | None = None
    # The last result's state (STATE_FIELDS, with its run_id and status) where it is sound and
    # computed under this configuration, tolerance and schemas: what a kept result keeps.
    last_state: dict[str, str | None] | None = None

    @property
    def unchanged(self) -> bool:
        return self.mode == "unchanged"

    def unchanged_by_checksums(self, checksums: tuple[str, str]) -> Rerun | None:
        """The pair kept after all, when its first pass found both sides' checksums and key
        counts as they were when its last result was computed."""
        if self.checksums_since is None or checksums != self.checksums_since[1]:
            return None
        since = self.checksums_since[0]
        reason = (
            f"unchanged since run {since}: {self.reason}, but both sides' whole-table checksums"
            " are that run's"
        )
        return replace(self, mode="unchanged", reason=reason, computed_run_id=since)


def checksum_text(profile: Profile) -> str:
    """A side's first pass as the state keeps it: everything a result computed from the side
    depends on (its exact checksum, and its key counts, which the checksum does not cover). The
    exact checksum, not the tolerant one: a value moved within tolerance leaves a tolerant
    checksum as it was, and changes what the result says of it."""
    counts = profile.counts
    return (
        f"rows {counts.rows}, null keys {counts.null_keys}, duplicate keys"
        f" {counts.duplicate_keys}, compared {profile.checksum.rows}, sum {profile.exact_total}"
    )


def fingerprint_text(fingerprint: InputFingerprint) -> str:
    """A fingerprint as the state keeps it: its kind and digest, or "" when there is none."""
    return f"{fingerprint.kind}:{fingerprint.digest}" if fingerprint.digest else ""


def verdict_text(result: PairResult) -> dict[str, str | None]:
    """A result's verdict and counts (VERDICT_FIELDS) as the next run reads them back from the
    history, cast to text by Spark (macros/plan/previous_states.sql): booleans `true`/`false`,
    integers in decimal, the drift with its 6 decimals, NULL as None."""
    texts: dict[str, str | None] = {}
    for name in VERDICT_FIELDS:
        value = getattr(result, name)
        if value is None:
            texts[name] = None
        elif isinstance(value, bool):
            texts[name] = str(value).lower()
        elif name == "row_drift_pct":
            texts[name] = f"{value:.6f}"
        else:
            texts[name] = str(int(value))
    return texts


def state_hash(run_id: str, status: str, state: dict[str, str | None]) -> str:
    """sha256 of a result's state and verdict, with the run that computed it and its status: a
    state row whose fields no longer give its hash is corrupted."""
    return canonical_hash([run_id, status, *(state.get(name) for name in HASHED_FIELDS)])


def kept(result: PairResult, rerun: Rerun) -> PairResult:
    """The result with what this run did with the pair, and the state the next run decides by
    (next_state)."""
    own = {**{name: getattr(result, name) for name in RESULT_FIELDS}, **verdict_text(result)}
    state, hashed = next_state(rerun, result.run_id, result.status, own)
    return replace(
        result,
        run_mode=rerun.mode,
        run_mode_reason=rerun.reason,
        computed_run_id=rerun.computed_run_id,
        source_fingerprint=state["source_fingerprint"],
        target_fingerprint=state["target_fingerprint"],
        state_hash=hashed,
    )


def next_state(
    rerun: Rerun, run_id: str, status: str, own: dict[str, str | None]
) -> tuple[dict[str, str | None], str]:
    """The state a pair's row of this run leaves the next, and its hash: this run's fingerprints,
    and the rest of the state of the result published for the pair, the hash covering that
    result's run and status. That is the result's own state (``own``, RESULT_FIELDS and
    VERDICT_FIELDS) where this
    run computed it, else the kept result's. The next run reads the fingerprints and the hash
    from this run's row of parity_run_pairs (macros/plan/previous_states.sql), so inputs
    rewritten with the same rows, kept by their checksums, are fingerprinted from then on
    instead of read again every run."""
    state: dict[str, str | None] = {
        "source_fingerprint": "",
        "target_fingerprint": "",
        **rerun.state,
    }
    if rerun.unchanged and rerun.last_state is not None:
        last = rerun.last_state
        state = {**last, **{name: state[name] for name in FINGERPRINT_FIELDS}}
        return state, state_hash(last["run_id"], last["status"], state)
    state.update(own)
    return state, state_hash(run_id, status, state)


def decide(spark: SparkSession, pair: PairPlan) -> Rerun:
    inputs = {side.side: input_fingerprint(spark, side) for side in (pair.source, pair.target)}
    state = {
        "config_hash": pair.config_hash,
        "tolerance_hash": pair.tolerance_hash,
        "source_schema_hash": pair.source.schema_hash,
        "target_schema_hash": pair.target.schema_hash,
        "source_fingerprint": fingerprint_text(inputs["source"]),
        "target_fingerprint": fingerprint_text(inputs["target"]),
    }
    previous = pair.previous_state
    reason = _why_compared(previous, state, inputs, unplanned=bool(pair.problem))
    last = _last_state(previous, state)
    if reason is None:
        since = str(previous["run_id"])
        return Rerun("unchanged", f"unchanged since run {since}", since, state, last_state=last)
    checksums = _checksums_since(last)
    segments = _segments_since(previous, checksums)
    return Rerun("compared", reason, pair.run_id, state, checksums, segments, last)


def _why_compared(
    previous: dict[str, str | None],
    state: dict[str, str],
    inputs: dict[str, InputFingerprint],
    unplanned: bool = False,
) -> str | None:
    """Why the pair is compared again; None when its last result stands. Each reason holds: a
    part of the state is named changed only where both runs knew it (``unplanned``: this run's
    plan could not plan the pair, so its schemas and tolerance are unknown, not changed)."""
    failed_plan = ["this run's plan could not plan it"] if unplanned else []
    problem = _state_problem(previous)
    if problem is not None:
        return "; ".join([problem, *failed_plan])
    reasons = [] if previous["status"] == "complete" else [_last_outcome(previous)]
    reasons += failed_plan
    known = KNOWN_UNPLANNED if unplanned or _unplanned(previous) else DECISION_FIELDS
    # Inputs changed only where both runs fingerprinted them: a fingerprint refused in one run
    # (a PostgreSQL table while another session was active) is no change.
    reasons += [
        CHANGED[name]
        for name in known
        if previous[name] != state[name]
        and (name not in FINGERPRINT_FIELDS or (previous[name] and state[name]))
    ]
    if reasons:
        return "; ".join(reasons)
    for side, fingerprint in inputs.items():
        if not fingerprint.digest:
            return f"the {side} has no input fingerprint ({fingerprint.detail})"
        if not previous[f"{side}_fingerprint"]:
            return f"the {side} had no input fingerprint in run {previous['run_id']}"
    return None


def _unplanned(previous: dict[str, str | None]) -> bool:
    """Whether the last result's run could not plan the pair: no schema of its sides was read."""
    return UNREAD_SCHEMA in (previous["source_schema_hash"], previous["target_schema_hash"])


def _last_outcome(previous: dict[str, str | None]) -> str:
    """What a last result that is not complete was: an error with its reason's first line (as
    published: parity_run_results.status_reason), or incomplete."""
    if previous["status"] != "error":
        return f"its last result is {previous['status']}"
    reason = str(previous.get("status_reason") or "").strip().splitlines()
    return f"its last run failed: {reason[0]}" if reason else "its last run failed"


def _state_problem(previous: dict[str, str | None]) -> str | None:
    """Why the last result's state cannot be trusted: missing, partial or corrupted; None when
    it can."""
    if "missing" in previous:
        return str(previous["missing"])
    if any(
        previous.get(name) is None for name in ("run_id", "status", "state_hash", *STATE_FIELDS)
    ) or any(name not in previous for name in VERDICT_FIELDS):
        return "its state is partial"
    run_id, status = str(previous["run_id"]), str(previous["status"])
    if previous["state_hash"] != state_hash(run_id, status, previous):
        return "its state is corrupted (its hash does not match it)"
    return None


def _last_state(
    previous: dict[str, str | None], state: dict[str, str]
) -> dict[str, str | None] | None:
    """The last result's state and verdict, with its run and status, where it can be built on:
    sound, and computed under this configuration, tolerance and schemas (only its inputs may
    differ)."""
    if _state_problem(previous) is not None or previous["status"] != "complete":
        return None
    if any(previous[name] != state[name] for name in DECISION_FIELDS[:4]):
        return None
    kept = {name: str(previous[name]) for name in ("run_id", "status", *STATE_FIELDS)}
    return {**kept, **{name: previous[name] for name in VERDICT_FIELDS}}


def _checksums_since(last: dict[str, str] | None) -> tuple[str, tuple[str, str]] | None:
    """The last result's run and checksums, where that result stands if the sides' checksums
    are found again: its state can be built on (``last``, _last_state's), and it was computed
    by a first pass with checksums (hashdiff's)."""
    if last is None:
        return None
    checksums = (last["source_checksum"], last["target_checksum"])
    return (last["run_id"], checksums) if all(checksums) else None


def _segments_since(
    previous: dict[str, str | None], checksums: tuple[str, tuple[str, str]] | None
) -> tuple[str, SegmentState] | None:
    """The last result's run and the differing segments it kept, where its checksums could be
    built on (_checksums_since) and it kept any."""
    if checksums is None:
        return None
    segments = SegmentState.parse(str(previous["segment_checksums"]))
    return None if segments is None else (checksums[0], segments)
