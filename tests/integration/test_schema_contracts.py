"""Schema contracts: each side's schema snapshot and its hash, the schema diff that classifies
every column, and the compatibility modes under which an incompatible pair is not scanned at all."""

from __future__ import annotations

import json

import psycopg
import pytest
import yaml

from parity.plan import canonical_hash
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import POSTGRES_ENV, reconcile
from tests.integration.run_results import error_of

SOURCES_FILE = "models/contract_sources.yml"
OLD, OLD_COPY, NEW = "contract_old", "contract_old_copy", "contract_new"
# contract_new behind a view that raises an error as soon as a row of it is read.
GUARDED = "contract_guarded"
OLD_COLUMNS = (
    "id bigint, qty int, price decimal(10,2), label varchar(10), gone string,"
    " meta struct<a: int, b: string>, tags array<int>"
)
# qty widened, price narrowed, label renamed to title and widened, gone removed, meta.a widened,
# meta.b removed and meta.c added, extra added. NULL struct fields are left out of a struct's
# canonical JSON, so the rows still agree.
NEW_COLUMNS = (
    "id bigint, qty bigint, price decimal(8,2), title string,"
    " meta struct<a: bigint, c: string>, tags array<int>, extra int"
)
OLD_ROWS = (
    "(1, 5, 9.99, 'one', 'x', named_struct('a', 1, 'b', cast(null as string)), array(1, 2)),"
    " (2, 7, 100.00, 'two', 'y', named_struct('a', 2, 'b', cast(null as string)), array())"
)
NEW_ROWS = (
    "(1, 5, 9.99, 'one', named_struct('a', 1L, 'c', cast(null as string)), array(1, 2), null),"
    " (2, 7, 100.00, 'two', named_struct('a', 2L, 'c', cast(null as string)), array(), null)"
)


def lake(table: str) -> dict:
    return {"source": ["contracts_lake", table]}


def pg(table: str) -> dict:
    return {"source": ["contracts_pg", table]}


def contract(name: str, target: str, **options) -> dict:
    return {
        "name": name,
        "source": lake(OLD),
        "target": lake(target),
        "key": "id",
        "renames": {"label": "title"},
        **options,
    }


PAIRS = [
    contract("contract_none", NEW),
    contract("contract_tolerant", NEW, column_presence_tolerance=2),
    contract("contract_backward", GUARDED, compatibility="backward"),
    contract("contract_forward", GUARDED, compatibility="forward"),
    contract("contract_full", GUARDED, compatibility="full"),
    {
        "name": "contract_same",
        "source": lake(OLD),
        "target": lake(OLD_COPY),
        "key": "id",
        "compatibility": "full",
    },
    # PostgreSQL reports order_id NOT NULL (its primary key) and status as varchar(20).
    {
        "name": "pg_forward",
        "source": pg("orders"),
        "target": {"ref": "legacy_orders"},
        "key": "order_id",
        "compatibility": "forward",
    },
    {
        "name": "pg_backward",
        "source": pg("orders"),
        "target": {"ref": "legacy_orders"},
        "key": "order_id",
        "compatibility": "backward",
    },
    # The target requires a column the source lacks.
    {
        "name": "required_backward",
        "source": {"ref": "legacy_orders"},
        "target": pg("orders_required_region"),
        "key": "order_id",
        "compatibility": "backward",
    },
    {
        "name": "required_forward",
        "source": {"ref": "legacy_orders"},
        "target": pg("orders_required_region"),
        "key": "order_id",
        "compatibility": "forward",
    },
    {
        "name": "documents",
        "source": {"source": ["contract_files", "documents_v1"]},
        "target": {"source": ["contract_files", "documents_v2"]},
        "key": "id",
        "compatibility": "full",
    },
    # The control: under compatibility none the guarded view is read, and its guard fails the
    # pair (the run, and every other pair, go on).
    contract("contract_scanned", GUARDED),
]


def schema_test(name: str, pair: str, mode: str, **config) -> dict:
    test = {"name": name, "arguments": {"pair": pair, "mode": mode}}
    return {"parity.schema_compatible": {**test, "config": config} if config else test}


