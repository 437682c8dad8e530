"""A pull-request check: a project's models built in production, changed and built again in a
dev schema, then each model the dev build built compared with its production relation, keys from
the model's own tests and constraints, beside the pairs the project declares."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.dbt_project_copy import DbtProject, error_text

PROD, DEV = "parity_ci_prod", "parity_ci_dev"
# Each model's schema: the environment's, where the check's own models stay in the profile's.
SCHEMAS = """
{% macro generate_schema_name(custom_schema_name, node) -%}
    {{ var('ci_schema', target.schema) if node.package_name == project_name else target.schema }}
{%- endmacro %}
"""
# dbt_utils' test of a compound key, as a project that installs it has it (the check reads the
# test's name and arguments, never its SQL).
COMPOUND_TEST = """
{% test unique_combination_of_columns(model, combination_of_columns) %}
    select {{ combination_of_columns | join(', ') }} from {{ model }}
    group by {{ combination_of_columns | join(', ') }} having count(*) > 1
{% endtest %}
"""
DEV_ONLY = "{% if var('ci_version') == 'dev' %}"
ORDERS = (
    """
select id, cast(id * 10.25 as decimal(10, 2)) as amount, 'open' as status
from range(1, 21)
"""
    + DEV_ONLY
    + "where id not in (3, 7, 11){% endif %}\n"
)
ROUNDED = (
    """
{{ config(unique_key='id') }}
select id, """
    + DEV_ONLY
    + """cast(round(id * 1.5, 0) as decimal(10, 2))
{% else %}cast(id * 1.5 as decimal(10, 2)){% endif %} as price
from range(1, 11)
"""
)
RENAMED = (
    """
select id, 'open' as """
    + DEV_ONLY
    + "state{% else %}status{% endif %}\nfrom range(1, 6)\n"
)
LINES = (
    """
select orders.id as order_id, lines.id as line_no, """
    + DEV_ONLY
    + """
case when orders.id = 2 and lines.id = 1 then 9 else lines.id end
{% else %}lines.id{% endif %} as quantity
from range(1, 4) as orders cross join range(1, 3) as lines
"""
)
REFACTOR = (
    "select id, id * 2 as doubled from range(1, 8)" + DEV_ONLY + " where id > 0 {% endif %}\n"
)
NEW = "{{ config(enabled=var('ci_version') == 'dev') }}\nselect 1 as id\n"
# Only in production: removed by the change.
GONE = "{{ config(enabled=var('ci_version') == 'prod') }}\nselect id from range(1, 3)\n"
# No key: compared by its rows, schema and column profiles.
EVENTS = (
    "select id % 3 as bucket, cast(id as double) / 4 as weight from range(1, "
    + DEV_ONLY
    + "11{% else %}9{% endif %})\n"
)
MODELS = {
    "ci_orders": ORDERS,
    "ci_rounded": ROUNDED,
    "ci_renamed": RENAMED,
    "ci_lines": LINES,
    "ci_refactor": REFACTOR,
    "ci_new": NEW,
    "ci_events": EVENTS,
    "ci_gone": GONE,
}
PROPERTIES = """
version: 2
models:
  - name: ci_orders
    config:
      meta: {parity: {expect: unchanged}}
    columns:
      - name: id
        data_tests: [unique, not_null]
  - name: ci_renamed
    columns:
      - name: id
        constraints: [{type: primary_key}]
  - name: ci_lines
    data_tests:
      - unique_combination_of_columns:
          combination_of_columns: [order_id, line_no]
  - name: ci_rounded
    config:
      meta: {parity: {sensitive_columns: [price], expect: changed}}
  - name: ci_events
    config:
      meta: {parity: {expect: changed, sensitive_columns: [weight]}}
  - name: ci_refactor
    config:
      meta: {parity: {expect: unchanged}}
    columns:
      - name: id
        data_tests: [unique]
