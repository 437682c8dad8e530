"""The docs check on hand-made manifests (tests/docs_coverage.py): each kind of documentation gap,
none when all is described, and each break of the lineage from the pairs through the plan to the
results. tests/integration/test_dbt_docs.py runs the same checks on the package's own manifest."""

from __future__ import annotations

from typing import Any

import pytest

from tests.docs_coverage import (
    PACKAGE,
    RESULT_MODELS,
    lineage_gaps,
    macro_arguments,
    missing_docs,
    select_columns,
)

MODEL = "model orders (models/orders.sql)"
TEST = "macro test_positive (macros/positive.sql)"
PRODUCED = {"orders": ["id", "TOTAL"]}
COLUMN_NAME = {"name": "column_name", "type": "string", "description": "The column tested."}


def manifest_of(model: dict[str, Any], macro: dict[str, Any]) -> dict[str, Any]:
    model = {
        "unique_id": "model.pkg.orders",
        "name": "orders",
        "resource_type": "model",
        "package_name": "pkg",
        "original_file_path": "models/orders.sql",
        "description": "Orders.",
        "columns": {
            "id": {"name": "id", "description": "The key."},
            "total": {"name": "total", "description": "In cents."},
        },
        **model,
    }
    macro = {
        "unique_id": "macro.pkg.test_positive",
        "name": "test_positive",
        "package_name": "pkg",
        "original_file_path": "macros/positive.sql",
        "macro_sql": "{% test positive(model, column_name) %}select 1{% endtest %}",
        "description": "Fails on values below 0.",
        "arguments": [
            {"name": "model", "type": "relation", "description": "The model tested."},
            COLUMN_NAME,
        ],
        **macro,
    }
    other_package = {**macro, "unique_id": "macro.dbt.other", "package_name": "dbt"}
    other_package.update(description="", arguments=[])
    return {
        "nodes": {model["unique_id"]: model},
        "macros": {macro["unique_id"]: macro, other_package["unique_id"]: other_package},
    }


def test_checker_finds_nothing_missing_when_all_is_described():
    assert missing_docs(manifest_of({}, {}), "pkg", PRODUCED) == []


@pytest.mark.parametrize(
    ("model", "macro", "produced", "gap"),
    [
        ({"description": " "}, {}, PRODUCED, f"{MODEL}: no description"),
        ({}, {}, {"orders": ["id", "total", "tax"]}, f"{MODEL}: column tax has no description"),
        (
            {},
            {},
            {"orders": ["id"]},
            f"{MODEL}: documents column total, which the model does not produce",
        ),
        ({}, {}, {}, f"{MODEL}: the docs check does not know the columns this model produces"),
        ({}, {"description": ""}, PRODUCED, f"{TEST}: no description"),
        ({}, {"arguments": [COLUMN_NAME]}, PRODUCED, f"{TEST}: argument model is not documented"),
        (
            {},
            {"macro_sql": "{% test positive(model, column_name, at_least=0) %}{% endtest %}"},
            PRODUCED,
            f"{TEST}: argument at_least is not documented",
        ),
        (
            {},
            {"macro_sql": "{% test positive(model) %}select 1{% endtest %}"},
            PRODUCED,
            f"{TEST}: documents argument column_name, which is not in its signature",
        ),
    ],
)
def test_checker_reports_each_gap(model, macro, produced, gap):
    assert missing_docs(manifest_of(model, macro), "pkg", produced) == [gap]


def test_checker_reports_an_undescribed_analysis():
    manifest = manifest_of({}, {})
    manifest["nodes"]["analysis.pkg.report"] = {
        "unique_id": "analysis.pkg.report",
        "name": "report",
        "resource_type": "analysis",
        "package_name": "pkg",
        "original_file_path": "analyses/report.sql",
        "description": "",
    }
    gap = "analysis report (analyses/report.sql): no description"
    assert missing_docs(manifest, "pkg", PRODUCED) == [gap]


@pytest.mark.parametrize(
    ("argument", "gap"),
    [
        ({"type": None}, "argument column_name has no type"),
        ({"type": "dict"}, "argument column_name has type 'dict', not one dbt knows"),
        ({"description": ""}, "argument column_name has no description"),
    ],
)
def test_checker_reports_each_argument_gap(argument, gap):
    arguments = [
        {"name": "model", "type": "relation", "description": "The model tested."},
        {**COLUMN_NAME, **argument},
    ]
    assert missing_docs(manifest_of({}, {"arguments": arguments}), "pkg", PRODUCED) == [
        f"{TEST}: {gap}"
    ]


def test_checker_reads_signatures_and_select_columns():
    assert macro_arguments("{% macro m(a, b=[], c={}) %}{% endmacro %}") == ["a", "b", "c"]
    assert macro_arguments("{% test t(model, x) %}select 1{% endtest %}") == ["model", "x"]
    sql = "select a, t.b, cast(c as string) as d, inline(e) as (f, `g`) from t union all select 1"
    assert select_columns(sql) == ["a", "b", "d", "f", "g"]
    assert select_columns("with q as (select 1 as z) select z as y from q") == ["y"]
    for unnamed in ("select * from t", "select a + 1 from t"):
        with pytest.raises(ValueError, match="cannot name"):
            select_columns(unnamed)


def test_lineage_gaps_are_reported():
    """A hand-made graph where the plan misses the target and a result skips the plan."""
    names = [(PACKAGE, name) for name in ("parity_plan", *RESULT_MODELS)] + [
        ("demo", "old"),
        ("demo", "new"),
    ]
    nodes = {
        f"model.{package}.{name}": {"resource_type": "model", "name": name, "package_name": package}
        for package, name in names
    }
    plan, results, summary, differences = (f"model.{PACKAGE}.{name}" for _, name in names[:4])
    manifest = {
        "nodes": nodes,
        "sources": {},
        "parent_map": {
            plan: ["model.demo.old"],
            results: [plan],
            summary: [results],
            differences: ["model.demo.new"],
            "model.demo.old": [],
            "model.demo.new": [],
        },
    }
    pair = {"name": "p", "source": {"ref": "old"}, "target": {"ref": ["demo", "new"]}}
    assert lineage_gaps(manifest, [pair]) == [
        "pair p: its target {'ref': ['demo', 'new']} is not an ancestor of parity_plan",
        "parity_plan is not an ancestor of parity_differences",
    ]
