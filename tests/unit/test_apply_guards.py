"""Each guard rail of an apply refuses, in order, naming why and what to do; a published,
complete result within the pair's max_corrections is applied."""

from __future__ import annotations

import pytest

from parity.plan import pairs_from_rows
from parity.sync.guards import Planned, max_corrections, refusal
from tests.plan_factory import plan_row

SYNC = {"direction": "source_to_target", "max_corrections": "1%", "apply_connection_env": "W"}


def planned_pair(sensitive_columns=(), **sync):
    config = {
        "name": "p",
        "sensitive": False,
        "sensitive_columns": list(sensitive_columns),
        "sync": {**SYNC, **sync},
    }
    return pairs_from_rows([plan_row("p", config)])[0]


PAIR = planned_pair()
PUBLISHED = {
    "run_id": "r1",
    "status": "complete",
    "status_reason": "",
    "halted": False,
    "data_compared": True,
    "config_hash": PAIR.config_hash,
    "source_rows": 1000,
    "target_rows": 500,
}


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        (None, "no published run has a result for it: build the project first"),
        (
            {"status": "error", "status_reason": "the source is unreachable"},
            "its published result (run r1) is error, not complete: the source is unreachable",
        ),
        (
            {"status": "incomplete", "status_reason": "stopped"},
            "its published result (run r1) is incomplete",
        ),
        ({"halted": True}, "its published comparison (run r1) was halted"),
        ({"data_compared": False}, "its schema contract failed in run r1: no row was compared"),
        ({"config_hash": "another"}, "its configuration changed since run r1"),
    ],
)
def test_a_result_an_apply_must_not_trust_is_refused(changes, reason):
    published = None if changes is None else {**PUBLISHED, **changes}
    assert refusal(PAIR, published, Planned(1), force=True).startswith(reason)


def test_a_sensitive_key_is_refused_even_when_forced():
    hidden = planned_pair(sensitive_columns=["id"])
    reason = refusal(hidden, {**PUBLISHED, "config_hash": hidden.config_hash}, Planned(1), True)
    assert reason.startswith("its key is sensitive")


def test_max_corrections_is_a_share_of_the_corrected_sides_rows_or_a_count():
    # 1% of the target's 500 rows; of the source's 1,000 when the source is corrected.
    assert max_corrections(PAIR, PUBLISHED) == 5
    assert max_corrections(planned_pair(direction="target_to_source"), PUBLISHED) == 10
    assert max_corrections(planned_pair(max_corrections=7), PUBLISHED) == 7
    assert refusal(PAIR, PUBLISHED, Planned(2, 2, 1), force=False) == ""
    assert refusal(PAIR, PUBLISHED, Planned(2, 2, 2), force=False) == (
        "6 rows to correct, more than its max_corrections (1%: 5 rows): set force to apply them"
    )
    assert refusal(PAIR, PUBLISHED, Planned(2, 2, 2), force=True) == ""
