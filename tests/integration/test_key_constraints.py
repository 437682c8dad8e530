"""Key constraints: NULL and duplicate keys counted on each side in the pass that profiles it,
inside Spark, PostgreSQL and DuckDB, and enforced by each pair's enforce_key before the diff."""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter

import duckdb
import psycopg
import pytest
import yaml

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import DUCKDB_ENV, POSTGRES_ENV, reconcile
from tests.integration.run_results import by_pair, pair_error

SOURCES_FILE = "models/key_sources.yml"
TABLE = "orders_key_problems"
# The legacy orders with two more copies of order 5, one more of order 6, and orders 1 and 2
# copied once more with a NULL order id: 3,005 rows, 2 NULL keys, 2 duplicated key values.
PLANTED = """
select * from {orders}
union all select * from {orders} where order_id in (5, 6)
union all select * from {orders} where order_id = 5
union all select cast(null as bigint) as order_id, {others} from {orders} where order_id in (1, 2)
"""
OTHERS = "customer_id, status, amount, fx_rate, discount, is_gift, ordered_at, ship_date, note"
# The planted rows with the key held in other integer types than the legacy table's (bigint,
# int): joindiff groups on integer keys as numbers, and must find the same rows.
WIDENED = "orders_key_problems_widened"
WIDENED_VIEW = (
    "select cast(order_id as int) as order_id, cast(customer_id as bigint) as customer_id,"
    " status, amount, fx_rate, discount, is_gift, ordered_at, ship_date, note from {table}"
)
LEGACY = {"ref": "legacy_orders"}


def pair(name: str, source: dict, target: dict, **options) -> dict:
    return {"name": name, "source": source, "target": target, "key": "order_id", **options}


def planted(source_name: str) -> dict:
    return {"source": [source_name, TABLE]}


COMPOUND = ["order_id", "customer_id"]
PAIRS = [
    pair("lake_joindiff", LEGACY, planted("keys_lake"), enforce_key="off"),
    pair("lake_hashdiff", LEGACY, planted("keys_lake"), enforce_key="off", algorithm="hashdiff"),
    pair("lake_warn", LEGACY, planted("keys_lake"), enforce_key="warn"),
    # A NULL in one key column is a NULL key; a compound key's rows are positioned by its hash.
    {**pair("compound_joindiff", LEGACY, planted("keys_lake"), enforce_key="off"), "key": COMPOUND},
    {
        **pair("compound_widened", LEGACY, {"source": ["keys_lake", WIDENED]}, enforce_key="off"),
        "key": COMPOUND,
    },
    # Differing keys 5 and 6: only the first, in key order, is compared.
    {
        **pair("compound_capped", LEGACY, planted("keys_lake"), enforce_key="off"),
        "key": COMPOUND,
        "max_differences": 1,
    },
    {
        **pair("compound_hashdiff", LEGACY, planted("keys_lake"), enforce_key="off"),
        "key": COMPOUND,
        "algorithm": "hashdiff",
        "bisection_threshold": 16,
    },
    pair("pg_off", planted("keys_pg"), LEGACY, enforce_key="off", bisection_threshold=64),
    {
        **pair("pg_compound", planted("keys_pg"), LEGACY, enforce_key="off"),
        "key": COMPOUND,
        "bisection_threshold": 16,
    },
    pair("duckdb_warn", planted("keys_duckdb"), LEGACY, enforce_key="warn"),
    pair("clean", LEGACY, LEGACY),
]


def key_test(kind: str, name: str, pair_name: str, side: str, **config) -> dict:
    test = {"name": name, "arguments": {"pair": pair_name, "side": side}}
    return {f"parity.{kind}": {**test, "config": config} if config else test}


KEY_TESTS = [
    key_test("key_not_null", "lake_target_not_null", "lake_joindiff", "target"),
    key_test("key_not_null", "lake_source_not_null", "lake_joindiff", "source"),
    key_test(
        "key_unique", "lake_target_unique", "lake_joindiff", "target", warn_if=">0", error_if=">2"
    ),
    key_test("key_unique", "pg_source_unique", "pg_off", "source", store_failures=True),
    key_test("key_unique", "clean_target_unique", "clean", "target"),
    key_test("key_not_null", "unknown_pair_not_null", "no_such_pair", "source"),
    key_test("key_not_null", "unknown_pair_warns", "no_such_pair", "target", severity="warn"),
]