"""


def environment(version: str) -> dict[str, Any]:
    return {"ci_version": version, "ci_schema": PROD if version == "prod" else DEV}


@pytest.fixture(scope="module")
def checked(spark, tmp_path_factory):
    project = DbtProject.copy_of_demo(tmp_path_factory.mktemp("ci") / "project", "parity_ci")
    # The demo's tests read the demo's pairs, which this project does not declare.
    (project.path / "tests" / "planted_differences_found.sql").unlink()
    (project.path / "models" / "schema.yml").unlink()
    project.write("macros/ci_schema.sql", SCHEMAS)
    project.write("macros/ci_compound_test.sql", COMPOUND_TEST)
    project.write("models/ci/ci_properties.yml", PROPERTIES)
    for name, sql in MODELS.items():
        project.write(f"models/ci/{name}.sql", sql)
    built = project.dbt("run", "--select", "ci", vars=environment("prod"))
    assert built.success, error_text(built)
    # Production's artifacts, as a deployment keeps them for `--state`.
    (project.path / "prod-artifacts").mkdir()
    manifest = (project.path / "target" / "manifest.json").read_text()
    (project.path / "prod-artifacts" / "manifest.json").write_text(manifest)
    changed = project.dbt("build", "--select", "ci", vars=environment("dev"))
    assert changed.success, error_text(changed)
    parity = {
        "environments": {"prod": {"schema": PROD, "manifest": "prod-artifacts"}},
        "pairs": [
            {
                "name": "declared",
                "source": {"ref": "ci_refactor"},
                "target": {"relation": [PROD, "ci_refactor"]},
                "key": "id",
            }
        ],
    }
    vars = {**environment("dev"), "parity": parity, "parity_ci": {"against": "prod"}}
    compared = project.dbt("build", "--select", "package:parity", vars=vars, logged=[])
    summary = {
        r["pair_name"]: r.asDict() for r in spark.table("parity_ci.parity_summary").collect()
    }
    differences = spark.table("parity_ci.parity_differences").collect()
    written = (project.path / "target" / "parity_ci_summary.md").read_text()
    return compared, summary, differences, written, project, vars


def test_each_model_built_is_compared_with_production(checked):
    compared, summary, *_ = checked
    # The new model has no production relation, the removed one no relation here: neither is a
    # pair, and neither fails anything.
    assert sorted(summary) == [
        "ci_lines",
        "ci_orders",
        "ci_refactor",
        "ci_renamed",
        "ci_rounded",
        "declared",
    ]
    orders = summary["ci_orders"]
    assert (orders["source_relation"], orders["target_relation"]) == (
        f"{PROD}.ci_orders",
        f"{DEV}.ci_orders",
    )
    # Only the test of what the models expect fails: ci_orders was to be unchanged.
    failed = [r for r in compared.result.results if r.status in ("error", "fail")]
    assert [(r.node.name.split("_")[0:3], r.failures) for r in failed] == [
        (["parity", "ci", "expectations"], 1)
    ], error_text(compared)


def test_the_keys_come_from_the_models_tests_and_constraints(checked):
    _, summary, differences, *_ = checked
    keys = {name: {d["key"] for d in differences if d["pair_name"] == name} for name in summary}
    # A unique test: the three orders the change filtered out are missing from dev.
    assert keys["ci_orders"] == {"3", "7", "11"}
    assert (
        summary["ci_orders"]["missing_in_target_rows"],
        summary["ci_orders"]["source_rows"],
    ) == (
        3,
        20,
    )
    # unique_key: the prices the change rounded (1.5 to 2, 4.5 to 5...): the odd ids.
    assert keys["ci_rounded"] == {"1", "3", "5", "7", "9"}
    assert summary["ci_rounded"]["value_mismatch_rows"] == 5
    # A compound unique test: the one line whose quantity changed.
    assert keys["ci_lines"] == {'["2","1"]'}
    # A primary-key constraint: the rows match; the column renamed is a schema finding.
    assert summary["ci_renamed"]["differing_rows"] == 0
    assert summary["ci_renamed"]["schema_findings"] > 0


def test_a_pure_refactor_is_unchanged(checked):
    _, summary, *_ = checked
    assert summary["ci_refactor"]["passed"] and summary["ci_refactor"]["differing_rows"] == 0
    assert summary["declared"]["passed"]


def test_the_summary_says_what_changed_in_a_few_lines(checked):
    written = checked[3]
    lines = written.splitlines()
    assert lines[0] == "## parity: this change against `prod`"
    assert lines[2] == "8 models: 5 changed, 1 unchanged, 1 new, 1 removed."
    rows = [line for line in lines if line.startswith("| ci_")]
    assert rows == [
        "| ci_events | changed, no key | 8 → 10 | | | | 0 |",
        "| ci_lines | changed | 6 → 6 | 0 | 0 | 1 | 0 |",
        "| ci_new | new | | | | | |",
        "| ci_orders | **changed** (expected unchanged) | 20 → 17 | 0 | 3 | 0 | 0 |",
        "| ci_refactor | unchanged | 7 → 7 | 0 | 0 | 0 | 0 |",
        "| ci_renamed | changed | 5 → 5 | 0 | 0 | 0 | 2 |",
        "| ci_rounded | changed | 10 → 10 | 0 | 0 | 5 | 0 |",
        "| ci_gone | removed | 2 → - | | | | |",
    ]
    # Each changed model: the columns that changed, with their share of the rows compared, its
    # schema changes, and up to three example rows of each kind, sensitive values hidden.
    assert "Columns changed: `quantity` 1 row (16.7%)." in lines
    assert "Columns changed: `price` 5 rows (50.0%)." in lines
    assert "Schema: `state` added, `status` removed." in lines
    events = lines[lines.index("### ci_events") :]
    assert events[1:3] == [
        "No key: values not matched row by row.",
        # weight is sensitive: its greatest and its sum changed, their values never shown.
        "Columns changed: `bucket` sum 9 → 10, `weight` distinct 8 → 10,"
        " `weight` greatest changed, `weight` sum changed.",
    ]
    orders = lines[lines.index("### ci_orders") :]
    assert orders[4:7] == [
        '| removed | `3` |  | `{"amount":"30.75","status":"open"}` | - |',
        '| removed | `7` |  | `{"amount":"71.75","status":"open"}` | - |',
        '| removed | `11` |  | `{"amount":"112.75","status":"open"}` | - |',
    ]
    rounded = lines[lines.index("### ci_rounded") :]
    assert rounded[5:8] == [f"| changed | `{key}` | price | hidden | hidden |" for key in (1, 3, 5)]


@pytest.mark.parametrize(
    ("check", "said"),
    [
        ({"against": "staging"}, "parity_ci: no environment 'staging' with a schema or a manifest"),
        (
            {"against": "prod", "run_results": "nowhere"},
            "parity_ci: the models the last build built are read from its run_results.json, and",
        ),
        ({"against": "prod", "models": ["ci_nothing"]}, "no model named 'ci_nothing'"),
    ],
)
def test_a_check_misconfigured_says_what_is_wrong(checked, check, said):
    project, vars = checked[4:]
    failed = project.dbt("build", "--select", "parity_plan", vars={**vars, "parity_ci": check})
    assert not failed.success and said in error_text(failed)