SCHEMA_TESTS = [
    schema_test("contract_none_backward", "contract_none", "backward"),
    schema_test("contract_none_forward", "contract_none", "forward", warn_if=">0", error_if=">3"),
    schema_test("contract_none_none", "contract_none", "none"),
    schema_test("contract_same_full", "contract_same", "full"),
    schema_test("unknown_pair_full", "no_such_pair", "full"),
]


@pytest.fixture(scope="module")
def contracts(scratch, spark, remote_legacy, tmp_path_factory):
    schema = scratch.schema
    for table, columns, rows in [
        (OLD, OLD_COLUMNS, OLD_ROWS),
        (OLD_COPY, OLD_COLUMNS, OLD_ROWS),
        (NEW, NEW_COLUMNS, NEW_ROWS),
    ]:
        spark.sql(f"drop table if exists {schema}.{table}")
        spark.sql(f"create table {schema}.{table} ({columns}) using parquet")
        spark.sql(f"insert into {schema}.{table} values {rows}")
    spark.sql(
        f"create or replace view {schema}.{GUARDED} as select * from {schema}.{NEW}"
        " where (case when id is not null then raise_error('parity scanned the guarded view')"
        " end) is null"
    )
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        connection.execute("drop table if exists orders_required_region")
        connection.execute("create table orders_required_region as select * from orders")
        connection.execute("alter table orders_required_region add primary key (order_id)")
        connection.execute(
            "alter table orders_required_region add column region text not null default 'eu'"
        )
    folder = tmp_path_factory.mktemp("documents")
    for version, address in [("v1", {"city": "Oslo"}), ("v2", {"city": "Oslo", "zip": "0150"})]:
        (folder / version).mkdir()
        (folder / version / "part-0.json").write_text(
            json.dumps({"id": 1, "address": address}) + "\n"
        )
    sources = {
        "version": 2,
        "sources": [
            {
                "name": "contracts_lake",
                "schema": "{{ env_var('PARITY_SCHEMA') }}",
                "tables": [
                    {"name": OLD, "data_tests": SCHEMA_TESTS},
                    {"name": OLD_COPY},
                    {"name": NEW},
                    {"name": GUARDED},
                ],
            },
            {
                "name": "contracts_pg",
                "schema": "public",
                "meta": {"parity": {"dialect": "postgres", "connection_env": POSTGRES_ENV}},
                "tables": [{"name": "orders"}, {"name": "orders_required_region"}],
            },
            {
                "name": "contract_files",
                "meta": {"parity": {"format": "json"}},
                "tables": [
                    {"name": f"documents_{v}", "meta": {"parity": {"path": str(folder / v)}}}
                    for v in ("v1", "v2")
                ],
            },
        ],
    }
    with scratch.file(SOURCES_FILE, yaml.safe_dump(sources)):
        result = reconcile(scratch, PAIRS)
        assert result.success, error_text(result)
        yield {
            "summary": {
                r["pair_name"]: r for r in spark.table(f"{schema}.parity_summary").collect()
            },
            "differences": spark.table(f"{schema}.parity_differences")
            .where("key is null")
            .collect(),
            "diff": spark.table(f"{schema}.parity_schema_diff").collect(),
            "snapshots": spark.table(f"{schema}.parity_schema_snapshots").collect(),
        }


def findings(contracts, pair: str) -> set[tuple]:
    return {
        (r["kind"], r["column_name"], r["source_value"], r["target_value"])
        for r in contracts["differences"]
        if r["pair_name"] == pair
    }


def changes(contracts, pair: str) -> dict[tuple, dict]:
    return {
        (r["column_name"], r["field_path"], r["change"]): r.asDict()
        for r in contracts["diff"]
        if r["pair_name"] == pair
    }


def snapshot(contracts, pair: str, side: str) -> list[dict]:
    rows = [r for r in contracts["snapshots"] if (r["pair_name"], r["side"]) == (pair, side)]
    return [r.asDict(recursive=True) for r in sorted(rows, key=lambda r: r["ordinal"])]


