"""Re-runs compare only what changed: a pair whose configuration, tolerance, schemas and inputs are
those of its last published result keeps that result (nothing scanned beyond the fingerprint);
any change, or state that is missing, partial or corrupted (a kept result edited by hand), compares
the pair in full, saying why; `--full-refresh` compares every pair and keeps the history. A side
without an input fingerprint (a PostgreSQL table) is read again every run, but by hashdiff's first
pass only while both sides' exact whole-table checksums are those of the last result (a tolerant
pair's too); once they change, the segments that differed last time and did not change are not
drilled into again."""

from __future__ import annotations

import shutil
from pathlib import Path

import psycopg
import pytest
import yaml
from pyspark.sql import functions as F

from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import POSTGRES_ENV, engine_sources, reconcile
from tests.integration.run_results import by_pair, finding

SOURCES_FILE = "models/incremental_sources.yml"
# Each pair compares the legacy orders' files with a copy of its own, and the change made to that
# copy (or to the pair) between the second run and the third; None leaves it alone.
PAIRS = [
    "kept",
    "new_batch",
    "added_column",
    "removed_column",
    "renamed_column",
    "widened",
    "mixed_batch",
    "nested_field",
    "retuned",
    "corrupted",
    "vanished",
]
# A pair by hashdiff whose copy is written again with the same rows between the first run and the
# second: kept by its checksums then, and by its fingerprints from then on.
RECOPIED = "recopied"


# Pairs with a PostgreSQL side, each over a copy of the legacy orders of its own: one left alone,
# one whose copy has one row changed between the second run and the third, one whose key column
# is declared NOT NULL then (nullability drift alone: no row changes); the first's copy again
# under a tolerance, whose checksums hash on its grid; and a copy with differences of its own
# (REWORKED), by its integer key and by a compound key, whose rows change in two segments then.
# Two more: a copy of the reworked one whose kept result is edited by hand to pass (EDITED), and a
# copy under a tolerance whose values move within it (NUDGED). And the reworked copy under a
# tolerance its changed amounts are within, listing one of them only (CAPPED). The copies are
# unlogged tables, whose change fingerprint PostgreSQL cannot give (test_pg_fingerprints.py):
# their pairs are kept or compared by their first pass's checksums.
PG_SOURCES_FILE = "models/incremental_pg_sources.yml"


def pg_pair(name: str, table: str, target: str, **options) -> dict:
    """A pair of a PostgreSQL copy (incremental_<table>) against a model, by order id."""
    return {
        "name": name,
        "source": {"source": ["incremental_pg", f"incremental_{table}"]},
        "target": {"ref": target},
        "key": "order_id",
        **options,
    }


PG_PAIR_CONFIGS = [
    pg_pair("steady", "steady", "legacy_orders"),
    pg_pair("drifting", "drifting", "lakehouse_orders", enforce_key="warn", bisection_threshold=64),
    pg_pair("tightened", "tightened", "legacy_orders"),
    pg_pair(
        "tolerant",
        "steady",
        "legacy_orders",
        tolerance={"columns": {"discount": {"abs_tol": 1e-6}}},
    ),
    pg_pair("reworked", "reworked", "legacy_orders", bisection_threshold=16),
    pg_pair("edited", "edited", "legacy_orders", bisection_threshold=16),
    pg_pair(
        "nudged",
        "nudged",
        "legacy_orders",
        tolerance={"columns": {"discount": {"abs_tol": 1e-6}}},
    ),
    pg_pair(
        "reworked_capped",
        "reworked",
        "legacy_orders",
        bisection_threshold=16,
        tolerance={"columns": {"amount": {"abs_tol": 2}}},
        within_tolerance_examples=1,
    ),
    pg_pair(
        "reworked_by_two",
        "reworked",
        "legacy_orders",
        key=["order_id", "customer_id"],
        bisection_threshold=16,
    ),
]
PG_PAIRS = [pair["name"] for pair in PG_PAIR_CONFIGS]
# The copies, each named as the first pair over it.
PG_TABLES = ["steady", "drifting", "tightened", "reworked", "edited", "nudged"]
EDITED, NUDGED, CAPPED = "edited", "nudged", "reworked_capped"
NO_FINGERPRINT = (
    "the source has no input fingerprint (an unlogged table: a crash empties it, uncounted)"
)
# The reworked copy's differences: as many rows as the legacy orders, one lost, one added, two
# values changed.
REWORKED = [
    "delete from incremental_reworked where order_id = 50",
    "insert into incremental_reworked select 3001, customer_id, status, amount, fx_rate, discount,"
    " is_gift, ordered_at, ship_date, note from orders where order_id = 3000",
    "update incremental_reworked set amount = amount + 1 where order_id in (300, 2900)",
    "update incremental_reworked set status = 'held' where order_id = 1500",
]


