"""What one correction does to the rows its key holds now, the same for every writer:
compare-and-set on the before-image; an insert only where the key was and is absent; what an
earlier apply or a writer did since told apart from what is still to do."""

from __future__ import annotations

import json

from parity.plan import pairs_from_rows
from parity.sync.decisions import (
    CONFLICT,
    DELETE,
    EXTRA_COPY,
    INSERT,
    UNCHANGED,
    UPDATE,
    CorrectedColumns,
    Decision,
    decide,
)
from parity.values.masking import hashed
from tests.plan_factory import plan_row

PROFILES = json.dumps([{"kind": "integer"}, {"kind": "integer"}, {"kind": "string"}])
PAIR = pairs_from_rows(
    [
        plan_row(
            "p",
            {"name": "p", "sensitive": False, "sensitive_columns": ["b"]},
            target_column_profiles=PROFILES,
        )
    ]
)[0]
COLUMNS = CorrectedColumns(PAIR, PAIR.target)
ROW = {"a": "1", "b": "x"}
# As the run publishes it: the sensitive b by its hash.
PUBLISHED_ROW = {"a": "1", "b": hashed("x")}


def correction(operation: str, copies: int = 1, key_held: bool = True, **images) -> dict:
    return {
        "key": "7",
        "operation": operation,
        "copies": copies,
        "key_held": key_held,
        "new_values": json.dumps(images["new"]) if "new" in images else None,
        "before_image": json.dumps(images["before"]) if "before" in images else None,
    }


def test_an_update_changes_the_one_row_holding_the_before_image():
    update = correction("update", new={"a": "2"}, before={"a": "1"})
    assert decide(COLUMNS, update, [(10, ROW)]) == Decision(UPDATE, (10,), {"a": 2}, 1)
    # Done before (by an earlier apply or a writer): unchanged; changed otherwise: a conflict.
    assert decide(COLUMNS, update, [(10, {"a": "2", "b": "x"})]).action == UNCHANGED
    assert decide(COLUMNS, update, [(10, {"a": "3", "b": "x"})]).action == CONFLICT
    assert decide(COLUMNS, update, []).action == CONFLICT


def test_a_hidden_value_is_compared_by_its_hash():
    hidden = correction("update", new={"b": "y"}, before={"b": "sha256:" + "0" * 64})
    assert decide(COLUMNS, hidden, [(10, ROW)]).action == CONFLICT
    matching = correction("update", new={"b": "y"}, before={"b": hashed("x")})
    assert decide(COLUMNS, matching, [(10, ROW)]) == Decision(UPDATE, (10,), {"b": "y"}, 1)


def test_a_delete_takes_as_many_copies_as_the_run_saw_beyond_the_other_side():
    delete = correction("delete", copies=2, before=PUBLISHED_ROW)
    held = [(10, ROW), (11, ROW), (12, ROW)]
    assert decide(COLUMNS, delete, held) == Decision(DELETE, (10, 11), copies=2)
    assert decide(COLUMNS, delete, []).action == UNCHANGED
    assert decide(COLUMNS, delete, [(10, ROW)]).action == CONFLICT


def test_an_insert_goes_only_where_the_key_is_absent():
    insert = correction("insert", copies=2, key_held=False, new=ROW)
    assert decide(COLUMNS, insert, []) == Decision(INSERT, (), {"a": 1, "b": "x"}, 2)
    assert decide(COLUMNS, insert, [(10, ROW), (11, ROW)]).action == UNCHANGED
    assert decide(COLUMNS, insert, [(10, {"a": "5", "b": "x"})]).action == CONFLICT


def test_an_extra_copy_of_a_key_held_is_not_taken_for_done():
    extra = correction("insert", key_held=True, new=ROW)
    assert decide(COLUMNS, extra, [(10, ROW)]).action == EXTRA_COPY
    assert decide(COLUMNS, extra, []).action == EXTRA_COPY
