"""dbt docs show the pairs: `dbt run-operation parity_docs` writes one exposure per pair, on its
two relations, with its latest verdict, for the user to commit; and adds to dbt's catalog the
columns parity read of a source outside Spark, which dbt's own catalog cannot list. A command
that reconciled nothing (`dbt docs generate`) prints no report."""

from __future__ import annotations

import json

import pytest
import yaml

from tests.integration.docs_site import docs_pages, served
from tests.integration.remote_tables import migration_pair, reconcile, remote_pair

PAIRS = [
    remote_pair("docs_duckdb", "legacy_duckdb", {"ref": "lakehouse_orders"}, enforce_key="warn"),
    migration_pair("docs_spark"),
]


@pytest.fixture(scope="module")
def documented(scratch, remote_legacy, spark):
    """A reconciliation, then what a user runs to see it in dbt docs: the exposures written and
    committed beside the models, `dbt docs generate`, and `parity_docs` again for the catalog."""
    settings = scratch.demo_vars(parity={"pairs": PAIRS})
    target = scratch.path / "target"
    assert reconcile(scratch, PAIRS).success
    assert scratch.dbt("run-operation", "parity_docs", vars=settings).success
    exposures = yaml.safe_load((target / "parity_exposures.yml").read_text())["exposures"]
    generate_log: list[str] = []
    with scratch.file("models/parity_exposures.yml", (target / "parity_exposures.yml").read_text()):
        assert scratch.dbt("docs", "generate", vars=settings, logged=generate_log).success
        assert scratch.dbt("run-operation", "parity_docs", vars=settings).success
        catalog = json.loads((target / "catalog.json").read_text())
        manifest = json.loads((target / "manifest.json").read_text())
        with served(target) as address, docs_pages(address) as text_of:
            shown = {
                "exposure": text_of(f"exposure/{_exposure_id(manifest)}", "Latest published"),
                "source": text_of(f"source/{_source_id(manifest)}", "customer_id"),
            }
    summary = {
        row["pair_name"]: row.asDict()
        for row in spark.sql(f"select * from {scratch.schema}.parity_summary").collect()
    }
    columns = spark.sql(
        f"select column_name, data_type from {scratch.schema}.parity_remote_columns"
        " where pair_name = 'docs_duckdb' and side = 'source' order by ordinal"
    ).collect()
    yield generate_log, exposures, catalog, manifest, summary, columns, shown


def _source_id(manifest) -> str:
    return next(
        uid
        for uid, node in manifest["sources"].items()
        if (node["source_name"], node["name"]) == ("legacy_duckdb", "orders")
    )


def _exposure_id(manifest) -> str:
    return next(uid for uid in manifest["exposures"] if uid.endswith(".parity_docs_duckdb"))


def test_docs_generate_prints_no_report(documented):
    generate_log = documented[0]
    assert not [line for line in generate_log if "parity pair" in line or "published" in line]


def test_each_pair_is_an_exposure_on_its_two_relations_with_its_verdict(documented):
    _, exposures, _, manifest, summary, _, _ = documented
    by_name = {exposure["name"]: exposure for exposure in exposures}
    assert set(by_name) == {"parity_docs_duckdb", "parity_docs_spark"}
    duckdb_pair = by_name["parity_docs_duckdb"]
    assert duckdb_pair["type"] == "analysis" and duckdb_pair["owner"] == {"name": "parity"}
    assert duckdb_pair["depends_on"] == [
        'source("legacy_duckdb", "orders")',
        'ref("lakehouse_orders")',
    ]
    for name, exposure in by_name.items():
        result = summary[name.removeprefix("parity_")]
        verdict = "PASS" if result["passed"] else "DIFFERENT"
        assert exposure["meta"]["parity"]["verdict"] == verdict
        assert exposure["meta"]["parity"]["run_id"] == result["run_id"]
        assert f"{verdict}: {result['differing_rows']} differing rows" in exposure["description"]
    # In the graph: each exposure depends on the nodes of its two relations.
    graph = {node["name"]: node["depends_on"]["nodes"] for node in manifest["exposures"].values()}
    source_id = _source_id(manifest)
    model_id = next(uid for uid in manifest["nodes"] if uid.endswith(".lakehouse_orders"))
    legacy_id = next(uid for uid in manifest["nodes"] if uid.endswith(".legacy_orders"))
    assert sorted(graph["parity_docs_duckdb"]) == sorted([source_id, model_id])
    assert sorted(graph["parity_docs_spark"]) == sorted([legacy_id, model_id])


def test_the_catalog_holds_the_columns_of_the_source_outside_spark(documented):
    _, _, catalog, manifest, _, columns, _ = documented
    source_id = _source_id(manifest)
    entry = catalog["sources"][source_id]
    assert entry["unique_id"] == source_id
    assert entry["metadata"]["name"] == "orders" and entry["metadata"]["schema"] == "main"
    listed = sorted(entry["columns"].values(), key=lambda column: column["index"])
    assert [(c["name"], c["type"]) for c in listed] == [tuple(row) for row in columns]
    assert len(listed) == 10
    # dbt's own entries are kept.
    assert any(uid.endswith(".lakehouse_orders") for uid in catalog["nodes"])


def test_the_package_analyses_are_not_in_a_users_graph(documented):
    manifest = documented[3]
    assert not [
        uid
        for uid, node in manifest["nodes"].items()
        if node["resource_type"] == "analysis" and node["package_name"] == "parity"
    ]


def test_a_person_browsing_the_docs_sees_the_pair_and_the_remote_columns(documented):
    _, _, _, _, summary, columns, shown = documented
    result = summary["docs_duckdb"]
    assert (
        "parity compares legacy_duckdb.orders (source) with lakehouse_orders (target)"
        in (shown["exposure"])
    )
    assert f"{result['differing_rows']} differing rows" in shown["exposure"]
    for name, data_type in columns:
        assert name in shown["source"] and data_type in shown["source"]