def pair(name: str, **options) -> dict:
    return {
        "name": name,
        "source": {"source": ["incremental", "base"]},
        "target": {"source": ["incremental", name]},
        "key": "order_id",
        **options,
    }


@pytest.fixture(scope="module")
def copies(scratch, spark, tmp_path_factory):
    folder = tmp_path_factory.mktemp("incremental")
    legacy = spark.table(f"{scratch.schema}.legacy_orders").where("order_id <= 600")
    legacy = legacy.withColumn("doc", F.to_json(F.struct("status", "amount")))
    names = ["base", *PAIRS, RECOPIED]
    for name in names:
        legacy.coalesce(1).write.parquet(str(folder / name))
    tables = [{"name": n, "meta": {"parity": {"path": str(folder / n)}}} for n in names]
    sources = {
        "version": 2,
        "sources": [
            {"name": "incremental", "meta": {"parity": {"format": "parquet"}}, "tables": tables}
        ],
    }
    with scratch.file(SOURCES_FILE, yaml.safe_dump(sources)):
        yield folder
    shutil.rmtree(folder)


@pytest.fixture(scope="module")
def pg_tables(scratch, remote_legacy):
    """The PostgreSQL pairs' copies of the legacy orders, declared as sources."""
    with psycopg.connect(remote_legacy, autocommit=True) as connection:
        for name in PG_TABLES:
            connection.execute(f"drop table if exists incremental_{name}")
            connection.execute(f"create unlogged table incremental_{name} as select * from orders")
        for statement in REWORKED:
            connection.execute(statement)
        connection.execute(f"drop table incremental_{EDITED}")
        connection.execute(
            f"create unlogged table incremental_{EDITED} as select * from incremental_reworked"
        )
    tables = [f"incremental_{name}" for name in PG_TABLES]
    sources = engine_sources("incremental_pg", "postgres", POSTGRES_ENV, "public", tables)
    with scratch.file(PG_SOURCES_FILE, sources):
        yield remote_legacy


def rewrite(spark, folder: Path, change) -> None:
    """The copy written again, changed: a new schema for every file."""
    changed = change(spark.read.parquet(str(folder))).localCheckpoint()
    shutil.rmtree(folder)
    changed.coalesce(1).write.parquet(str(folder))


def append(spark, folder: Path, rows) -> None:
    """A new batch: one more file beside the others."""
    rows.coalesce(1).write.mode("append").parquet(str(folder))


def tamper(spark, schema: str, pair_name: str) -> None:
    """The kept state of one pair changed behind parity's back: its target fingerprint, where
    the next run reads it."""
    table = f"{schema}.parity_run_pairs"
    rows = spark.table(table).localCheckpoint()
    forged = F.when(F.col("pair_name") == pair_name, F.lit("files:" + "0" * 64))
    rows = rows.withColumn("target_fingerprint", forged.otherwise(F.col("target_fingerprint")))
    rows.write.insertInto(table, overwrite=True)


def edit_result(spark, schema: str, pair_name: str) -> None:
    """The kept result of one pair edited by hand to pass, its state untouched: in the history the
    next run reads it from."""
    table = f"{schema}.parity_run_results"
    rows = spark.table(table).localCheckpoint()
    edited = F.col("pair_name") == pair_name
    rows = rows.withColumn("passed", F.when(edited, F.lit(True)).otherwise(F.col("passed")))
    rows = rows.withColumn(
        "differing_rows", F.when(edited, F.lit(0)).otherwise(F.col("differing_rows"))
    )
    rows.write.insertInto(table, overwrite=True)


