"""JSON and nested values across engines: the same documents written through each engine's own
types (Spark struct, array, map and JSON text; PostgreSQL jsonb and json; DuckDB STRUCT, LIST,
MAP and JSON), paired in every direction, with key order, number spelling and null members
differing between the copies (docs/canonical-encoding.md, "JSON")."""

from __future__ import annotations

import duckdb
import psycopg
import pytest

from parity.plan import pairs_from_rows
from parity.reference import canonical_text
from tests.integration.remote_tables import reconcile
from tests.integration.run_results import by_pair, finding
from tests.integration.side_rows import canonical_rows

PG_ENV = "PARITY_TEST_NESTED_PG"
DUCKDB_ENV = "PARITY_TEST_NESTED_DUCKDB"
SPARK_TYPES = {
    "doc": "struct<name:string,price:decimal(10,2),ratio:double,big:bigint,"
    "dims:struct<w:double,h:int>>",
    "attrs": "map<string,string>",
    "tags": "array<bigint>",
}
DUCKDB_TYPES = {
    "doc": '{"name":"VARCHAR","price":"DECIMAL(10,2)","ratio":"DOUBLE","big":"BIGINT",'
    '"dims":{"w":"DOUBLE","h":"INTEGER"}}',
    "attrs": "MAP(VARCHAR, VARCHAR)",
    "tags": "BIGINT[]",
}
DEEP = '{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":{"j":[1.50,{"k":null}]}}}}}}}}}}'
# Each column's JSON text by row id; None is SQL NULL. Hard values: Unicode and escapes in keys
# and strings, keys whose UTF-16 and code point orders differ (U+FF5A and U+1F600), a decimal
# zero, doubles of 1e7 and more (Java writes 1.0E7), 0.1, integers beyond 2^53, null members,
# a null array element, empty containers, nesting depth 10, top-level scalars.
ROWS = {
    1: {
        "doc": '{"name": "café ☕", "price": 2.50, "ratio": 1e7, "big": 9007199254740993,'
        ' "dims": {"w": 2.5, "h": 3}}',
        "attrs": '{"é": "1", "k\\"ey": "v\\\\al", "\\uff5a": "full width", "😀": "emoji"}',
        "tags": "[3, 1, 2]",
        "deep": DEEP,
    },
    2: {
        "doc": '{"name": "quote \\" and \\\\ and\\nline \\u0001\\u001f", "price": 0,'
        ' "ratio": 0.1, "big": -1, "dims": {"w": -0.0, "h": 0}}',
        "attrs": "{}",
        "tags": "[]",
        "deep": "{}",
    },
    3: {
        "doc": '{"name": "😀 emoji", "price": null, "ratio": 12345678.9, "big": null,'
        ' "dims": null}',
        "attrs": '{"a": null, "b": "x"}',
        "tags": None,
        "deep": "[]",
    },
    4: {
        "doc": '{"name": null, "price": -0.00, "ratio": 1e25, "big": 4611686018427387904,'
        ' "dims": {"w": null, "h": 7}}',
        "attrs": None,
        "tags": "[null, 1]",
        "deep": '"text"',
    },
    5: {
        "doc": '{"name": "sparse"}',
        "attrs": '{"tab\\tkey": "line\\nbreak", "ctl\\u000b": "\\u001f"}',
        "tags": "[9007199254740993]",
        "deep": "12.5e3",
    },
    6: {
        "doc": '{"name": "doubles", "price": 12345678.91, "ratio": 2.82879384806159e17}',
        "attrs": '{"z": "1", "a": "2"}',
        "tags": "[1, 2]",
        "deep": None,
    },
}
# One array of numbers spelled three ways, one per engine: equal as JSON numbers.
NUMBERS = {
    "postgres": "[1e25, 2.50, -0.0, 0.1, 10000000, 1.5e-7]",
    "duckdb": "[1.0E25, 2.5, 0, 0.10, 1e7, 0.00000015]",
    "spark": "[10000000000000000000000000, 2.500, 0.0, 1e-1, 1.0E7, 15e-8]",
}
COLUMNS = ["doc", "attrs", "tags", "deep", "nums"]
# One change per kind of value, and a null member added (not a change: null and absent agree).
CHANGES = {
    (1, "doc"): '{"name": "café ☕", "price": 2.50, "ratio": 1e7, "big": 9007199254740993,'
    ' "dims": {"w": 2.51, "h": 3}}',
    (1, "deep"): DEEP.replace("1.50", "1.51"),
    (2, "doc"): ROWS[2]["doc"].replace("quote", "Quote"),
    (3, "attrs"): '{"a": null, "c": "x"}',
    (4, "tags"): "[1, null]",
    (5, "doc"): '{"name": "sparse", "price": null, "dims": null}',
}
PLANTED = {
    ("1", "value_mismatch", "doc"),
    ("1", "value_mismatch", "deep"),
    ("2", "value_mismatch", "doc"),
    ("3", "value_mismatch", "attrs"),
    ("4", "value_mismatch", "tags"),
}
INVALID = '{"name": "café"'
SOURCES = f"""
version: 2
sources:
  - name: nested_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: nested
      - name: nested_texts
  - name: nested_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: nested
      - name: nested_changed
  - name: nested_duckdb
    schema: main
    meta:
      parity: {{dialect: duckdb, connection_env: {DUCKDB_ENV}}}
    tables:
      - name: nested
      - name: nested_json
      - name: nested_changed
      - name: nested_texts
"""
LAKE = {"source": ["nested_lake", "nested"]}
PG = {"source": ["nested_pg", "nested"]}
DUCK = {"source": ["nested_duckdb", "nested"]}
PAIRS = [
    {"name": "spark_pg", "source": PG, "target": LAKE},
    {"name": "spark_duckdb", "source": DUCK, "target": LAKE},
    {"name": "pg_duckdb", "source": PG, "target": DUCK},
    {
        "name": "duckdb_duckdb",
        "source": {"source": ["nested_duckdb", "nested_json"]},
        "target": DUCK,
    },
    {"name": "changed_pg", "source": {"source": ["nested_pg", "nested_changed"]}, "target": LAKE},
    {
        "name": "changed_duckdb",
        "source": {"source": ["nested_duckdb", "nested_changed"]},
        "target": LAKE,
    },
    {
        "name": "invalid_spark",
        "source": PG,
        "target": {"source": ["nested_lake", "nested_texts"]},
        "columns": ["doc"],
    },
    {
        "name": "invalid_duckdb",
        "source": {"source": ["nested_duckdb", "nested_texts"]},
        "target": LAKE,
        "columns": ["doc"],
    },
]


