"""Whether a pair must be compared again, from its state: the last published result's hashes and
input fingerprints (the plan's `previous_state`) against this run's.

A pair is `unchanged`, and its last result stays published, only when every part of its state
is there, intact, and equal: the same configuration and tolerance, the same schema on both
sides, and both sides' inputs fingerprinted and unchanged. Anything else (no earlier result,
state missing, partial or corrupted, a side that cannot be fingerprinted, an error last time)
compares the pair in full, and says why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pyspark.sql import SparkSession

from parity.plan import PairPlan, canonical_hash
from parity.results.pair_result import PairResult
from parity.sides.fingerprints import InputFingerprint, input_fingerprint

# The state a result keeps for the next run's decision, in the order its hash covers them.
STATE_FIELDS = (
    "config_hash",
    "tolerance_hash",
    "source_schema_hash",
    "target_schema_hash",
    "source_fingerprint",
    "target_fingerprint",
)
# What each field's change means, for the reason of a pair compared again.
CHANGED = {
    "config_hash": "its configuration changed",
    "tolerance_hash": "its tolerance changed",
    "source_schema_hash": "the source's schema changed",
    "target_schema_hash": "the target's schema changed",
    "source_fingerprint": "the source's inputs changed",
    "target_fingerprint": "the target's inputs changed",
}


@dataclass(frozen=True)
class Rerun:
    """What this run does with a pair: compare it (`compared`) or keep its last result
    (`unchanged`, computed by ``computed_run_id``), and why."""

    mode: str
    reason: str
    computed_run_id: str
    # This run's state of the pair (STATE_FIELDS), kept with its result.
    state: dict[str, str]

    @property
    def unchanged(self) -> bool:
        return self.mode == "unchanged"


def fingerprint_text(fingerprint: InputFingerprint) -> str:
    """A fingerprint as the state keeps it: its kind and digest, or "" when there is none."""
    return f"{fingerprint.kind}:{fingerprint.digest}" if fingerprint.digest else ""


def state_hash(run_id: str, status: str, state: dict[str, str | None]) -> str:
    """sha256 of a result's state, with the run that computed it and its status: a state row
    whose fields no longer give its hash is corrupted."""
    return canonical_hash([run_id, status, *(state.get(name) for name in STATE_FIELDS)])


def kept(result: PairResult, rerun: Rerun) -> PairResult:
    """The result with what this run did with the pair, and the state the next run decides by
    (the state hash covers the result's own run and status)."""
    state = {"source_fingerprint": "", "target_fingerprint": "", **rerun.state}
    return replace(
        result,
        run_mode=rerun.mode,
        run_mode_reason=rerun.reason,
        computed_run_id=rerun.computed_run_id,
        source_fingerprint=state["source_fingerprint"],
        target_fingerprint=state["target_fingerprint"],
        state_hash=state_hash(result.run_id, result.status, {**_hashes(result), **state}),
    )


def _hashes(result: PairResult) -> dict[str, str]:
    """The configuration and schema hashes the result was computed under."""
    return {name: getattr(result, name) for name in STATE_FIELDS[:4]}


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
    reason = _why_compared(pair.previous_state, state, inputs)
    if reason is None:
        previous = pair.previous_state["run_id"]
        return Rerun("unchanged", f"unchanged since run {previous}", previous, state)
    return Rerun("compared", reason, pair.run_id, state)


def _why_compared(
    previous: dict[str, str | None], state: dict[str, str], inputs: dict[str, InputFingerprint]
) -> str | None:
    """Why the pair is compared again; None when its last result stands."""
    if "missing" in previous:
        return str(previous["missing"])
    if any(
        previous.get(name) is None for name in ("run_id", "status", "state_hash", *STATE_FIELDS)
    ):
        return "its state is partial"
    run_id, status = str(previous["run_id"]), str(previous["status"])
    if previous["state_hash"] != state_hash(run_id, status, previous):
        return "its state is corrupted (its hash does not match it)"
    if status != "complete":
        return f"its last result is not complete ({status})"
    changed = [CHANGED[name] for name in STATE_FIELDS if previous[name] != state[name]]
    if changed:
        return "; ".join(changed)
    for side, fingerprint in inputs.items():
        if not fingerprint.digest:
            return f"the {side} has no input fingerprint ({fingerprint.detail})"
    return None