@pytest.fixture(scope="module")
def keyed(scratch, spark, remote_legacy):
    schema = scratch.schema
    spark.sql(f"drop table if exists {schema}.{TABLE}")
    spark.sql(
        f"create table {schema}.{TABLE} using parquet as"
        + PLANTED.format(orders=f"{schema}.legacy_orders", others=OTHERS)
    )
    spark.sql(
        f"create or replace view {schema}.{WIDENED} as "
        + WIDENED_VIEW.format(table=f"{schema}.{TABLE}")
    )
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        connection.execute(f"drop table if exists {TABLE}")
        connection.execute(
            f"create table {TABLE} as" + PLANTED.format(orders="orders", others=OTHERS)
        )
    with duckdb.connect(os.environ[DUCKDB_ENV]) as connection:
        connection.execute(f"drop table if exists {TABLE}")
        connection.execute(
            f"create table {TABLE} as" + PLANTED.format(orders="orders", others=OTHERS)
        )
    sources = {
        "version": 2,
        "sources": [
            {
                "name": "keys_lake",
                "schema": "{{ env_var('PARITY_SCHEMA') }}",
                "tables": [{"name": TABLE, "data_tests": KEY_TESTS}, {"name": WIDENED}],
            },
            {
                "name": "keys_pg",
                "schema": "public",
                "meta": {"parity": {"dialect": "postgres", "connection_env": POSTGRES_ENV}},
                "tables": [{"name": TABLE}],
            },
            {
                "name": "keys_duckdb",
                "schema": "main",
                "meta": {"parity": {"dialect": "duckdb", "connection_env": DUCKDB_ENV}},
                "tables": [{"name": TABLE}],
            },
        ],
    }
    with scratch.file(SOURCES_FILE, yaml.safe_dump(sources)):
        result = reconcile(scratch, PAIRS)
        assert result.success, error_text(result)
        summary, differences = by_pair(spark, schema, lambda r: (r["key"], r["kind"]), Counter)
        yield {"summary": summary, "differences": differences}


def key_counts(row) -> tuple:
    return tuple(
        row[f"{side}_{count}"]
        for side in ("source", "target")
        for count in ("null_keys", "duplicate_keys")
    )


def test_null_and_duplicate_keys_are_counted_in_every_engine(keyed):
    summary = keyed["summary"]
    in_spark = ("lake_joindiff", "lake_hashdiff", "lake_warn", "compound_joindiff")
    for name in (*in_spark, "compound_widened"):
        assert key_counts(summary[name]) == (0, 0, 2, 2), name
        assert (summary[name]["source_rows"], summary[name]["target_rows"]) == (3000, 3005)
    assert key_counts(summary["compound_hashdiff"]) == (0, 0, 2, 2)
    for name in ("pg_off", "pg_compound", "duckdb_warn"):
        assert key_counts(summary[name]) == (2, 2, 0, 0), name
        assert summary[name]["source_rows"] == 3005 and summary[name]["algorithm"] == "hashdiff"
    assert key_counts(summary["clean"]) == (0, 0, 0, 0) and summary["clean"]["passed"]


def test_duplicates_compare_as_a_multiset_and_null_keys_are_left_out(keyed):
    differences, summary = keyed["differences"], keyed["summary"]
    surplus_in_target = Counter({("5", "duplicate_in_target"): 2, ("6", "duplicate_in_target"): 1})
    for name in ("lake_joindiff", "lake_hashdiff", "lake_warn"):
        assert differences[name] == surplus_in_target, name
    surplus_in_source = Counter({("5", "duplicate_in_source"): 2, ("6", "duplicate_in_source"): 1})
    assert differences["pg_off"] == differences["duckdb_warn"] == surplus_in_source
    for name in ("compound_joindiff", "compound_hashdiff", "pg_compound"):
        kinds = Counter(kind for _, kind in differences[name].elements())
        assert sum(kinds.values()) == 3 and len(kinds) == 1, (name, differences[name])
        assert all(key.startswith(('["5",', '["6",')) for key, _ in differences[name])
    for name in ("lake_joindiff", "pg_off", "duckdb_warn"):
        assert summary[name]["differing_rows"] == 3 and not summary[name]["passed"]


def test_integer_keys_of_other_types_find_the_same_rows(keyed, spark, scratch):
    """Keys grouped on as numbers (bigint against int, int against bigint) find the rows found
    by their text, and list them in their canonical text."""
    differences, summary = keyed["differences"], keyed["summary"]
    assert differences["compound_widened"] == differences["compound_joindiff"]
    shown = ("differing_rows", "source_rows", "target_rows", "source_duplicate_keys")
    assert [summary["compound_widened"][c] for c in shown] == [
        summary["compound_joindiff"][c] for c in shown
    ]
    (native,) = spark.sql(
        f"select source_native_sql from {scratch.schema}.parity_plan"
        " where pair_name = 'compound_widened'"
    ).first()
    assert "cast(`order_id` as bigint) as __parity_k0" in native