def move_rows(spark, schema: str, pair_name: str) -> None:
    """A kept result's rows moved edited by hand: no longer the sum of both sides'."""
    table = f"{schema}.parity_run_results"
    rows = spark.table(table).localCheckpoint()
    edited = F.col("pair_name") == pair_name
    rows = rows.withColumn("rows_moved", F.when(edited, F.lit(999)).otherwise(F.col("rows_moved")))
    rows.write.insertInto(table, overwrite=True)


def drop_example(spark, schema: str, pair_name: str) -> None:
    """A kept result's listed example of a value within tolerance removed by hand: fewer than
    its column lists."""
    table = f"{schema}.parity_run_differences"
    rows = spark.table(table).localCheckpoint()
    example = (F.col("pair_name") == pair_name) & (F.col("kind") == "within_tolerance")
    rows.where(~example).write.insertInto(table, overwrite=True)


def run(scratch, spark, pairs, *flags: str):
    logged: list[str] = []
    result = reconcile(scratch, pairs, logged, *flags)
    assert result.success, error_text(result)
    summaries, differences = by_pair(spark, scratch.schema)
    return summaries, differences, logged


def history_rows(spark, schema: str) -> tuple[int, int]:
    """The history's rows of the Parquet pairs, and of the PostgreSQL pairs."""
    kept = spark.table(f"{schema}.parity_run_results")
    return tuple(kept.where(F.col("pair_name").isin(names)).count() for names in (PAIRS, PG_PAIRS))


@pytest.fixture(scope="module")
def runs(scratch, spark, copies, pg_tables):
    """Four runs: the first, the same again, again after a change to every pair but two, and a
    full refresh."""
    pairs = [pair(name) for name in PAIRS] + [pair(RECOPIED, algorithm="hashdiff")]
    pairs += PG_PAIR_CONFIGS
    history = []
    first = run(scratch, spark, pairs)
    history.append(history_rows(spark, scratch.schema))
    rewrite(spark, copies / RECOPIED, lambda rows: rows)
    second = run(scratch, spark, pairs)
    history.append(history_rows(spark, scratch.schema))

    extra = spark.table(f"{scratch.schema}.legacy_orders").where("order_id between 601 and 605")
    extra = extra.withColumn("doc", F.to_json(F.struct("status", "amount")))
    append(spark, copies / "new_batch", extra)
    rewrite(spark, copies / "added_column", lambda rows: rows.withColumn("channel", F.lit("web")))
    rewrite(spark, copies / "removed_column", lambda rows: rows.drop("note"))
    rewrite(spark, copies / "renamed_column", lambda rows: rows.withColumnRenamed("note", "memo"))
    rewrite(
        spark,
        copies / "widened",
        lambda rows: rows.withColumn("customer_id", F.col("customer_id").cast("double")),
    )
    append(spark, copies / "mixed_batch", extra.withColumn("channel", F.lit("web")))
    rewrite(
        spark,
        copies / "nested_field",
        lambda rows: rows.withColumn("doc", F.to_json(F.struct("status", "amount", "is_gift"))),
    )
    tamper(spark, scratch.schema, "corrupted")
    edit_result(spark, scratch.schema, EDITED)
    shutil.rmtree(copies / "vanished")
    with psycopg.connect(pg_tables, autocommit=True) as connection:
        connection.execute("update incremental_drifting set amount = amount + 1 where order_id = 7")
        # One new difference, and one row of a segment that differed already changed again.
        connection.execute("update incremental_reworked set amount = amount + 1 where order_id = 7")
        connection.execute("update incremental_reworked set note = 'late' where order_id = 1500")
        # Values moved within the tolerance (abs_tol 1e-6), on many rows: those crossing a cell of
        # the grid (2^-20) are found by the drill-down.
        connection.execute(
            f"update incremental_{NUDGED} set discount = discount + 9e-7 where order_id <= 200"
        )
        # `create table as` copied no constraint: the key column was nullable until now.
        connection.execute("alter table incremental_tightened alter column order_id set not null")
    retuned = [
        pair(name, tolerance={"columns": {"amount": {"abs_tol": 0.01}}})
        if name == "retuned"
        else pair(name)
        for name in PAIRS
    ]
    retuned += [pair(RECOPIED, algorithm="hashdiff"), *PG_PAIR_CONFIGS]
    third = run(scratch, spark, retuned)
    history.append(history_rows(spark, scratch.schema))
    # A kept result edited where its hash does not look, but its audits do: the run that would
    # publish it again fails them, and publishes nothing.
    move_rows(spark, scratch.schema, "steady")
    drop_example(spark, scratch.schema, CAPPED)
    audited = reconcile(scratch, retuned)
    refreshed = run(scratch, spark, retuned, "--full-refresh")
    return {
        "first": first,
        "second": second,
        "third": third,
        "audited": audited,
        "refreshed": refreshed,
        # Rows of the history after each of the first three runs: (Parquet pairs, PostgreSQL's).
        "history": history,
    }


