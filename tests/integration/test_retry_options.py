"""A pair's `retries` and `retry_seconds`: checked when the plan is rendered, with an error that
names the pair, the option and the value; their defaults are in every plan (test_faults.py)."""

from __future__ import annotations

import pytest

from tests.integration.dbt_project_copy import error_text

GOOD = {
    "name": "p",
    "source": {"ref": "legacy_orders"},
    "target": {"ref": "lakehouse_orders"},
    "key": "order_id",
}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"retries": -1},
            "parity pair 'p': retries must be a whole number of at least 0, not '-1'",
        ),
        (
            {"retries": 2.5},
            "parity pair 'p': retries must be a whole number of at least 0, not '2.5'",
        ),
        (
            {"retry_seconds": 0},
            "parity pair 'p': retry_seconds must be a number of seconds above 0, not '0'",
        ),
        (
            {"retry_seconds": "soon"},
            "parity pair 'p': retry_seconds must be a number of seconds above 0, not 'soon'",
        ),
    ],
    ids=["negative retries", "fractional retries", "no time", "not a number"],
)
def test_bad_retry_options_name_pair_and_problem(scratch, options, message):
    result = scratch.dbt(
        "run",
        "--select",
        "parity_remote_relations parity_remote_columns parity_plan",
        vars=scratch.demo_vars(parity={"pairs": [{**GOOD, **options}]}),
    )
    assert not result.success
    assert message in error_text(result)