def texts(engine: str, changed: bool = False) -> list[tuple]:
    """Every row as (id, text of each column), with the planted changes when asked."""
    return [
        (
            row_id,
            *(
                CHANGES.get((row_id, c), values.get(c)) if changed else values.get(c)
                for c in COLUMNS[:-1]
            ),
            NUMBERS[engine] if row_id == 1 else "[1]",
        )
        for row_id, values in ROWS.items()
    ]


def write_spark(spark, schema: str) -> None:
    typed = [f"from_json({c}, '{t}') as {c}" for c, t in SPARK_TYPES.items()]
    frame = spark.createDataFrame(
        texts("spark"), "id bigint, " + ", ".join(f"{c} string" for c in COLUMNS)
    )
    frame.selectExpr("id", *typed, "deep", "nums").write.mode("overwrite").saveAsTable(
        f"{schema}.nested"
    )
    invalid = [
        (row_id, INVALID if row_id == 1 else values["doc"]) for row_id, values in ROWS.items()
    ]
    spark.createDataFrame(invalid, "id bigint, doc string").write.mode("overwrite").saveAsTable(
        f"{schema}.nested_texts"
    )


def write_postgres(url: str) -> None:
    """jsonb but for tags, a json column (kept as written, re-read as jsonb by parity)."""
    with psycopg.connect(url, autocommit=True) as connection:
        for table, changed in (("nested", False), ("nested_changed", True)):
            connection.execute(f"drop table if exists {table}")
            connection.execute(
                f"create table {table} (id bigint, doc jsonb, attrs jsonb, tags json, deep jsonb,"
                " nums jsonb)"
            )
            with connection.cursor() as cursor:
                cursor.executemany(
                    f"insert into {table} values (%s, %s, %s, %s, %s, %s)",
                    texts("postgres", changed),
                )


