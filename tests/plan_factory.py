"""Plans for tests, from one factory: a row of parity_plan as its macros write it (every column
models/plan/parity_plan.sql lists: tests/unit/test_contracts.py holds the two together), and a
side's plan whose every field has a default that a test overrides by name."""

from __future__ import annotations

import json
from typing import Any

from parity.plan import SidePlan

SIDES = ("source", "target")


def side_columns(side: str) -> dict[str, str]:
    """One side's columns of a plan row: a Spark table keyed by `id`, with columns a and b."""
    columns = {
        "dialect": "spark",
        "in_session": "true",
        "connection_env": "",
        "statement_timeout_seconds": "",
        "allowed_paths": "[]",
        "connections": "1",
        "relation_name": f"db.{side}",
        "canonical_sql": "select 1",
        "native_sql": "select 2",
        "checksum_sql": "sum(1)",
        "exact_checksum_sql": "sum(2)",
        "fingerprint": "",
        "profile_sql": "",
        "blocks_sql": "",
        "bounds_sql": "",
        "blocks_between_sql": "",
        "duplicates_sql": "",
        "duplicate_examples_sql": "",
        "checksums_sql": "",
        "rows_sql": "",
        "rows_of_keys_sql": "",
        "key_names": json.dumps(["id"]),
        "column_names": json.dumps(["a", "b"]),
        "column_profiles": "[]",
        "canonical_columns": "[]",
        "schema_snapshot": "[]",
        "file_view": "",
    }
    return {f"{side}_{name}": value for name, value in columns.items()}


def plan_row(pair: str, config: dict[str, Any], **columns: str) -> dict[str, str]:
    """One row of parity_plan: the pair's columns, then each side's; ``columns`` replace them."""
    return {
        "run_id": "run",
        "pair_name": pair,
        "algorithm": "joindiff",
        "key_columns": json.dumps(["__parity_k0"]),
        "value_columns": json.dumps(["__parity_c0", "__parity_c1"]),
        "position_column": "__parity_pos",
        "key_is_position": "true",
        "native_hash_column": "__parity_native",
        "config_json": json.dumps(config),
        "column_rules": "[]",
        "schema_findings": "[]",
        "filters": "{}",
        "schema_diff": "[]",
        "problem": "",
        "warnings": "[]",
        "previous_state": "",
        **side_columns("source"),
        **side_columns("target"),
        **columns,
    }


def side_plan(**fields: Any) -> SidePlan:
    """A source side in Spark that runs nothing, but for the ``fields`` given."""
    defaults: dict[str, Any] = {
        "side": "source",
        "dialect": "spark",
        "in_session": True,
        "connection_env": "",
        "relation_name": "",
        **dict.fromkeys(
            ("canonical_sql", "native_sql", "checksum_sql", "profile_sql", "blocks_sql"), ""
        ),
        **dict.fromkeys(
            ("bounds_sql", "blocks_between_sql", "duplicates_sql", "checksums_sql", "rows_sql"), ""
        ),
        "rows_of_keys_sql": "",
        "key_names": (),
        "column_names": (),
        "key_columns": (),
        "value_columns": (),
        "position_column": "",
        "key_is_position": False,
        "native_hash_column": "",
    }
    return SidePlan(**{**defaults, **fields})
