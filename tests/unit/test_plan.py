import hashlib
import json

from parity.plan import config_hash, pairs_from_rows


def side_row(pair, side, config):
    return {
        "pair_name": pair,
        "side": side,
        "dialect": "spark",
        "connection_env": "",
        "relation_name": f"db.{side}",
        "canonical_sql": "select 1",
        "checksum_sql": "sum(1)",
        "cell_sql": "",
        "key_names": json.dumps(["id"]),
        "column_names": json.dumps(["a", "b"]),
        "config_json": json.dumps(config),
    }


def test_config_hash_ignores_key_order_and_whitespace():
    a = {"name": "p", "key": ["id"], "bisection_factor": 32}
    b = json.loads('{ "bisection_factor": 32, "key": ["id"], "name": "p" }')
    assert config_hash(a) == config_hash(b)
    canonical = '{"bisection_factor":32,"key":["id"],"name":"p"}'
    assert config_hash(a) == hashlib.sha256(canonical.encode()).hexdigest()


def test_rows_group_into_pairs_sorted_by_name():
    config = {"algorithm": "auto", "bisection_factor": 32, "bisection_threshold": 16384}
    rows = [side_row("b", "target", config), side_row("a", "source", config)]
    rows += [side_row("b", "source", config), side_row("a", "target", config)]
    pairs = pairs_from_rows(rows)
    assert [p.name for p in pairs] == ["a", "b"]
    assert pairs[0].source.relation_name == "db.source" and pairs[0].target.column_names == (
        "a",
        "b",
    )
    assert pairs[0].bisection_threshold == 16384