def write_duckdb(path: str) -> None:
    """STRUCT, MAP and LIST read from the JSON texts, JSON for the rest; nested_json holds every
    column as JSON; nested_texts the documents as VARCHAR, one of them no JSON."""
    json_columns = ", ".join(f"{c} json" for c in COLUMNS)
    typed = ", ".join(
        f"json_transform({c}, '{t}') as {c}" if c == "doc" else f"cast({c} as {t}) as {c}"
        for c, t in DUCKDB_TYPES.items()
    )
    with duckdb.connect(path) as connection:
        for table, changed in (("nested_json", False), ("changed_json", True)):
            connection.execute(f"create or replace table {table} (id bigint, {json_columns})")
            connection.executemany(
                f"insert into {table} values (?, ?, ?, ?, ?, ?)", texts("duckdb", changed)
            )
        for table, source in (("nested", "nested_json"), ("nested_changed", "changed_json")):
            connection.execute(
                f"create or replace table {table} as select id, {typed}, deep, nums from {source}"
            )
        connection.execute("drop table changed_json")
        connection.execute("create or replace table nested_texts (id bigint, doc varchar)")
        connection.executemany(
            "insert into nested_texts values (?, ?)",
            [
                (row_id, INVALID if row_id == 2 else values["doc"])
                for row_id, values in ROWS.items()
            ],
        )


@pytest.fixture(scope="module")
def reconciled(scratch, spark, postgres_url, tmp_path_factory):
    write_spark(spark, scratch.schema)
    write_postgres(postgres_url)
    database = str(tmp_path_factory.mktemp("nested") / "nested.duckdb")
    write_duckdb(database)
    with pytest.MonkeyPatch.context() as patch, scratch.file("models/nested_sources.yml", SOURCES):
        patch.setenv(PG_ENV, postgres_url)
        patch.setenv(DUCKDB_ENV, database)
        assert reconcile(
            scratch, [{**pair, "key": "id", "bisection_threshold": 2} for pair in PAIRS]
        ).success
        summaries, differences = by_pair(spark, scratch.schema, finding, set)
        rows = {
            (r["pair_name"], r["key"]): r
            for r in spark.table(f"{scratch.schema}.parity_differences").collect()
        }
        plans = pairs_from_rows(
            [r.asDict() for r in spark.table(f"{scratch.schema}.parity_plan").collect()]
        )
        yield summaries, differences, rows, {plan.name: plan for plan in plans}


@pytest.mark.parametrize("name", ["spark_pg", "spark_duckdb", "pg_duckdb", "duckdb_duckdb"])
def test_equal_documents_match_by_checksum_alone(reconciled, name):
    summaries, differences, _, _ = reconciled
    found = summaries[name]
    assert found["passed"], sorted(differences.get(name, ()))
    assert (found["source_rows"], found["checksum_passes"], found["rows_moved"]) == (6, 1, 0)
    assert found["schema_findings"] == 0


@pytest.mark.parametrize("name", ["changed_pg", "changed_duckdb"])
def test_every_planted_change_is_found_and_nothing_else(reconciled, name):
    """A nested number, a nested string, a key, an array's order, a number at depth 10; a null
    member added to a document is no change."""
    summaries, differences, _, _ = reconciled
    assert differences[name] == PLANTED
    assert not summaries[name]["passed"]


def test_text_that_is_no_json_compares_as_marked_text(reconciled):
    """Invalid JSON fails nothing: it is a value that differs, shown as the text itself."""
    _, differences, rows, _ = reconciled
    assert differences["invalid_spark"] == {("1", "value_mismatch", "doc")}
    assert rows[("invalid_spark", "1")]["target_canonical"] == "invalid JSON: " + INVALID
    assert differences["invalid_duckdb"] == {("2", "value_mismatch", "doc")}
    assert rows[("invalid_duckdb", "2")]["source_canonical"] == "invalid JSON: " + INVALID


def test_spark_canonical_documents_are_the_references(reconciled, spark):
    """The oracle: each document Spark canonicalized, from a struct, a map, an array or text,
    is the Python reference's canonical JSON of the text it was written from."""
    _, _, _, plans = reconciled
    canonical = canonical_rows(plans["spark_pg"].target, spark)
    for row_id, *values in texts("spark"):
        expected = tuple(canonical_text({"kind": "json"}, v) if v else None for v in values)
        assert canonical[str(row_id)][1:] == expected


@pytest.mark.parametrize("name", ["spark_pg", "spark_duckdb"])
def test_every_engine_writes_the_same_canonical_rows(reconciled, spark, name):
    _, _, _, plans = reconciled
    plan = plans[name]
    source, target = (canonical_rows(side, spark) for side in (plan.source, plan.target))
    assert len(source) == 6 and source == target
