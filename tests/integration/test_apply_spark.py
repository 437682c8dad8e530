"""Corrections applied to a table in Spark's catalog: the corrected version written beside the
current one and swapped in by one catalog operation, the previous version kept, the same run
never applied twice, and the next build finding the pair in parity."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest

from tests.integration.correction_tables import SOURCE, TARGET, model
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import reconcile

PAIR = {
    "name": "to_spark",
    "source": {"ref": "correction_source"},
    "target": {"ref": "spark_corrected"},
    "key": ["id", "region"],
    "enforce_key": "warn",
    "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
    "sync": {"max_corrections": 100},
}
COLUMNS = "id, region, cast(amount as string), label, note, unix_micros(placed_at)"


def rows_of(spark, relation: str) -> list[tuple]:
    found = spark.sql(f"select {COLUMNS} from {relation}").collect()
    return sorted((tuple(r) for r in found), key=lambda r: (r[0], r[1], r[3] or ""))


def ordered(rows) -> list[tuple]:
    return sorted(rows, key=lambda r: (r[0], r[1], r[3] or ""))


def location(spark, table: str) -> str:
    described = spark.sql(f"describe table extended {table}").collect()
    return {r[0]: r[1] for r in described}["Location"]


@pytest.fixture(scope="module")
def project(scratch, spark):
    with ExitStack() as files:
        files.enter_context(scratch.file("models/correction_source.sql", model(SOURCE)))
        files.enter_context(scratch.file("models/spark_corrected.sql", model(TARGET)))
        built = scratch.dbt(
            "run", "--select", "correction_source spark_corrected", vars=scratch.demo_vars()
        )
        assert built.success
        yield scratch


def applied(project, spark, **request) -> dict[str, Any]:
    ran = project.dbt(
        "run",
        "--select",
        "parity_applies",
        vars=project.demo_vars(
            parity={"pairs": [PAIR]}, parity_apply={"pair": "to_spark", **request}
        ),
    )
    assert ran.success, error_text(ran)
    rows = spark.table(f"{project.schema}.parity_applies").where("pair_name = 'to_spark'")
    return max(rows.collect(), key=lambda r: r["applied_at"]).asDict()


def summary(project, spark) -> dict[str, Any]:
    assert reconcile(project, [PAIR]).success
    rows = spark.table(f"{project.schema}.parity_summary").where("pair_name = 'to_spark'")
    (row,) = rows.collect()
    return row.asDict()


def test_a_spark_table_is_swapped_for_its_corrected_version(project, spark):
    table = f"{project.schema}.spark_corrected"
    first = summary(project, spark)
    assert not first["passed"] and first["differing_rows"] == 10
    previous = location(spark, table)

    done = applied(project, spark, write=True)
    assert (done["outcome"], done["reason"], done["conflicts"]) == ("applied", "", 0)
    assert (done["inserts"], done["deletes"], done["updates"]) == (3, 3, 4)
    # The source's rows, but for the amount of order 6, within its tolerance.
    corrected = [(*r[:2], "60.01", *r[3:]) if r[0] == 6 else r for r in SOURCE]
    assert rows_of(spark, table) == ordered(corrected)
    # The previous version stays where it was, whole; the table reads the new one.
    assert location(spark, table) != previous
    assert rows_of(spark, f"parquet.`{previous}`") == ordered(TARGET)

    assert applied(project, spark, write=True)["outcome"] == "unchanged"
    assert summary(project, spark)["passed"]
    assert rows_of(spark, table) == ordered(corrected)
