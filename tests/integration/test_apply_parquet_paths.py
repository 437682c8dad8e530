"""Corrections applied to a directory of Parquet files (a side read as parquet.`path`): the
corrected version written beside the directory and swapped in by renames, the previous version
kept for undo until the next apply, a directory changed since the run refused unless forced, a
sensitive column corrected without being published.
And the MERGE a Delta or Iceberg table would be corrected by, against its golden SQL."""

from __future__ import annotations

import os
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import yaml

from parity.plan import pairs_from_rows
from parity.sync.decisions import key_text_sql
from parity.sync.spark.merge import KEY, STATE, key_state_sql, merge_sql, source_sql, staged_rows
from parity.sync.spark.version_names import previous_name, written_name
from tests.conftest import REPO
from tests.integration.applies import applied as apply_pair
from tests.integration.applies import summary as pair_summary
from tests.integration.correction_tables import SOURCE, TARGET, model, notes_shown
from tests.integration.test_apply_spark import CORRECTED, ordered, rows_of
from tests.integration.test_golden_sql import matches_golden

PAIR = {
    "name": "to_files",
    "source": {"ref": "correction_source"},
    "target": {"source": ["corrected_files", "orders"]},
    "key": ["id", "region"],
    "enforce_key": "warn",
    "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
    "sync": {"max_corrections": 100},
}
# The same corrections to a directory of its own, but for a note the pair never publishes: the
# apply reads it from the source by key.
HIDDEN = {
    **PAIR,
    "name": "hidden_files",
    "target": {"source": ["corrected_files", "hidden"]},
    "sensitive_columns": ["note"],
}
PAIRS = [PAIR, HIDDEN]
GOLDEN = REPO / "tests" / "golden" / "sync"
# The table each format's golden MERGE names.
MERGED_TABLES = {"delta": "`lake`.`orders`", "iceberg": "`lakehouse`.`lake`.`orders`"}


def files_sources(name: str, paths: dict[str, str]) -> str:
    """One dbt source of Parquet directories (``paths``, by table name), as the YAML of a sources
    file."""
    tables = [{"name": table, "meta": {"parity": {"path": path}}} for table, path in paths.items()]
    source = {"name": name, "meta": {"parity": {"format": "parquet"}}, "tables": tables}
    return yaml.safe_dump({"version": 2, "sources": [source]})


@pytest.fixture(scope="module")
def project(scratch, spark, tmp_path_factory):
    # Each directory in a folder of its own: what an apply leaves beside one is all it holds.
    paths = {
        table: str(tmp_path_factory.mktemp(f"corrected_{table}") / table)
        for table in ("orders", "hidden")
    }
    for path in paths.values():
        spark.sql(model(TARGET)).write.parquet(path)
    sources = files_sources("corrected_files", paths)
    with ExitStack() as files:
        files.enter_context(scratch.file("models/corrected_files.yml", sources))
        files.enter_context(scratch.file("models/correction_source.sql", model(SOURCE)))
        built = scratch.dbt("run", "--select", "correction_source", vars=scratch.demo_vars())
        assert built.success
        scratch.files_path, scratch.hidden_path = paths["orders"], paths["hidden"]
        yield scratch


def applied(project, spark, pair="to_files", logged=None, **request) -> dict[str, Any]:
    return apply_pair(project, spark, PAIRS, pair, logged, **request)


def summary(project, spark, pair="to_files") -> dict[str, Any]:
    return pair_summary(project, spark, PAIRS, pair)


def files_rows(spark, path: str) -> list[tuple]:
    return rows_of(spark, f"parquet.`{path}`")


def beside(path: str) -> list[str]:
    """The directory and what the applies left beside it."""
    return sorted(p.name for p in Path(path).parent.iterdir())


