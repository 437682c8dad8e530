import hashlib
import json

from parity.plan import config_hash, pairs_from_rows
from tests.plan_factory import SIDES, plan_row


def test_config_hash_ignores_key_order_and_whitespace():
    a = {"name": "p", "key": ["id"], "bisection_factor": 32}
    b = json.loads('{ "bisection_factor": 32, "key": ["id"], "name": "p" }')
    assert config_hash(a) == config_hash(b)
    canonical = '{"bisection_factor":32,"key":["id"],"name":"p"}'
    assert config_hash(a) == hashlib.sha256(canonical.encode()).hexdigest()


def test_how_a_pair_is_corrected_is_not_part_of_how_it_was_compared():
    """A pair's sync options change no result: a result kept across a change of them is still
    the pair's (its config_hash is the same)."""
    a = {"name": "p", "key": ["id"], "sync": {"direction": "source_to_target"}}
    b = {"name": "p", "key": ["id"], "sync": {"direction": "target_to_source"}}
    assert config_hash(a) == config_hash(b) == config_hash({"name": "p", "key": ["id"]})
    assert config_hash(a) != config_hash({"name": "p", "key": ["id", "region"]})


def test_rows_group_into_pairs_sorted_by_name():
    config = {"algorithm": "auto", "bisection_factor": 32, "bisection_threshold": 16384}
    pairs = pairs_from_rows([plan_row("b", config), plan_row("a", config)])
    assert [p.name for p in pairs] == ["a", "b"]
    assert pairs[0].source.relation_name == "db.source" and pairs[0].target.column_names == (
        "a",
        "b",
    )
    assert pairs[0].bisection_threshold == 16384


def test_schema_hash_is_the_sha256_of_the_canonical_snapshot():
    config = {"algorithm": "auto", "bisection_factor": 32, "bisection_threshold": 16384}
    snapshot = [{"ordinal": 0, "column_name": "id", "data_type": "bigint", "nullable": False}]
    rows = [
        {
            **plan_row("p", config),
            **{f"{side}_schema_snapshot": json.dumps(snapshot, indent=2) for side in SIDES},
        }
    ]
    (pair,) = pairs_from_rows(rows)
    canonical = '[{"column_name":"id","data_type":"bigint","nullable":false,"ordinal":0}]'
    assert pair.source.schema_hash == hashlib.sha256(canonical.encode()).hexdigest()


def test_rejected_findings_stop_the_pair_and_failing_ones_fail_it():
    config = {"algorithm": "auto", "bisection_factor": 32, "bisection_threshold": 16384}
    finding = {"kind": "column_missing_in_source", "column_name": "x", "fails": False}
    rows = [
        {**plan_row("p", config), "schema_findings": json.dumps([{**finding, "rejected": False}])}
    ]
    (within_tolerance,) = pairs_from_rows(rows)
    assert within_tolerance.schema_compatible and not within_tolerance.schema_failed
    for row in rows:
        row["schema_findings"] = json.dumps([{**finding, "fails": True, "rejected": True}])
    (rejected,) = pairs_from_rows(rows)
    assert not rejected.schema_compatible and rejected.schema_failed


def test_a_file_view_and_a_problem_read_back():
    config = {"algorithm": "auto", "bisection_factor": 32, "bisection_threshold": 16384}
    view = {
        "view": "__parity_files_0123456789abcdef",
        "format": "parquet",
        "path": "/data/u",
        "schema": "id INT,u BINARY",
        "uuid_columns": ["u"],
    }
    row = {**plan_row("p", config), "source_file_view": json.dumps(view), "problem": "why"}
    (pair,) = pairs_from_rows([row])
    assert pair.source.file_view.as_plan() == view and pair.source.file_view.uuid_columns == ("u",)
    assert pair.target.file_view is None and pair.problem == "why"


def test_warnings_read_back_in_order():
    config = {"algorithm": "auto", "bisection_factor": 32, "bisection_threshold": 16384}
    said = ["source relation public.t: role r may write it (INSERT)", "target relation db.t: ..."]
    (pair,) = pairs_from_rows([{**plan_row("p", config), "warnings": json.dumps(said)}])
    assert pair.warnings == tuple(said)
    (quiet,) = pairs_from_rows([plan_row("q", config)])
    assert quiet.warnings == ()