def test_snapshot_holds_types_precision_nullability_and_nested_fields(contracts):
    old = {c["column_name"]: c for c in snapshot(contracts, "contract_none", "source")}
    assert [name for name in old] == ["id", "qty", "price", "label", "gone", "meta", "tags"]
    assert (old["price"]["data_type"], old["price"]["precision"], old["price"]["scale"]) == (
        "decimal(10,2)",
        10,
        2,
    )
    assert (old["label"]["data_type"], old["label"]["max_length"]) == ("varchar(10)", 10)
    assert old["meta"]["nested_fields"] == [
        {"path": "meta.a", "data_type": "int", "nullable": True},
        {"path": "meta.b", "data_type": "string", "nullable": True},
    ]
    assert old["tags"]["nested_fields"] == [
        {"path": "tags[]", "data_type": "int", "nullable": True}
    ]
    # Spark reports every column of a Parquet table nullable; PostgreSQL its NOT NULL key.
    assert all(c["nullable"] for c in old.values())
    legacy = {c["column_name"]: c for c in snapshot(contracts, "pg_backward", "source")}
    assert (legacy["order_id"]["nullable"], legacy["customer_id"]["nullable"]) == (False, True)
    assert legacy["status"]["max_length"] == 20
    documents = {c["column_name"]: c for c in snapshot(contracts, "documents", "target")}
    assert [f["path"] for f in documents["address"]["nested_fields"]] == [
        "address.city",
        "address.zip",
    ]


def test_schema_hash_is_the_sha256_of_the_published_snapshot(contracts):
    summary = contracts["summary"]
    for pair in ("contract_none", "pg_backward", "documents"):
        for side in ("source", "target"):
            columns = snapshot(contracts, pair, side)
            hashes = {c.pop("schema_hash") for c in columns}
            for column in columns:
                for name in ("run_id", "pair_name", "side", "relation_name"):
                    del column[name]
            assert hashes == {canonical_hash(columns)} == {summary[pair][f"{side}_schema_hash"]}
    same = summary["contract_same"]
    assert same["source_schema_hash"] == same["target_schema_hash"]
    none = summary["contract_none"]
    assert none["source_schema_hash"] != none["target_schema_hash"]


def test_schema_diff_classifies_every_column(contracts):
    found = changes(contracts, "contract_none")
    assert set(found) == {
        ("id", None, "unchanged"),
        ("qty", None, "widened"),
        ("price", None, "narrowed"),
        ("label", None, "renamed"),
        ("label", None, "widened"),
        ("gone", None, "removed"),
        ("meta", "meta.a", "widened"),
        ("meta", "meta.b", "nested_field_removed"),
        ("meta", "meta.c", "nested_field_added"),
        ("tags", None, "unchanged"),
        ("extra", None, "added"),
    }
    directions = {
        key: (row["backward_compatible"], row["forward_compatible"]) for key, row in found.items()
    }
    assert directions["qty", None, "widened"] == (True, False)
    assert directions["price", None, "narrowed"] == (False, True)
    assert directions["gone", None, "removed"] == (True, True)  # nullable: readers do without
    assert directions["meta", "meta.c", "nested_field_added"] == (True, True)
    assert found["label", None, "renamed"]["target_column_name"] == "title"
    assert all(row["accepted"] for row in found.values())  # compatibility: none

    required = changes(contracts, "required_forward")
    assert required["order_id", None, "nullability_changed"]["backward_compatible"] is False
    assert required["status", None, "narrowed"]["source_type"] == "string"
    added = required["region", None, "added"]
    assert (
        added["target_nullable"],
        added["backward_compatible"],
        added["forward_compatible"],
    ) == (
        False,
        False,
        True,
    )
    assert set(changes(contracts, "documents")) == {
        ("id", None, "unchanged"),
        ("address", "address.zip", "nested_field_added"),
    }


