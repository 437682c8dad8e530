"""Corrections written to a directory of Parquet files (a side named parquet.`path`): there is
no catalog to point elsewhere, so the corrected version is written beside the directory and
swapped in by two renames through Hadoop's FileSystem: the current directory to a kept previous
name, then the corrected one to the path. Between the two renames the path holds no directory:
a reader then fails to find it, and never reads a mix of versions. Where a file system renames
a directory by copying its files (object stores such as S3A), a rename is not atomic and a
reader may see part of a version."""

from __future__ import annotations

from typing import Any

from pyspark.sql import DataFrame, SparkSession

from parity.pipelines.incremental import fingerprint_text
from parity.plan import SidePlan
from parity.sides.fingerprints import GLOB, InputFingerprint, input_fingerprint
from parity.sides.unreadable_files import FILE_RELATION
from parity.sync.decisions import Unwritable
from parity.sync.spark import hadoop_files
from parity.sync.spark.version_names import previous_name, written_name

# The one format parity reads as a directory and writes back as it read it: a JSON side's
# types are what Spark inferred, which JSON written back would not keep.
WRITTEN_FORMAT = "parquet"


def directory_of(corrected: SidePlan) -> str | None:
    """The directory a files side reads, or None for a side that is no path."""
    files = FILE_RELATION.match(corrected.relation_name)
    return files.group(1).replace("``", "`") if files else None


def writable_directory(corrected: SidePlan) -> str:
    """The side's directory, or why an apply cannot rewrite it."""
    relation, path = corrected.relation_name, directory_of(corrected) or ""
    if not relation.lower().startswith(f"{WRITTEN_FORMAT}."):
        raise Unwritable(
            f"{relation} is JSON files: Spark infers their types, which files written back would"
            " not keep; only Parquet directories are rewritten"
        )
    if corrected.file_view is not None:
        raise Unwritable(
            f"{relation} has Parquet UUID columns, which Spark reads as bytes and cannot write"
            " back as UUIDs: rewriting it would change its schema"
        )
    if GLOB.search(path):
        raise Unwritable(f"{relation} is a glob: only one directory is rewritten, not a pattern")
    return path


def swap_directory(
    spark: SparkSession,
    corrected: SidePlan,
    path: str,
    rewritten: DataFrame,
    before: InputFingerprint,
    apply_id: str,
) -> tuple[str, str]:
    """The corrected version written beside ``path`` and swapped in: where the previous version
    is kept, and the fingerprint of the version now at ``path``."""
    written, kept = written_name(path, apply_id), previous_name(path, apply_id)
    rewritten.write.format(WRITTEN_FORMAT).save(written)
    if input_fingerprint(spark, corrected) != before:
        hadoop_files.delete(spark, written)
        raise Unwritable(
            f"{corrected.relation_name} changed while the apply read it: it was left as it was"
        )
    _swap(spark, path, aside=kept, into=written)
    return kept, fingerprint_text(input_fingerprint(spark, corrected))


def restore_directory(
    spark: SparkSession, corrected: SidePlan, last: dict[str, Any], write: bool
) -> str:
    """Why the version ``last`` (an apply) replaced cannot be put back at the path, or "" when
    it is back (or would be, for a dry run). The corrected version goes back to the name it
    was written under, where the next apply deletes it."""
    path, applied = directory_of(corrected) or "", last["apply_id"]
    now = fingerprint_text(input_fingerprint(spark, corrected))
    if last["location"] != path or now != last["fingerprint"]:
        return f"{corrected.relation_name} changed since apply {applied}: it was left as it is"
    kept = last["previous_location"]
    if kept != previous_name(path, applied) or not hadoop_files.exists(spark, kept):
        return f"the version apply {applied} replaced is no longer at {kept}"
    if write:
        _swap(spark, path, aside=written_name(path, applied), into=kept)
    return ""


def _swap(spark: SparkSession, path: str, aside: str, into: str) -> None:
    """The directory at ``path`` renamed to ``aside``, then ``into`` renamed to ``path``; if
    the second rename fails, the first is undone."""
    hadoop_files.rename(spark, path, aside)
    try:
        hadoop_files.rename(spark, into, path)
    except Exception:
        hadoop_files.rename(spark, aside, path)
        raise
    # Spark may hold the path's old file listing.
    spark.catalog.refreshByPath(path)