def test_the_first_run_compares_every_pair(runs):
    summaries, _, _ = runs["first"]
    for name in PAIRS:
        row = summaries[name]
        assert (row["run_mode"], row["status"], row["data_compared"]) == (
            "compared",
            "complete",
            True,
        ), name
        assert row["run_mode_reason"].startswith("no earlier published result"), row


def assert_kept(before, after, reason: str) -> None:
    """The published result is the earlier run's, as it was, marked as kept for ``reason``."""
    before, after = before.asDict(), after.asDict()
    assert (after["run_mode"], after["run_mode_reason"]) == ("unchanged", reason), after
    for field in ("run_mode", "run_mode_reason"):
        before.pop(field), after.pop(field)
    assert after == before


def test_an_unchanged_pair_keeps_its_result_and_scans_nothing(runs):
    first, _, _ = runs["first"]
    second, differences, logged = runs["second"]
    for name in PAIRS:
        assert_kept(first[name], second[name], f"unchanged since run {first[name]['run_id']}")
        assert f"parity pair '{name}': unchanged since run" in "\n".join(logged)
    scanned = [line for line in logged if "pass 1" in line]
    assert not [line for line in scanned if any(f"'{name}'" in line for name in PAIRS)]
    # The kept results are not written to the history again.
    assert runs["history"][0][0] == runs["history"][1][0]
    assert {n: d for n, d in differences.items() if n in PAIRS} == {
        n: d for n, d in runs["first"][1].items() if n in PAIRS
    }


def test_only_what_changed_is_compared_again_and_says_why(runs):
    second, _, _ = runs["second"]
    third, _, logged = runs["third"]
    reasons = {name: third[name]["run_mode_reason"] for name in PAIRS}
    modes = {name: third[name]["run_mode"] for name in PAIRS}
    assert modes["kept"] == "unchanged" and third["kept"]["run_id"] == second["kept"]["run_id"]
    assert [line for line in logged if "pass 1" in line and "'kept'" in line] == []
    for name in ("new_batch", "mixed_batch", "nested_field"):
        assert "the target's inputs changed" in reasons[name], reasons[name]
    for name in ("added_column", "removed_column", "renamed_column", "widened"):
        assert "the target's schema changed" in reasons[name], reasons[name]
    # The tolerance is part of the configuration: both changed.
    assert reasons["retuned"] == "its configuration changed; its tolerance changed"
    assert reasons["corrupted"] == "its state is corrupted (its hash does not match it)"
    for name in PAIRS[1:]:
        assert modes[name] == "compared", name
    # What was compared again found what changed.
    assert third["new_batch"]["missing_in_source_rows"] == 5
    assert third["mixed_batch"]["missing_in_source_rows"] == 5
    assert third["widened"]["status"] == "complete" and third["widened"]["passed"]
    assert third["vanished"]["status"] == "error"
    assert "does not exist" in third["vanished"]["status_reason"] or (
        "Path does not exist" in third["vanished"]["status_reason"]
    )


