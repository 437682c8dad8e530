"""A Spark relation's columns read from dbt's session, one relation at a time
(adapter.parity_spark_columns) or many at once (adapter.parity_spark_columns_of, which the plan
uses), are exactly what the plan reads through SQL where Spark runs outside dbt
(parity.spark_columns: `describe extended` and its JSON form): the type of every column as
describe spells it, its nullability and its nested fields, for every kind of Spark type, a
view and a missing table."""

from __future__ import annotations

import json

SCHEMA = "parity_columns"
COLUMNS = {
    "k": "bigint not null",
    "t": "tinyint",
    "s": "smallint",
    "i": "int not null",
    "f": "float",
    "d": "double",
    "n": "decimal(38,10)",
    "txt": "string",
    "ci": "string collate UTF8_LCASE",
    "c": "char(3)",
    "v": "varchar(5)",
    "b": "binary",
    "flag": "boolean",
    "day": "date",
    "ts": "timestamp",
    "ntz": "timestamp_ntz",
    "dt": "interval day to second",
    "ym": "interval year to month",
    "doc": "struct<a:int not null,b:struct<c:string collate UTF8_LCASE,"
    "d:array<map<string,decimal(5,2)>>>,e:interval day>",
    "tags": "array<struct<x:timestamp,y:binary>>",
    "totals": "map<int,array<timestamp_ntz>>",
    "wide": "struct<" + ",".join(f"w{i}:int" for i in range(30)) + ">",
    "var": "variant",
}
MACRO = """
{% macro parity_test_columns(names) %}
    {%- do log('at once ' ~ tojson(adapter.parity_spark_columns_of(names)), info=true) -%}
    {%- for name in names -%}
        {%- set spec = {'relation': name.split('.')} -%}
        {%- do log('columns ' ~ tojson({
            'name': name,
            'session': adapter.parity_spark_columns(name),
            'sql': parity.spark_columns(spec, name),
        }), info=true) -%}
    {%- endfor -%}
{% endmacro %}
"""


def test_session_and_sql_read_the_same_columns(spark, scratch) -> None:
    spark.sql(f"create database if not exists {SCHEMA}")
    declared = ", ".join(f"`{name}` {kind}" for name, kind in COLUMNS.items())
    spark.sql(f"drop table if exists {SCHEMA}.every_type")
    spark.sql(f"create table {SCHEMA}.every_type ({declared}) using parquet")
    spark.sql(
        f"create or replace view {SCHEMA}.every_type_view as"
        f" select k, c, doc, totals, 1 as one from {SCHEMA}.every_type"
    )
    names = [f"{SCHEMA}.every_type", f"{SCHEMA}.every_type_view", f"{SCHEMA}.no_such_table"]
    logged: list[str] = []
    with scratch.file("macros/parity_test_columns.sql", MACRO):
        result = scratch.dbt(
            "run-operation",
            "parity_test_columns",
            "--args",
            json.dumps({"names": names}),
            logged=logged,
        )
    assert result.success
    read = {
        found["name"]: found
        for found in (json.loads(m.removeprefix("columns ")) for m in logged if "columns " in m)
        if "name" in found
    }
    at_once = next(json.loads(m.removeprefix("at once ")) for m in logged if "at once " in m)
    assert list(read) == names
    for name in names:
        assert read[name]["session"] == read[name]["sql"], name
    assert list(at_once) == names[:2]
    for name in names[:2]:
        assert at_once[name] == read[name]["session"], name
    table = {c["name"]: c for c in read[names[0]]["session"]}
    assert list(table) == list(COLUMNS)
    assert table["c"]["data_type"] == "char(3)" and table["v"]["data_type"] == "varchar(5)"
    assert table["ci"]["data_type"] == "string collate UTF8_LCASE"
    assert table["t"]["nullable"] is True
    assert [c["nullable"] for c in read[names[1]]["session"]][-1] is False
    assert {f["path"] for f in table["doc"]["fields"]} >= {
        "doc.a",
        "doc.b.c",
        "doc.b.d[]",
        "doc.b.d[]{key}",
        "doc.b.d[]{value}",
    }
    assert read[names[2]]["session"] == []
