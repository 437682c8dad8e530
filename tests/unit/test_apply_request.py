"""The `parity_apply` var, read as a request: which pairs, whether to write, whether to force;
anything else refused with what is wrong."""

from __future__ import annotations

import json

import pytest

from parity.sync.request import ApplyRequest, RequestError, read_request


def test_a_dry_run_of_one_pair_is_the_default():
    assert read_request(json.dumps({"pair": "orders"})) == ApplyRequest(("orders",))


def test_several_pairs_once_each_in_their_order():
    asked = {"pairs": ["b", "a", "b"], "write": True, "force": True}
    assert read_request(json.dumps(asked)) == ApplyRequest(("b", "a"), True, True)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "parity_apply: must be a mapping of pair, pairs, write, force, not null"),
        ({"pairs": []}, "parity_apply: name the pair to correct"),
        ({"pair": ""}, "parity_apply: name the pair to correct"),
        ({"pair": "p", "write": "yes"}, "parity_apply: 'write' must be true or false, not 'yes'"),
        ({"pair": "p", "undo": True}, "parity_apply: unknown option 'undo' (allowed: pair,"),
    ],
)
def test_anything_else_is_refused_naming_what_is_wrong(value, message):
    with pytest.raises(RequestError) as refused:
        read_request(json.dumps(value))
    assert str(refused.value).startswith(message)
