"""Parquet and JSON directories as pair sides: dbt sources whose meta names a format and a path,
read by Spark as parquet.`path` / json.`path`."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from pyspark.sql import functions as F
from pyspark.sql import types as T

from tests.integration.remote_tables import reconcile
from tests.integration.run_results import by_pair, error_of

ORDERS_ENV = "PARITY_TEST_ORDERS_PARQUET"
SOURCES_FILE = "models/file_sources.yml"

# Spark infers a JSON object as a struct with its keys sorted; the Parquet copy declares another
# order, which nested values' canonical JSON (keys sorted) does not see.
CUSTOMER = T.StructType(
    [
        T.StructField(
            "address", T.StructType([T.StructField(n, T.StringType()) for n in ("street", "city")])
        ),
        T.StructField("id", T.LongType()),
        T.StructField("name", T.StringType()),
        T.StructField("tags", T.ArrayType(T.StringType())),
    ]
)


def customer(i: int, city: str | None = None) -> dict:
    """A nested document; its keys in the order a writer might put them, not sorted."""
    address = {"street": f"{i} Main St", "city": city or ("Lyon", "Oslo", "Porto")[i % 3]}
    return {
        "id": i,
        "name": f"customer {i}",
        "address": None if i % 10 == 0 else address,
        "tags": [f"t{j}" for j in range(i % 4)],
    }


def write_json_lines(folder: Path, documents: list[dict]) -> None:
    folder.mkdir(parents=True)
    (folder / "part-0.json").write_text("".join(json.dumps(d) + "\n" for d in documents))


@pytest.fixture(scope="module")
def files(scratch, spark, tmp_path_factory):
    """The scratch project's legacy orders as Parquet (a copy, and one with planted changes),
    customer documents as JSON and Parquet, all declared as sources of the project."""
    folder = tmp_path_factory.mktemp("files")
    legacy = spark.table(f"{scratch.schema}.legacy_orders")
    # A backtick and a quote in the path: Spark must get them quoted, not as SQL.
    orders_copy = folder / "odd `name's`" / "orders"
    legacy.write.parquet(str(orders_copy))
    changed_amount = F.when(F.col("order_id") == 42, F.col("amount") + 1).otherwise(F.col("amount"))
    legacy.where("order_id <> 7").withColumn(
        "amount", changed_amount.cast("decimal(12, 2)")
    ).write.parquet(str(folder / "orders_changed"))

    documents = [customer(i) for i in range(1, 201)]
    write_json_lines(folder / "customers_json", documents)
    write_json_lines(
        folder / "customers_changed_json",
        [customer(i, city="Quito") if i == 17 else d for i, d in enumerate(documents, 1)],
    )
    spark.createDataFrame(documents, CUSTOMER).write.parquet(str(folder / "customers_parquet"))

    def table(name: str, **parity: str) -> dict:
        return {"name": name, "meta": {"parity": parity}}

    sources = {
        "version": 2,
        "sources": [
            {
                # The format on the source, each table's path (or its variable) on the table.
                "name": "order_files",
                "meta": {"parity": {"format": "parquet"}},
                "tables": [
                    table("orders_copy", path_env=ORDERS_ENV),
                    table("orders_changed", path=str(folder / "orders_changed")),
                    table("orders_missing", path=str(folder / "no_such_folder")),
                    table("json_read_as_parquet", path=str(folder / "customers_json")),
                ],
            },
            {
                "name": "customer_files",
                "tables": [
                    table("customers_json", format="json", path=str(folder / "customers_json")),
                    table(
                        "customers_changed_json",
                        format="json",
                        path=str(folder / "customers_changed_json"),
                    ),
                    table(
                        "customers_parquet",
                        format="parquet",
                        path=str(folder / "customers_parquet"),
                    ),
                ],
            },
        ],
    }
    with pytest.MonkeyPatch.context() as environment:
        environment.setenv(ORDERS_ENV, str(orders_copy))
        scratch.write(SOURCES_FILE, yaml.safe_dump(sources))
        yield SimpleNamespace(
            orders_copy=orders_copy,
            missing=folder / "no_such_folder",
            customers_json=folder / "customers_json",
        )
        (scratch.path / SOURCES_FILE).unlink()


def orders_pair(name: str, files_table: str, **options) -> dict:
    return {
        "name": name,
        "source": {"source": ["order_files", files_table]},
        "target": {"ref": "legacy_orders"},
        "key": "order_id",
        **options,
    }


def customers_pair(name: str, json_table: str) -> dict:
    return {
        "name": name,
        "source": {"source": ["customer_files", json_table]},
        "target": {"source": ["customer_files", "customers_parquet"]},
        "key": "id",
    }


def plan_only(project, pairs):
    return project.dbt(
        "run",
        "--select",
        "parity_remote_relations parity_remote_columns parity_plan",
        vars=project.demo_vars(parity={"pairs": pairs}),
        parse_once=True,
    )


def test_file_relations_reconcile(scratch, spark, files):
    pairs = [
        orders_pair("orders_copy", "orders_copy", algorithm="hashdiff"),
        orders_pair(
            "orders_changed", "orders_changed", algorithm="hashdiff", bisection_threshold=64
        ),
        customers_pair("customers", "customers_json"),
        customers_pair("customers_changed", "customers_changed_json"),
    ]
    assert reconcile(scratch, pairs).success
    summary = {r["pair_name"]: r for r in spark.table(f"{scratch.schema}.parity_summary").collect()}
    found = {
        (r["pair_name"], r["key"], r["kind"], r["column_name"])
        for r in spark.table(f"{scratch.schema}.parity_differences").collect()
    }

    # The equal copy: one checksum pass per side, no row moved.
    copy = summary["orders_copy"]
    assert copy["passed"] and copy["differing_rows"] == 0
    assert (copy["source_rows"], copy["checksum_passes"], copy["rows_moved"]) == (3000, 1, 0)

    assert {f for f in found if f[0] == "orders_changed"} == {
        ("orders_changed", "7", "missing_in_source", None),
        ("orders_changed", "42", "value_mismatch", "amount"),
    }
    assert not summary["orders_changed"]["passed"]

    # Nested documents: struct and array columns of JSON against their Parquet copy.
    assert summary["customers"]["algorithm"] == "joindiff"
    assert summary["customers"]["passed"] and summary["customers"]["source_rows"] == 200
    assert {f for f in found if f[0] == "customers_changed"} == {
        ("customers_changed", "17", "value_mismatch", "address")
    }

    relations = {
        (r["pair_name"], side): r[f"{side}_relation_name"]
        for r in spark.table(f"{scratch.schema}.parity_plan").collect()
        for side in ("source", "target")
    }
    quoted = str(files.orders_copy).replace("`", "``")
    assert relations["orders_copy", "source"] == f"parquet.`{quoted}`"
    assert relations["customers", "source"].startswith("json.`")

    manifest = json.loads((scratch.path / "target" / "manifest.json").read_text())
    assert (
        "source.parity_demo.order_files.orders_copy"
        in (manifest["nodes"]["model.parity.parity_plan"]["depends_on"]["nodes"])
    )


def planned(scratch, spark) -> dict:
    return {r["pair_name"]: r for r in spark.table(f"{scratch.schema}.parity_plan").collect()}


# Each unreadable table of files, and Spark's reason, under the pair names it is read by.
UNREADABLE = {
    "orders_missing": (
        "Spark cannot read parquet files at {missing}:"
        " [PATH_NOT_FOUND] Path does not exist: file:{missing}."
    ),
    "json_read_as_parquet": (
        "Spark cannot read parquet files at {json}: [FAILED_READ_FILE.CANNOT_READ_FILE_FOOTER]"
        " Encountered error while reading file file:{json}/part-0.json."
    ),
}


@pytest.fixture(scope="module")
def unreadable_run(scratch, spark, files):
    """One run of a readable pair beside, for each unreadable table, a pair reading it against
    a model and a pair reading it against readable files; its plan, by pair name."""
    pairs = [orders_pair("orders_copy", "orders_copy")]
    for files_table in UNREADABLE:
        pairs.append(orders_pair(files_table, files_table))
        pairs.append(
            {
                **orders_pair(f"{files_table}_both", files_table),
                "target": {"source": ["order_files", "orders_copy"]},
            }
        )
    assert reconcile(scratch, pairs).success
    plan = planned(scratch, spark)
    # The readable side's files were read, and the view left to describe them dropped.
    assert not spark.catalog.tableExists("__parity_described_target")
    return plan, by_pair(spark, scratch.schema)[0]


@pytest.mark.parametrize("files_table", UNREADABLE)
def test_an_unreadable_pair_is_planned_as_its_problem_and_fails_alone(
    unreadable_run, files, files_table
):
    # One run plans and reconciles: its plan holds the other pair in full, and the unreadable
    # ones as their problem, Spark's reason.
    plan, summaries = unreadable_run
    assert plan["orders_copy"]["problem"] == "" and plan["orders_copy"]["source_canonical_sql"]
    problem = UNREADABLE[files_table].format(missing=files.missing, json=files.customers_json)
    expected = f"source relation (source order_files.{files_table}): {problem}"
    for name in (files_table, f"{files_table}_both"):
        assert plan[name]["problem"].startswith(expected), plan[name]["problem"]
        assert plan[name]["source_canonical_sql"] == plan[name]["target_canonical_sql"] == ""

    # Reconciled, the pair is an error naming itself, its side, its relation and the reason;
    # the other pair is published.
    message = error_of(summaries[files_table])
    assert f"parity pair '{files_table}': {expected}" in message
    assert "\tat " not in message and "\n" not in message, message
    assert summaries["orders_copy"]["status"] == "complete"


def test_unset_path_variable_names_pair_side_and_variable(scratch, spark, files, monkeypatch):
    monkeypatch.delenv(ORDERS_ENV)
    assert plan_only(scratch, [orders_pair("files", "orders_copy")]).success
    assert planned(scratch, spark)["files"]["problem"] == (
        "source relation (source order_files.orders_copy):"
        f" environment variable {ORDERS_ENV} (parity.path_env) is not set"
    )