def test_mode_none_compares_and_counts_columns_on_one_side_against_the_tolerance(contracts):
    summary = contracts["summary"]
    presence = {
        ("column_missing_in_target", "gone", "string", None),
        ("column_missing_in_source", "extra", None, "int"),
    }
    for pair in ("contract_none", "contract_tolerant"):
        found = summary[pair]
        assert found["data_compared"] and found["schema_compatible"]
        assert (found["source_rows"], found["differing_rows"], found["schema_findings"]) == (
            2,
            0,
            2,
        )
        assert findings(contracts, pair) == presence
    # Two columns on one side only: more than the default tolerance of 0, within a tolerance of 2.
    assert not summary["contract_none"]["passed"] and summary["contract_tolerant"]["passed"]
    # Compatible under forward, but its extra column fails it: compared all the same.
    forward = summary["required_forward"]
    assert forward["data_compared"] and forward["differing_rows"] == 0 and not forward["passed"]
    assert findings(contracts, "required_forward") == {
        ("column_missing_in_source", "region", None, "text")
    }
    backward = summary["pg_backward"]
    assert backward["data_compared"] and backward["passed"] and backward["source_rows"] == 3000


def test_incompatible_pairs_report_their_findings_and_read_no_row(contracts):
    """Their target is a view that fails on the first row read: the run succeeded."""
    presence = {
        ("column_missing_in_target", "gone", "string", None),
        ("column_missing_in_source", "extra", None, "int"),
    }
    narrowed = {("type_narrowed", "price", "decimal(10,2) (spark)", "decimal(8,2) (spark)")}
    widened = {
        ("type_widened", "qty", "int (spark)", "bigint (spark)"),
        ("type_widened", "label", "varchar(10) (spark)", "string (spark)"),
        ("type_widened", "meta.a", "int", "bigint"),
    }
    assert findings(contracts, "contract_backward") == narrowed | presence
    assert findings(contracts, "contract_forward") == widened | presence
    assert findings(contracts, "contract_full") == narrowed | widened | presence
    assert findings(contracts, "pg_forward") == {
        ("nullability_changed", "order_id", "not null", "nullable"),
        ("type_widened", "status", "character varying(20) (postgres)", "string (spark)"),
    }
    assert findings(contracts, "required_backward") == {
        ("nullability_changed", "order_id", "nullable", "not null"),
        ("type_narrowed", "status", "string (spark)", "character varying(20) (postgres)"),
        ("column_missing_in_source", "region", None, "text"),
    }
    summary = contracts["summary"]
    for pair in ("contract_backward", "contract_forward", "contract_full", "pg_forward"):
        found = summary[pair]
        assert not (found["data_compared"] or found["schema_compatible"] or found["passed"])
        assert (found["checksum_passes"], found["source_rows"], found["row_drift_pct"]) == (
            0,
            None,
            None,
        )
        assert (found["source_null_keys"], found["target_duplicate_keys"]) == (None, None)
        assert found["schema_findings"] == len(findings(contracts, pair))


def test_schema_compatible_fails_on_changes_its_mode_rejects(scratch, contracts):
    result = scratch.dbt(
        "test",
        "--select",
        "source:contracts_lake",
        vars=scratch.demo_vars(parity={"pairs": PAIRS}),
        parse_once=True,
    )
    tests = [r for r in result.result.results if r.node.resource_type == "test"]
    statuses = {r.node.name: str(r.status) for r in tests}
    failures = {r.node.name: r.failures for r in tests}
    assert statuses == {
        "contract_none_backward": "fail",  # price narrowed
        "contract_none_forward": "warn",  # qty, label and meta.a widened: 3, within error_if
        "contract_none_none": "pass",
        "contract_same_full": "pass",
        "unknown_pair_full": "fail",  # no result at all
    }
    assert (failures["contract_none_backward"], failures["contract_none_forward"]) == (1, 3)


def test_a_compared_pair_does_read_the_guarded_view(contracts):
    """The control for the tests above: under compatibility none the guard does fail the pair,
    in the same run as theirs (which succeeded)."""
    # The guard's own words are the view's, which parity publishes hidden (as a raise_error's
    # argument may hold a row's values): what it publishes is that the guard fired.
    reason = error_of(contracts["summary"]["contract_scanned"])
    assert "[USER_RAISED_EXCEPTION] '…'" in reason
    assert "parity scanned the guarded view" not in reason