def test_a_full_refresh_compares_every_pair_and_keeps_the_history(runs, spark, scratch):
    refreshed, _, _ = runs["refreshed"]
    for name in PAIRS:
        assert refreshed[name]["run_mode"] == "compared", name
        assert refreshed[name]["run_mode_reason"].startswith("--full-refresh"), name
    first_run = runs["first"][0]["kept"]["run_id"]
    kept = spark.table(f"{scratch.schema}.parity_run_results").where(f"run_id = '{first_run}'")
    assert kept.count() == len(PAIRS) + 1 + len(PG_PAIRS)
    for name in PG_PAIRS:
        assert refreshed[name]["run_mode"] == "compared", name


# What differs between two runs that compared the same pair over the same inputs.
RUN_DEPENDENT = {"run_id", "run_started_at", "elapsed_seconds", "run_mode", "run_mode_reason"}


def test_a_full_refresh_finds_what_the_run_before_it_found(runs):
    # Nothing changed between the third run and the full refresh: each pair the third run
    # compared is found again as it was, each difference too.
    third, third_differences, _ = runs["third"]
    refreshed, refreshed_differences, _ = runs["refreshed"]
    compared = [name for name in PAIRS if third[name]["run_mode"] == "compared"]
    assert len(compared) == len(PAIRS) - 1
    for name in compared:
        before = {k: v for k, v in third[name].asDict().items() if k not in RUN_DEPENDENT}
        after = {k: v for k, v in refreshed[name].asDict().items() if k not in RUN_DEPENDENT}
        assert after == before, name
        assert found(refreshed_differences, name) == found(third_differences, name), name
    assert found(third_differences, "new_batch")


def found(differences: dict[str, list[dict]], name: str) -> list[dict]:
    """The pair's differences, but for the run that found them, in one order."""
    rows = [{k: v for k, v in row.items() if k != "run_id"} for row in differences.get(name, [])]
    return sorted(rows, key=repr)


def test_files_written_again_with_the_same_rows_are_read_once_then_fingerprinted(runs):
    first, _, _ = runs["first"]
    second, _, logged_second = runs["second"]
    third, _, logged_third = runs["third"]
    since = first[RECOPIED]["run_id"]
    assert_kept(
        first[RECOPIED],
        second[RECOPIED],
        f"unchanged since run {since}: the target's inputs changed, but both sides' whole-table"
        " checksums are that run's",
    )
    # Read by its first pass (the profile of each side), which found the checksums...
    kept_by_checksums = f"parity pair '{RECOPIED}': unchanged since run {since}: the target's"
    assert any(
        line.startswith(kept_by_checksums) and line.endswith(": nothing more compared")
        for line in logged_second
    )
    # ...and the third run finds the files as the second fingerprinted them: nothing is read.
    assert_kept(first[RECOPIED], third[RECOPIED], f"unchanged since run {since}")
    assert f"parity pair '{RECOPIED}': unchanged since run {since}: nothing compared" in (
        logged_third
    )


# A side without an input fingerprint.


def test_the_first_run_keeps_each_sides_checksum_with_its_result(runs, spark, scratch):
    first, _, _ = runs["first"]
    kept = spark.table(f"{scratch.schema}.parity_run_results").where(
        F.col("run_id") == first["steady"]["run_id"]
    )
    checksums = {}
    for row in kept.where(F.col("pair_name").isin([*PG_TABLES, "tolerant"])).collect():
        assert row["source_checksum"].startswith("rows 3000, null keys 0"), row
        assert row["target_checksum"].startswith("rows "), row
        checksums[row["pair_name"]] = (row["source_checksum"], row["target_checksum"])
    # A tolerant pair keeps its sides' exact checksums: those of the same tables compared exactly.
    assert checksums["tolerant"] == checksums["steady"]
    # joindiff's first pass has no whole-table checksum.
    for row in kept.where(F.col("pair_name").isin(PAIRS)).collect():
        assert (row["source_checksum"], row["target_checksum"]) == ("", ""), row


