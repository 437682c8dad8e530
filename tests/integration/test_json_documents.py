"""JSON across engines: PostgreSQL jsonb and json columns against a Spark struct and a Spark string
of JSON documents, with key order, whitespace and number spelling differing between the copies."""

from __future__ import annotations

import psycopg
import pytest

from parity.reference import canonical_text
from tests.integration.remote_tables import reconcile

PG_ENV = "PARITY_TEST_DOCUMENTS_PG"
DOCUMENTS = [
    '{"name": "café", "tags": ["a", "b"], "dims": {"w": 2.50, "h": 3}, "extra": {"k": "v"}}',
    '{"name": "quote \\" and \\\\ and\\nline", "tags": [], "dims": {"w": 0.10, "h": -1},'
    ' "extra": {}}',
    '{"name": "😀 emoji", "tags": null, "dims": null, "extra": {"z": "1", "a": "2"}}',
    '{"name": null, "tags": ["x"], "dims": {"w": -0.00, "h": 0}, "extra": null}',
]
SPARK_TYPE = (
    "struct<name:string,tags:array<string>,dims:struct<w:decimal(5,2),h:int>,"
    "extra:map<string,string>>"
)
SOURCES = f"""
version: 2
sources:
  - name: documents_lake
    schema: "{{{{ env_var('PARITY_SCHEMA') }}}}"
    tables:
      - name: documents
  - name: documents_pg
    schema: public
    meta:
      parity: {{dialect: postgres, connection_env: {PG_ENV}}}
    tables:
      - name: documents
      - name: documents_changed
"""


@pytest.fixture(scope="module")
def reconciled(scratch, spark, postgres_url):
    """Spark holds each document as a struct and as its text; PostgreSQL holds Spark's JSON of the
    struct as jsonb, and the text re-spelled by jsonb_pretty (keys reordered, indented) as json."""
    spark.createDataFrame(list(enumerate(DOCUMENTS, 1)), "id bigint, doc_text string").selectExpr(
        "id", f"from_json(doc_text, '{SPARK_TYPE}') as doc", "doc_text"
    ).write.mode("overwrite").saveAsTable(f"{scratch.schema}.documents")
    exported = spark.sql(
        f"select id, to_json(doc) as doc, doc_text from {scratch.schema}.documents order by id"
    ).collect()
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        for table in ("documents", "documents_changed"):
            connection.execute(f"drop table if exists {table}")
            connection.execute(f"create table {table} (id bigint, doc jsonb, doc_text json)")
            with connection.cursor() as cursor:
                cursor.executemany(
                    f"insert into {table} values (%s, %s::jsonb, jsonb_pretty(%s::jsonb)::json)",
                    [tuple(row) for row in exported],
                )
        connection.execute(
            "update documents_changed set doc = jsonb_set(doc, '{dims,w}', '2.51') where id = 1"
        )
        connection.execute("""update documents_changed set doc_text = '{"name": 1}' where id = 4""")
    with (
        pytest.MonkeyPatch.context() as patch,
        scratch.file("models/documents_sources.yml", SOURCES),
    ):
        patch.setenv(PG_ENV, postgres_url)
        lake = {"source": ["documents_lake", "documents"]}
        pairs = [
            {"name": "same", "source": {"source": ["documents_pg", "documents"]}, "target": lake},
            {
                "name": "changed",
                "source": {"source": ["documents_pg", "documents_changed"]},
                "target": lake,
            },
        ]
        assert reconcile(scratch, [{**pair, "key": "id"} for pair in pairs]).success
        summaries = {
            r["pair_name"]: r for r in spark.table(f"{scratch.schema}.parity_summary").collect()
        }
        differences = {
            (r["pair_name"], r["key"], r["column_name"]): (r["source_value"], r["target_value"])
            for r in spark.table(f"{scratch.schema}.parity_differences").collect()
        }
        yield summaries, differences, exported


def test_jsonb_and_json_match_spark_structs_and_strings_by_checksum(reconciled):
    summaries, _, _ = reconciled
    same = summaries["same"]
    assert same["passed"], same
    assert (same["checksum_passes"], same["rows_moved"]) == (1, 0)


def test_changes_in_documents_are_found_with_canonical_text(reconciled):
    _, differences, exported = reconciled
    assert {key for key in differences if key[0] == "changed"} == {
        ("changed", "1", "doc"),
        ("changed", "4", "doc_text"),
    }
    source, target = differences[("changed", "1", "doc")]
    assert target == canonical_text({"kind": "nested"}, exported[0]["doc"])
    assert source == target.replace('"w":2.5', '"w":2.51')
    assert target == '{"dims":{"h":3,"w":2.5},"extra":{"k":"v"},"name":"café","tags":["a","b"]}'
