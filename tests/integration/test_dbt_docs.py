"""dbt docs: every model, column, analysis, macro and macro argument of the package is described,
and the lineage runs from each compared relation through the plan to every result model.

The package is parsed and its SQL models compiled by dbt in this process, writing only to a
temporary folder; neither needs Spark. The checker (`missing_docs`, tests/docs_coverage.py, tested
on hand-made manifests in tests/unit/test_docs_coverage.py) compares the documentation in the
manifest with what the code defines: the output columns of each SQL model's compiled select,
parsed by sqlfluff; for the Python models, the schema their library function returns
(`PYTHON_MODEL_COLUMNS`, to extend with any new Python model); each macro's signature, parsed by
dbt's Jinja parser. So a column, macro or argument added to the code without a description fails
here, and so does documentation of something the code no longer has.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from dbt.cli.main import dbtRunnerResult

from parity.results.pair_result import RESULTS_COLUMNS
from parity.sides.remote_columns import COLUMNS_SCHEMA
from tests.conftest import PACKAGE_ANALYSES, REPO, dbt_on_package
from tests.docs_coverage import PACKAGE, lineage_gaps, missing_docs, select_columns
from tests.integration.dbt_project_copy import DbtProject
from tests.integration.remote_tables import SOURCES

# The columns of each Python model: the schema of the DataFrame its library function returns.
PYTHON_MODEL_COLUMNS = {
    "parity_pair_results": list(RESULTS_COLUMNS),
    "parity_remote_columns": COLUMNS_SCHEMA.fieldNames(),
}


def dbt(project: Path, scratch: Path, *args: str) -> dbtRunnerResult:
    """dbt in this process on `project`, with the package's profile; writes only under scratch."""
    return dbt_on_package(scratch, *args, project=project)


def documentation_gaps(project: Path, scratch: Path) -> list[str]:
    """`missing_docs` of the package at `project`: parsed, then its SQL models compiled (not the
    Python ones, whose compilation would start Spark)."""
    dbt(project, scratch, "parse", *PACKAGE_ANALYSES)
    manifest = json.loads((scratch / "target" / "manifest.json").read_text())
    sql_models = sorted(
        node["name"]
        for node in manifest["nodes"].values()
        if node["resource_type"] == "model"
        and node["package_name"] == PACKAGE
        and node["language"] == "sql"
    )
    assert sql_models
    compiled = dbt(project, scratch, "compile", "--select", *sql_models, *PACKAGE_ANALYSES)
    produced = {r.node.name: select_columns(r.node.compiled_code) for r in compiled.result.results}
    return missing_docs(manifest, PACKAGE, {**produced, **PYTHON_MODEL_COLUMNS})


# The module's fixtures run dbt after `spark` has started the tests' session: a command that
# connects (compile does) would otherwise start one of its own, configured unlike every other
# test's, for every test after it on this worker.
@pytest.fixture(scope="module")
def package_gaps(spark, tmp_path_factory) -> list[str]:
    return documentation_gaps(REPO, tmp_path_factory.mktemp("docs"))


def test_package_is_fully_documented(package_gaps):
    assert not package_gaps, "Document these in the YAML beside them:\n" + "\n".join(package_gaps)


def test_gaps_in_a_copy_of_the_package_are_reported(package_gaps, tmp_path):
    """A copy of the package with an undocumented macro, a column description removed, a column
    and an argument documented that do not exist, and a type dbt does not know."""
    copy = tmp_path / "package"
    for part in ("models", "macros", "analyses"):
        shutil.copytree(REPO / part, copy / part)
    shutil.copy(REPO / "dbt_project.yml", copy)
    (copy / "macros" / "extra.sql").write_text(
        "{% macro parity_extra(relation, limit=10) %}{% endmacro %}\n"
    )
    edit_yaml(copy / "models/results/_results__models.yml", break_results)
    edit_yaml(copy / "macros/reporting/_reporting__macros.yml", break_reporting)

    gaps = set(documentation_gaps(copy, tmp_path / "scratch")) - set(package_gaps)

    summary = "model parity_summary (models/results/parity_summary.sql)"
    differences = "model parity_differences (models/results/parity_differences.sql)"
    extra = "macro parity_extra (macros/extra.sql)"
    report = "macro parity_report (macros/reporting/parity_report.sql)"
    shown = "macro _shown (macros/reporting/parity_report.sql)"
    assert gaps == {
        f"{summary}: column passed has no description",
        f"{differences}: documents column pair_kind, which the model does not produce",
        f"{extra}: no description",
        f"{extra}: argument relation is not documented",
        f"{extra}: argument limit is not documented",
        f"{report}: argument example_rows has type 'number', not one dbt knows",
        f"{shown}: documents argument default, which is not in its signature",
    }


def edit_yaml(path: Path, edit) -> None:
    properties = yaml.safe_load(path.read_text())
    edit(
        {
            entry["name"]: entry
            for entry in properties["macros" if "macros" in properties else "models"]
        }
    )
    path.write_text(yaml.safe_dump(properties, sort_keys=False))


def break_results(models: dict[str, Any]) -> None:
    for column in models["parity_summary"]["columns"]:
        if column["name"] == "passed":
            del column["description"]
    models["parity_differences"]["columns"].append({"name": "pair_kind", "description": "None."})


def break_reporting(macros: dict[str, Any]) -> None:
    macros["parity_report"]["arguments"][0]["type"] = "number"
    macros["_shown"]["arguments"].append(
        {"name": "default", "type": "string", "description": "Shown for NULL."}
    )


# Lineage, in the demo project: its pairs, and more whose sides are sources.

FILE_SOURCES = """
version: 2
sources:
  - name: exports
    meta:
      parity: {format: parquet, path: /nonexistent/orders}
    tables:
      - name: orders
"""
SOURCE_PAIRS = [
    {
        "name": "orders_pg",
        "source": {"source": ["legacy_pg", "orders"]},
        "target": {"ref": ["parity_demo", "lakehouse_orders"]},
        "key": "order_id",
    },
    {
        "name": "orders_files",
        "source": {"source": ["exports", "orders"]},
        "target": {"source": ["legacy_duckdb", "orders"]},
        "key": "order_id",
    },
]


@pytest.fixture(scope="module")
def demo_lineage(spark, tmp_path_factory) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The manifest of the demo project, parsed with its own pairs and the pairs above, and
    every pair configured."""
    # DbtProject sets PARITY_SCHEMA for its commands; the other tests' commands find it as it was.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PARITY_SCHEMA", "parity_docs")
        project = DbtProject.copy_of_demo(
            tmp_path_factory.mktemp("lineage") / "demo", "parity_docs"
        )
        project.write("models/remote_sources.yml", SOURCES)
        project.write("models/file_sources.yml", FILE_SOURCES)
        settings = project.demo_vars()
        pairs = settings["parity"]["pairs"] + SOURCE_PAIRS
        parsed = project.dbt("parse", vars={**settings, "parity": {"pairs": pairs}})
    assert parsed.success, parsed.exception
    return json.loads((project.path / "target" / "manifest.json").read_text()), pairs


def test_lineage_runs_from_compared_relations_through_the_plan_to_every_result(demo_lineage):
    manifest, pairs = demo_lineage
    gaps = lineage_gaps(manifest, pairs)
    assert not gaps, "\n".join(gaps)
