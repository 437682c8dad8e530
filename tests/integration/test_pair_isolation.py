"""One pair that cannot be planned or reconciled never takes the others down: it gets a result of
status `error` with its reason in a line, every other pair is compared and published, and
`dbt build` still fails (or warns, as configured) on the package's own test and the pair's
generic tests."""

from __future__ import annotations

import shutil

import pytest
import yaml

from tests.integration.damaged_files import CORRUPT_FILE, damaged_orders
from tests.integration.remote_tables import migration_pair
from tests.integration.run_results import by_pair

SOURCES_FILE = "models/isolation_sources.yml"
TESTS_FILE = "models/isolation_tests.yml"
UNSET_ENV = "PARITY_TEST_NEVER_SET"


@pytest.fixture(scope="module")
def broken_inputs(scratch, spark, tmp_path_factory):
    """A directory of Parquet files holding one that is not Parquet, a source table that does not
    exist, and a PostgreSQL source whose connection variable is not set."""
    folder = tmp_path_factory.mktemp("isolation") / "orders"
    sources = {
        "version": 2,
        "sources": [
            damaged_orders(spark, f"{scratch.schema}.legacy_orders", folder),
            {"name": "gone", "schema": scratch.schema, "tables": [{"name": "orders_dropped"}]},
            {
                "name": "unreachable",
                "schema": "public",
                "meta": {"parity": {"dialect": "postgres", "connection_env": UNSET_ENV}},
                "tables": [{"name": "orders"}],
            },
        ],
    }
    with scratch.file(SOURCES_FILE, yaml.safe_dump(sources)):
        yield folder
    shutil.rmtree(folder)


def legacy_against(name: str, target: dict) -> dict:
    return {"name": name, "source": {"ref": "legacy_orders"}, "target": target, "key": "order_id"}


PAIRS = [
    legacy_against("identical", {"ref": "legacy_orders"}),
    migration_pair("migrated"),
    # The migrated copy holds order 2000 twice: enforce_key's default (error) rejects it.
    {**migration_pair("duplicated"), "enforce_key": "error"},
    legacy_against("corrupt", {"source": ["damaged", "orders"]}),
    legacy_against("dropped", {"source": ["gone", "orders_dropped"]}),
    legacy_against("unreachable", {"source": ["unreachable", "orders"]}),
    {**legacy_against("renamed_away", {"ref": "legacy_orders"}), "columns": ["amount", "price"]},
]
FAILING = ["corrupt", "dropped", "duplicated", "renamed_away", "unreachable"]
# What each failing pair's reason names.
REASONS = {
    "corrupt": ["target relation parquet.`", CORRUPT_FILE, "is not a Parquet file"],
    "duplicated": ["target relation", "lakehouse_orders", "1 key values held by more than one row"],
    "renamed_away": ["columns names column 'price', which the source relation"],
    "unreachable": [f"environment variable {UNSET_ENV} is not set"],
    "dropped": ["target relation", "orders_dropped", "does not exist"],
}


def generic_tests() -> str:
    """A user's generic tests on every pair, as the README declares them."""
    tests = [{"parity.in_parity": {"pair": pair["name"]}} for pair in PAIRS]
    tests += [{"parity.no_differences": {"pair": name}} for name in FAILING]
    return yaml.safe_dump(
        {"version": 2, "models": [{"name": "legacy_orders", "data_tests": tests}]}
    )


@pytest.fixture(scope="module")
def built(scratch, spark, broken_inputs):
    vars = scratch.demo_vars(parity={"pairs": PAIRS})
    with scratch.file(TESTS_FILE, generic_tests()):
        # The demo's own singular test expects the demo's pairs: not these.
        result = scratch.dbt(
            "build",
            "--select",
            "parity_remote_relations+ legacy_orders",
            "--exclude",
            "test_type:singular",
            vars=vars,
        )
        summaries, _ = by_pair(spark, scratch.schema)
        yield result, summaries, vars


def test_every_other_pair_is_compared_and_published(built):
    _, summaries, _ = built
    assert sorted(summaries) == sorted(pair["name"] for pair in PAIRS)
    assert summaries["identical"]["status"] == "complete" and summaries["identical"]["passed"]
    migrated = summaries["migrated"]
    assert migrated["status"] == "complete" and migrated["status_reason"] == ""
    assert migrated["data_compared"] and migrated["differing_rows"] > 0


def test_a_failing_pair_is_an_error_with_its_reason_in_one_line(built):
    _, summaries, _ = built
    for name in FAILING:
        row = summaries[name]
        assert row["status"] == "error", name
        assert not row["passed"] and not row["data_compared"], name
        assert row["source_rows"] is None and row["row_drift_pct"] is None, name
        reason = row["status_reason"]
        for expected in REASONS[name]:
            assert expected in reason, (name, reason)
        assert "\n" not in reason and "at org.apache" not in reason, reason


def test_the_build_fails_on_the_failing_pairs_only(built):
    result, _, _ = built
    assert not result.success
    by_node = {r.node.name: r for r in result.result.results}
    models = [r for r in result.result.results if r.node.resource_type == "model"]
    assert all(str(r.status) == "success" for r in models), [
        (r.node.name, r.message) for r in models
    ]
    assert not [r.node.name for r in result.result.results if str(r.status) == "error"]
    complete = next(r for name, r in by_node.items() if name.startswith("parity_pairs_complete"))
    assert str(complete.status) == "fail" and complete.failures == len(FAILING)
    failed_tests = {name for name, r in by_node.items() if str(r.status) == "fail"}
    for name in FAILING:
        assert any(name in test for test in failed_tests if "in_parity" in test), name
        assert any(name in test for test in failed_tests if "no_differences" in test), name
    assert not any("identical" in test for test in failed_tests)


def test_the_build_warns_instead_when_configured(scratch, built):
    _, _, vars = built
    # The published run's summary, tested again under the other severity.
    result = scratch.dbt(
        "build",
        "--select",
        "parity_summary",
        "--exclude",
        "package:parity_demo",
        vars={**vars, "parity_incomplete_severity": "warn"},
    )
    (complete,) = [r for r in result.result.results if r.node.name.startswith("parity_pairs")]
    assert str(complete.status) == "warn" and complete.failures == len(FAILING)
    assert result.success
