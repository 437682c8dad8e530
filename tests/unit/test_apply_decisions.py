"""What one correction does to the rows its key holds now, the same for every writer:
compare-and-set on the before-image; an insert only where the key was and is absent; what an
earlier apply or a writer did since told apart from what is still to do. A key held more than
once: its corrections decided together over its rows on both sides, copies counted."""

from __future__ import annotations

import json

from parity.plan import pairs_from_rows
from parity.sync.decisions import (
    CONFLICT,
    DELETE,
    INSERT,
    UNCHANGED,
    UPDATE,
    CorrectedColumns,
    Decision,
    decide,
    decide_key,
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


def correction(operation: str, copies: int = 1, whole_key: bool = False, **images) -> dict:
    return {
        "key": "7",
        "operation": operation,
        "copies": copies,
        "whole_key": whole_key,
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


def test_a_delete_takes_every_copy_of_a_key_the_right_side_lacks():
    delete = correction("delete", copies=2, before=PUBLISHED_ROW)
    assert decide(COLUMNS, delete, [(10, ROW), (11, ROW)]) == Decision(DELETE, (10, 11), copies=2)
    assert decide(COLUMNS, delete, []).action == UNCHANGED
    # A copy more or less than the run saw: a writer's since.
    assert decide(COLUMNS, delete, [(10, ROW)]).action == CONFLICT
    assert decide(COLUMNS, delete, [(10, ROW), (11, ROW), (12, ROW)]).action == CONFLICT


def test_an_insert_goes_only_where_the_key_is_absent():
    insert = correction("insert", copies=2, new=ROW)
    assert decide(COLUMNS, insert, []) == Decision(INSERT, (), {"a": 1, "b": "x"}, 2)
    assert decide(COLUMNS, insert, [(10, ROW), (11, ROW)]).action == UNCHANGED
    assert decide(COLUMNS, insert, [(10, ROW)]).action == CONFLICT
    assert decide(COLUMNS, insert, [(10, {"a": "5", "b": "x"})]).action == CONFLICT


OTHER = {"a": "2", "b": "y"}


def whole(operation: str, copies: int = 1, **images) -> dict:
    return correction(operation, copies, whole_key=True, **images)


def actions(decisions: list[Decision]) -> list[tuple[str, tuple, int]]:
    return [(d.action, d.rows, d.copies) for d in decisions]


def test_an_extra_copy_of_a_key_held_is_inserted_once():
    # The right side holds ROW three times and OTHER once; the corrected side, ROW and OTHER.
    right = [ROW, ROW, ROW, OTHER]
    extra = whole("insert", copies=2, new={"a": "1"})  # b is hidden: not in the new values
    decided = decide_key(COLUMNS, [extra], [(10, ROW), (11, OTHER)], right)
    assert actions(decided) == [(INSERT, (), 2)]
    # The whole row, hidden value included, read from the right side.
    assert decided[0].values == {"a": 1, "b": "x"}
    # Applied already: nothing to do; a copy a writer added since (or took away): a conflict.
    done = [(10, ROW), (11, OTHER), (12, ROW), (13, ROW)]
    assert actions(decide_key(COLUMNS, [extra], done, right)) == [(UNCHANGED, (), 0)]
    added = [(10, ROW), (11, OTHER), (12, ROW)]
    assert actions(decide_key(COLUMNS, [extra], added, right)) == [(CONFLICT, (), 0)]
    assert actions(decide_key(COLUMNS, [extra], [(11, OTHER)], right)) == [(CONFLICT, (), 0)]


def test_copies_beyond_the_right_sides_are_deleted_once():
    delete = whole("delete", copies=2, before=PUBLISHED_ROW)
    held = [(10, ROW), (11, ROW), (12, ROW)]
    # The first copy stays: it matches the right side's.
    assert actions(decide_key(COLUMNS, [delete], held, [ROW])) == [(DELETE, (11, 12), 2)]
    # A second apply finds the key as the right side holds it: it deletes nothing more.
    assert actions(decide_key(COLUMNS, [delete], [(12, ROW)], [ROW])) == [(UNCHANGED, (), 0)]
    # The right side changed since the run: the rows to change are not the run's.
    assert actions(decide_key(COLUMNS, [delete], held, [OTHER])) == [(CONFLICT, (), 0)]


def test_a_value_mismatch_in_a_key_held_twice_is_a_delete_and_an_insert():
    changed = {"a": "3", "b": "x"}
    update = whole("update", new={"a": "3"}, before={"a": "1"})
    extra = whole("insert", new={"a": "2"})
    held = [(10, ROW), (11, OTHER)]
    decided = decide_key(COLUMNS, [update, extra], held, [changed, OTHER, OTHER])
    assert actions(decided) == [(DELETE, (10,), 1), (INSERT, (), 1), (INSERT, (), 1)]
    assert [d.values for d in decided[1:]] == [{"a": 3, "b": "x"}, {"a": 2, "b": "y"}]
    # Several pairs of its rows differ in one column: which values go together is not published.
    unknown = whole("update")
    assert actions(decide_key(COLUMNS, [unknown], held, [changed, OTHER])) == [(CONFLICT, (), 0)]


def test_different_rows_of_a_key_the_other_side_lacks_go_in_together():
    inserts = [whole("insert", new={"a": "1"}), whole("insert", new={"a": "2"})]
    decided = decide_key(COLUMNS, inserts, [], [ROW, OTHER])
    assert actions(decided) == [(INSERT, (), 1), (INSERT, (), 1)]
    done = [(10, ROW), (11, OTHER)]
    assert actions(decide_key(COLUMNS, inserts, done, [ROW, OTHER])) == [(UNCHANGED, (), 0)]
    published_other = {"a": "2", "b": hashed("y")}
    deletes = [whole("delete", before=PUBLISHED_ROW), whole("delete", before=published_other)]
    assert actions(decide_key(COLUMNS, deletes, done, [])) == [(DELETE, (10, 11), 2)]
