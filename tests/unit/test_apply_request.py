"""The `parity_apply` var, read as a request: which pairs, whether to write, whether to force;
anything else refused with what is wrong."""

from __future__ import annotations

import json

import pytest

from parity.sync.request import ApplyRequest, RequestError, read_request


def test_a_dry_run_of_one_pair_is_the_default():
    assert read_request(json.dumps({"pair": "orders"})) == ApplyRequest(("orders",))


def test_several_pairs_once_each_in_their_order():
    asked = {"pairs": ["b", "a", "b"], "write": True, "force": True, "undo": True}
    assert read_request(json.dumps(asked)) == ApplyRequest(("b", "a"), True, True, True)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "parity_apply: must be a mapping of pair, pairs, write, force, undo, not null"),
        ({"pairs": []}, "parity_apply: name the pair to correct"),
        ({"pair": ""}, "parity_apply: name the pair to correct"),
        ({"pair": "p", "write": "yes"}, "parity_apply: 'write' must be true or false, not 'yes'"),
        ({"pair": "p", "redo": True}, "parity_apply: unknown option 'redo' (allowed: pair,"),
        ({"pair": "p", "undo": 1}, "parity_apply: 'undo' must be true or false, not 1"),
    ],
)
def test_anything_else_is_refused_naming_what_is_wrong(value, message):
    with pytest.raises(RequestError) as refused:
        read_request(json.dumps(value))
    assert str(refused.value).startswith(message)