def test_a_capped_compound_key_compares_its_first_differing_keys(keyed):
    """max_differences on a compound key: joindiff compares the rows of the first differing
    key in key order only, and halts the pair."""
    summary, differences = keyed["summary"]["compound_capped"], keyed["differences"]
    assert summary["halted"] and not summary["passed"]
    assert sum(differences["compound_capped"].values()) == 2
    assert all(key.startswith('["5",') for key, _ in differences["compound_capped"])
    assert differences["compound_capped"] <= differences["compound_joindiff"]


def test_warn_flags_the_pair_and_off_does_not(keyed):
    flagged = {name: row["keys_flagged"] for name, row in keyed["summary"].items()}
    assert flagged == {
        "lake_joindiff": False,
        "lake_hashdiff": False,
        "lake_warn": True,
        "compound_joindiff": False,
        "compound_widened": False,
        "compound_capped": False,
        "compound_hashdiff": False,
        "pg_off": False,
        "pg_compound": False,
        "duckdb_warn": True,
        "clean": False,
    }


def test_key_tests_fail_on_planted_keys_and_pass_on_clean_ones(scratch, spark, keyed):
    result = scratch.dbt(
        "test",
        "--select",
        "source:keys_lake",
        vars=scratch.demo_vars(parity={"pairs": PAIRS}),
        parse_once=True,
    )
    tests = [r for r in result.result.results if r.node.resource_type == "test"]
    assert {r.node.name: (str(r.status), r.failures) for r in tests} == {
        "lake_target_not_null": ("fail", 2),
        "lake_source_not_null": ("pass", 0),
        "lake_target_unique": ("warn", 2),  # warn_if >0, error_if >2
        "pg_source_unique": ("fail", 2),
        "clean_target_unique": ("pass", 0),
        "unknown_pair_not_null": ("fail", 1),
        "unknown_pair_warns": ("warn", 1),  # severity: warn
    }
    stored = spark.table(f"{scratch.schema}_dbt_test__audit.pg_source_unique").collect()
    assert [(r["pair_name"], r["side"], r["duplicate_keys"]) for r in stored] == [
        ("pg_off", "source", 2)
    ]


ERROR_PAIRS = [
    pair("pg_error", planted("keys_pg"), LEGACY),
    pair("lake_error", LEGACY, planted("keys_lake")),
    {**pair("lake_compound_error", LEGACY, planted("keys_lake")), "key": COMPOUND},
    pair("pg_sensitive_error", planted("keys_pg"), LEGACY, sensitive_columns=["order_id"]),
    pair("lake_sensitive_error", LEGACY, planted("keys_lake"), sensitive=True),
]


@pytest.fixture(scope="module")
def key_errors(scratch, spark, keyed) -> dict[str, str]:
    """The pairs whose enforce_key is error, reconciled in one run: each pair's error."""
    result = reconcile(scratch, ERROR_PAIRS)
    assert result.success, error_text(result)
    return {p["name"]: pair_error(spark, scratch.schema, p["name"]) for p in ERROR_PAIRS}


def test_error_fails_the_pair_naming_side_relation_key_and_counts(key_errors):
    where = f'parity pair \'pg_error\': source relation "public"."{TABLE}" (postgres)'
    assert (
        f"{where} has 2 rows with a NULL in key column(s) order_id; source relation"
        f' "public"."{TABLE}" (postgres) has 2 key values held by more than one row in key'
        " column(s) order_id, such as 5 (3 rows), 6 (2 rows) (enforce_key: error"
    ) in key_errors["pg_error"]


def test_a_duplicate_key_error_shows_the_first_keys_with_their_rows_in_spark(scratch, key_errors):
    assert (
        f"target relation {scratch.schema}.{TABLE} (spark) has 2 key values held by more than"
        " one row in key column(s) order_id, such as 5 (3 rows), 6 (2 rows) (enforce_key"
    ) in key_errors["lake_error"]
    compound = key_errors["lake_compound_error"]
    assert 'in key column(s) order_id, customer_id, such as ["5",' in compound
    assert re.search(r'such as \["5","[^"]+"\] \(3 rows\), \["6","[^"]+"\] \(2 rows\)', compound)


@pytest.mark.parametrize("name", ["pg_sensitive_error", "lake_sensitive_error"])
def test_a_masked_duplicate_key_is_shown_as_its_hash(key_errors, name):
    """As parity_differences publishes a masked key: the sha256 of its text."""
    hashed = {key: "sha256:" + hashlib.sha256(key.encode()).hexdigest() for key in ("5", "6")}
    assert f"such as {hashed['5']} (3 rows), {hashed['6']} (2 rows)" in key_errors[name]
    assert " 5 (3 rows)" not in key_errors[name]
