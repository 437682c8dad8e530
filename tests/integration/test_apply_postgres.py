"""Corrections applied to a PostgreSQL target: in one transaction through the apply's own
connection, a row a writer changed since the run left alone as a conflict, the same run never
applied twice, and the next build finding the pair in parity."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import psycopg
import pytest

from tests.integration.correction_tables import SOURCE, TARGET, model
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import engine_sources, reconcile

READ_ENV, WRITE_ENV = "PARITY_TEST_APPLY_READ", "PARITY_TEST_APPLY_WRITE"
TABLE = """
create table corrected (
    id integer,
    region text,
    amount numeric(10, 2),
    label text,
    note text,
    placed_at timestamptz
)
"""
PAIR = {
    "name": "to_pg",
    "source": {"ref": "correction_source"},
    "target": {"source": ["apply_pg", "corrected"]},
    "key": ["id", "region"],
    "enforce_key": "warn",
    "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
    "sync": {"apply_connection_env": WRITE_ENV, "max_corrections": 100},
}


def with_amount(row: tuple, amount: str) -> tuple:
    return (*row[:2], amount, *row[3:])


# The source's rows, but for the amount of order 6, within its tolerance: never corrected.
CORRECTED = [with_amount(r, "60.01") if r[0] == 6 else r for r in SOURCE]


def typed(row: tuple) -> tuple:
    id_, region, amount, label, note, micros = row
    placed_at = dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(microseconds=micros)
    return (id_, region, Decimal(amount), label, note, placed_at)


def held(url: str) -> list[tuple]:
    with psycopg.connect(url) as connection:
        rows = connection.execute("select * from corrected").fetchall()
    return sorted(rows, key=lambda r: (r[0], r[1], r[3] or ""))


def expected(rows) -> list[tuple]:
    return sorted((typed(r) for r in rows), key=lambda r: (r[0], r[1], r[3] or ""))


@pytest.fixture(scope="module")
def project(scratch, spark, postgres_url):
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute("drop table if exists corrected")
        connection.execute(TABLE)
        with connection.cursor() as cursor:
            cursor.executemany(
                "insert into corrected values (%s, %s, %s, %s, %s, %s)", [typed(r) for r in TARGET]
            )
    sources = engine_sources("apply_pg", "postgres", READ_ENV, "public", ["corrected"])
    with (
        scratch.file("models/correction_source.sql", model(SOURCE)),
        scratch.file("models/apply_pg_sources.yml", sources),
        pytest.MonkeyPatch.context() as environment,
    ):
        environment.setenv(READ_ENV, postgres_url)
        environment.setenv(WRITE_ENV, postgres_url)
        built = scratch.dbt("run", "--select", "correction_source", vars=scratch.demo_vars())
        assert built.success
        yield scratch


def run(project, spark, **request):
    ran = project.dbt(
        "run",
        "--select",
        "parity_applies",
        vars=project.demo_vars(parity={"pairs": [PAIR]}, parity_apply={"pair": "to_pg", **request}),
    )
    assert ran.success, error_text(ran)
    rows = spark.table(f"{project.schema}.parity_applies").where("pair_name = 'to_pg'").collect()
    return max(rows, key=lambda r: r["applied_at"]).asDict()


def summary(project, spark) -> dict:
    assert reconcile(project, [PAIR]).success
    (row,) = spark.table(f"{project.schema}.parity_summary").where("pair_name = 'to_pg'").collect()
    return row.asDict()


def test_applied_corrections_leave_the_pair_in_parity(project, spark, postgres_url):
    first = summary(project, spark)
    assert not first["passed"] and first["differing_rows"] == 10
    # A writer changes one row the run found differing before the apply reads it.
    with psycopg.connect(postgres_url, autocommit=True) as other:
        other.execute("update corrected set amount = 71.00 where id = 7")

    applied = run(project, spark, write=True)
    assert (applied["outcome"], applied["mode"], applied["run_id"]) == (
        "applied",
        "write",
        first["run_id"],
    )
    # Key 4 and both copies of 9 in; 5 and two copies of 8 out; 2, 3 and 10 changed; 7 kept.
    assert (applied["inserts"], applied["deletes"], applied["updates"]) == (3, 3, 3)
    assert applied["conflicts"] == 1 and '["7","us"]' in applied["reason"]
    changed = [with_amount(r, "71.00") if r[0] == 7 else r for r in CORRECTED]
    assert held(postgres_url) == expected(changed)

    again = run(project, spark, write=True)
    assert again["outcome"] == "unchanged" and again["reason"].startswith(
        f"run {first['run_id']}'s corrections were applied by apply {applied['apply_id']}"
    )
    assert held(postgres_url) == expected(changed)

    # The next build finds only the row changed since; once that is applied, nothing.
    second = summary(project, spark)
    assert (second["passed"], second["value_mismatch_rows"], second["differing_rows"]) == (
        False,
        1,
        1,
    )
    assert run(project, spark, write=True)["updates"] == 1
    assert held(postgres_url) == expected(CORRECTED)
    assert summary(project, spark)["passed"]


def test_a_dry_run_of_a_postgres_target_writes_nothing(project, spark, postgres_url):
    before = held(postgres_url)
    planned = run(project, spark)
    assert planned["mode"] == "dry_run" and planned["outcome"] in ("planned", "unchanged")
    assert held(postgres_url) == before