def test_a_run_that_finds_the_same_checksums_keeps_the_last_result(runs):
    first, found_first, _ = runs["first"]
    second, found_second, logged = runs["second"]
    # A tolerant pair too: by its exact checksums, beside the tolerant ones.
    for name in [*PG_TABLES, "tolerant"]:
        assert_kept(
            first[name],
            second[name],
            f"unchanged since run {first[name]['run_id']}: {NO_FINGERPRINT}, but both sides'"
            " whole-table checksums are that run's",
        )
        assert any(f"'{name}': unchanged since run" in line for line in logged), name
    # Read by the first pass only: no drill-down, no download, no new history row.
    assert not [line for line in logged if "pass 2" in line or "downloaded" in line]
    assert runs["history"][1][1] == runs["history"][0][1]
    # What the kept result found is still what is published.
    assert found_second["drifting"] == found_first["drifting"]


def test_a_changed_table_is_compared_again_and_found(runs):
    first, found_first, _ = runs["first"]
    third, found_third, _ = runs["third"]
    assert third["steady"]["run_mode"] == "unchanged"
    assert third["steady"]["run_id"] == first["steady"]["run_id"]
    drifting = third["drifting"]
    assert drifting["run_mode"] == "compared"
    assert drifting["run_mode_reason"] == NO_FINGERPRINT
    # drifting's new result, tightened's (test_nullability_drift_alone_...), the reworked pairs'
    # (test_segments_unchanged_since_..., test_a_result_listing_only_examples_...), the edited
    # and the nudged pair's.
    assert runs["history"][2][1] == runs["history"][1][1] + 7
    assert third["tolerant"]["run_mode"] == "unchanged"
    before, after = (
        {finding(d) for d in found["drifting"]} for found in (found_first, found_third)
    )
    assert after - before == {("7", "value_mismatch", "amount")}
    assert before <= after


KEYS_BY_TWO = ('["7","434"]', '["1500","3501"]')


def published(differences: list[dict]) -> list[tuple]:
    """A pair's differences as published, whichever run computed them."""
    return sorted(
        tuple((name, str(value)) for name, value in d.items() if "run" not in name)
        for d in differences
    )


@pytest.mark.parametrize("name", ["reworked", "reworked_by_two"])
def test_segments_unchanged_since_the_last_result_are_not_drilled_into_again(runs, name):
    first, found_first, _ = runs["first"]
    third, found_third, logged = runs["third"]
    refreshed, found_refreshed, _ = runs["refreshed"]
    assert first[name]["differing_rows"] == 5, first[name]
    # Order 7 changed in a segment of its own, order 1500 in one that differed already: the
    # other three segments that differed (orders 50, 300, 2900 and 3001, one by one or
    # together) are the first result's, unchanged on both sides.
    reworked = third[name]
    assert (reworked["run_mode"], reworked["status"]) == ("compared", "complete"), reworked
    assert reworked["segments_reused"] == 4, reworked
    assert any(
        f"'{name}': 4 differing segments unchanged on both sides since run "
        f"{first[name]['run_id']}" in line
        for line in logged
    )
    # What it publishes is what comparing every segment again finds (the full refresh, of the
    # same rows), for fewer rows moved.
    assert refreshed[name]["segments_reused"] == 0
    assert published(found_third[name]) == published(found_refreshed[name])
    assert reworked["rows_moved"] < refreshed[name]["rows_moved"]
    before, after = ({finding(d) for d in found[name]} for found in (found_first, found_third))
    assert before <= after
    # Keys as published: an order id, or the order id and its customer (legacy_orders' formula).
    seven, fifteen_hundred = ("7", "1500") if name == "reworked" else KEYS_BY_TWO
    assert after - before == {
        (seven, "value_mismatch", "amount"),
        (fifteen_hundred, "value_mismatch", "note"),
    }