def test_a_parquet_directory_is_swapped_for_its_corrected_version(project, spark):
    path = project.files_path
    first = summary(project, spark)
    assert not first["passed"] and first["differing_rows"] == 11

    # A file touched since the run: the directory changed, so the apply refuses unless forced.
    part = next(Path(path).glob("part-*.parquet"))
    stat = part.stat()
    os.utime(part, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    refused = applied(project, spark, write=True)
    assert refused["outcome"] == "refused"
    assert "changed since run" in refused["reason"] and "set force" in refused["reason"]
    assert files_rows(spark, path) == ordered(TARGET)

    done = applied(project, spark, write=True, force=True)
    assert (done["outcome"], done["reason"], done["conflicts"]) == ("applied", "", 0)
    assert (done["inserts"], done["deletes"], done["updates"]) == (4, 3, 4)
    assert done["statements"].endswith("written beside it, then: renamed into its place")
    assert files_rows(spark, path) == ordered(CORRECTED)
    # The previous version kept beside the directory, whole, as the audit row says.
    kept = previous_name(path, done["apply_id"])
    assert (done["previous_location"], done["location"]) == (kept, path)
    assert done["fingerprint"]
    assert files_rows(spark, kept) == ordered(TARGET)
    assert beside(path) == sorted(["orders", Path(kept).name])

    assert applied(project, spark, write=True, force=True)["outcome"] == "unchanged"
    assert summary(project, spark)["passed"]

    # Undone: the previous version back at the path, the corrected one beside it.
    dry = applied(project, spark, undo=True)
    assert dry["outcome"] == "planned"
    assert files_rows(spark, path) == ordered(CORRECTED)
    undone = applied(project, spark, undo=True, write=True)
    assert undone["outcome"] == "undone"
    assert files_rows(spark, path) == ordered(TARGET)
    taken_back = written_name(path, done["apply_id"])
    assert beside(path) == sorted(["orders", Path(taken_back).name])

    # The next apply that writes deletes the version the undo took back.
    assert not summary(project, spark)["passed"]
    second = applied(project, spark, write=True)
    assert (second["outcome"], second["conflicts"]) == ("applied", 0)
    assert files_rows(spark, path) == ordered(CORRECTED)
    assert beside(path) == sorted(["orders", Path(second["previous_location"]).name])

    # And the one after deletes the version the second apply kept.
    spark.sql(model(TARGET)).write.mode("overwrite").parquet(path)
    assert not summary(project, spark)["passed"]
    third = applied(project, spark, write=True)
    assert third["outcome"] == "applied"
    assert beside(path) == sorted(["orders", Path(third["previous_location"]).name])
    assert summary(project, spark)["passed"]


def test_undo_refuses_a_directory_changed_since_the_apply(project, spark):
    path = project.files_path
    last = applied(project, spark, undo=True)
    assert last["outcome"] == "planned"
    part = next(Path(path).glob("part-*.parquet"))
    stat = part.stat()
    os.utime(part, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    refused = applied(project, spark, undo=True, write=True)
    assert refused["outcome"] == "refused" and "changed since apply" in refused["reason"]
    assert files_rows(spark, path) == ordered(CORRECTED)
    os.utime(part, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert applied(project, spark, undo=True, write=True)["outcome"] == "undone"
    assert files_rows(spark, path) == ordered(TARGET)


def test_a_row_changed_since_the_run_is_left_alone(project, spark):
    """Forced past the directory's fingerprint, the apply still compares each row with what the
    run saw: order 7, changed since, is a conflict and keeps its new amount."""
    path = project.files_path
    assert not summary(project, spark)["passed"]
    since = [(*r[:2], "71.0000000000", *r[3:]) if r[0] == 7 else r for r in TARGET]
    spark.sql(model(since)).write.mode("overwrite").parquet(path)
    refused = applied(project, spark, write=True)
    assert refused["outcome"] == "refused" and "changed since run" in refused["reason"]
    done = applied(project, spark, write=True, force=True)
    assert (done["outcome"], done["conflicts"]) == ("applied", 1)
    assert '["7","us"]' in done["reason"]
    expected = [(*r[:2], "71.0000000000", *r[3:]) if r[0] == 7 else r for r in CORRECTED]
    assert files_rows(spark, path) == ordered(expected)


def test_a_sensitive_column_is_corrected_and_never_published(project, spark):
    """The notes the apply writes to the directory are read from the source by key, never from
    a published relation, and shown in no result, history or log line."""
    path = project.hidden_path
    assert not summary(project, spark, "hidden_files")["passed"]
    logged: list[str] = []
    done = applied(project, spark, "hidden_files", logged, write=True)
    assert (done["outcome"], done["conflicts"]) == ("applied", 0)
    assert files_rows(spark, path) == ordered(CORRECTED)
    assert summary(project, spark, "hidden_files")["passed"]
    assert not notes_shown(spark, project.schema, "hidden_files", logged)


def target_plan(project, spark):
    plan = spark.table(f"{project.schema}.parity_plan").where("pair_name = 'to_files'").collect()
    (pair,) = pairs_from_rows([r.asDict() for r in plan])
    return pair.target


@pytest.mark.parametrize("format", sorted(MERGED_TABLES))
def test_a_merged_table_format_renders_its_golden_merge(project, spark, format):
    """Neither Delta's nor Iceberg's Spark runtime runs here (README, Limits): the MERGE is held to
    its golden text and to Spark's own parser."""
    target = target_plan(project, spark)
    names = spark.sql(f"select * from {target.relation_name}").columns
    text = merge_sql(MERGED_TABLES[format], target, names, "`__parity_merge_staged`")
    matches_golden(text, GOLDEN / f"{format}_merge.sql.golden")
    spark._jsparkSession.sessionState().sqlParser().parsePlan(text)


def test_the_merge_source_finds_the_keys_changed_since_they_were_read(project, spark, tmp_path):
    """The MERGE's source, run on a real directory: a key's state as the apply reads it (beside
    each row) is its state as the MERGE computes it (per key) until a row of the key changes;
    a key the table lacks has no state either way."""
    target = target_plan(project, spark)
    table = f"parquet.`{tmp_path / 'orders'}`"
    spark.sql(model(TARGET)).write.parquet(str(tmp_path / "orders"))
    key = key_text_sql(target)
    window = f"over (partition by {key})"
    read = spark.sql(
        f"select {key} as k, {key_state_sql(target, window)} as s, * from {table}"
    ).collect()
    states = {r["k"]: r["s"] for r in read}
    assert len(states) == len({r[:2] for r in TARGET})
    schema = spark.sql(f"select * from {table}").schema
    rows = {k: [r.asDict() for r in read if r["k"] == k] for k in states}
    rows['["99","eu"]'] = []
    staged = staged_rows(spark, schema, states, rows)
    staged.createOrReplaceTempView("__parity_merge_staged")
    source = source_sql(table, target, "__parity_merge_staged")
    unchanged = f"select {KEY}, __parity_state_now <=> {STATE} as same from ({source})"
    assert {r[KEY]: r["same"] for r in spark.sql(unchanged).collect()} == dict.fromkeys(rows, True)

    changed = [(*r[:2], "70.0000000000", *r[3:]) if r[0] == 7 else r for r in TARGET]
    spark.sql(model(changed)).write.mode("overwrite").parquet(str(tmp_path / "orders"))
    spark.catalog.refreshByPath(str(tmp_path / "orders"))
    found = {r[KEY]: r["same"] for r in spark.sql(unchanged).collect()}
    assert [k for k, same in found.items() if not same] == ['["7","us"]']