def test_a_result_listing_only_examples_is_never_read_back(runs, spark, scratch):
    """The reworked copy's amounts moved within tolerance on two rows, of which its result lists
    one: read back, its differences would lose the other, so it keeps no segments, and the run
    after it drills into every segment again (as the same pair listing every one reused 4)."""
    first, found_first, _ = runs["first"]
    third, found_third, _ = runs["third"]
    _, found_refreshed, _ = runs["refreshed"]
    capped = first[CAPPED]
    assert (capped["within_tolerance_values"], capped["differing_rows"]) == (2, 3), capped
    assert capped["within_tolerance_counted"] == "exact"
    assert [d["kind"] for d in found_first[CAPPED]].count("within_tolerance") == 1
    (kept,) = (
        spark.table(f"{scratch.schema}.parity_run_results")
        .where(F.col("pair_name") == CAPPED)
        .where(F.col("run_id") == capped["run_id"])
        .collect()
    )
    assert kept["segment_checksums"] == "" and kept["within_tolerance_examples"] == 1
    again = third[CAPPED]
    assert (again["run_mode"], again["status"], again["segments_reused"]) == (
        "compared",
        "complete",
        0,
    ), again
    # Order 7's amount moved within tolerance too: counted exactly, with the other two.
    assert (again["within_tolerance_values"], again["mismatched_values"]) == (3, 2), again
    assert published(found_third[CAPPED]) == published(found_refreshed[CAPPED])


def test_nullability_drift_alone_compares_the_pair_again(runs, spark, scratch):
    second, _, _ = runs["second"]
    third, _, _ = runs["third"]
    assert second["tightened"]["run_mode"] == "unchanged"
    tightened = third["tightened"]
    assert (tightened["run_mode"], tightened["run_mode_reason"]) == (
        "compared",
        "the source's schema changed",
    )
    assert tightened["passed"], tightened
    # The change is a schema finding of the new result, not of the first.
    changes = {
        row["run_id"]: row["schema_diff"]
        for row in spark.table(f"{scratch.schema}.parity_run_results")
        .where("pair_name = 'tightened'")
        .collect()
    }
    assert "nullability_changed" not in changes[second["tightened"]["run_id"]]
    assert "nullability_changed" in changes[tightened["run_id"]]


def test_a_kept_result_edited_by_hand_is_compared_again(runs):
    first, found_first, _ = runs["first"]
    second, _, _ = runs["second"]
    third, found_third, _ = runs["third"]
    assert (first[EDITED]["passed"], first[EDITED]["differing_rows"]) == (False, 5)
    assert second[EDITED]["run_mode"] == "unchanged"
    # Its state untouched, but its verdict and count not those its hash covers.
    edited = third[EDITED]
    assert (edited["run_mode"], edited["run_mode_reason"]) == (
        "compared",
        "its state is corrupted (its hash does not match it)",
    )
    assert (edited["status"], edited["passed"], edited["differing_rows"]) == ("complete", False, 5)
    assert len(found_third[EDITED]) == 5
    assert {finding(d) for d in found_third[EDITED]} == {finding(d) for d in found_first[EDITED]}


def test_a_tolerant_pair_whose_values_moved_within_tolerance_is_compared_again(runs):
    second, _, _ = runs["second"]
    third, _, _ = runs["third"]
    assert second[NUDGED]["run_mode"] == "unchanged"
    nudged = third[NUDGED]
    # Its exact checksums moved; its tolerant ones may not have: compared, still passed, and
    # the values that moved within tolerance where the drill-down met them.
    assert (nudged["run_mode"], nudged["run_mode_reason"]) == (
        "compared",
        NO_FINGERPRINT,
    )
    assert (nudged["status"], nudged["passed"], nudged["differing_rows"]) == (
        "complete",
        True,
        0,
    )
    assert 0 < nudged["within_tolerance_rows"] <= 200, nudged
    assert nudged["within_tolerance_rows"] > second[NUDGED]["within_tolerance_rows"]


def test_a_kept_result_that_fails_its_audits_is_not_published_again(runs):
    first, _, _ = runs["first"]
    third, _, _ = runs["third"]
    assert third["steady"]["run_mode"] == "unchanged"
    audited = runs["audited"]
    assert not audited.success
    assert (
        f"pair 'steady': rows moved (the result of run {first['steady']['run_id']} it keeps:"
        " `dbt build --full-refresh` compares it again)"
    ) in error_text(audited)
    # Its examples of values within tolerance are audited too: one removed is one missing.
    assert (
        f"pair '{CAPPED}': within tolerance listed (the result of run {third[CAPPED]['run_id']}"
    ) in error_text(audited)
