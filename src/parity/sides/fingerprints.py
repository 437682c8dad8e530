"""What a side's relation reads, fingerprinted cheaply: a run whose inputs have the fingerprints of
the last run (under the same configuration) may skip the pair.

A fingerprint is only as good as what it describes, so each kind says what it covers:
- `files`: the data files Spark would read (files relations, and catalog tables with a location:
  their own files and their partitions'), each with its size and modification time, and for a
  table its provider, schema, storage options and partitions. One listing through the session's
  Hadoop FileSystem, no Spark job, no file opened.
- `catalog`: what a catalog itself versions (a Delta table's version).
- `database_file`: a DuckDB database file (and its WAL): conservative, any table's write
  changes it.
- `pg_stats`: a PostgreSQL table's statistics counters of inserted, updated and deleted rows,
  with its file node, the server's start and the counters' reset, read by the plan through its
  own session (sides/pg_fingerprint.py, which says where it is refused).
- `none`: nothing cheap is reliable (a view, MySQL, another catalog, a PostgreSQL table whose
  counters cannot be trusted now), or the relation is missing, or listing failed; the pair is
  compared by its checksums.

MySQL and MariaDB keep `none`: InnoDB's information_schema.tables.update_time is held in memory
only (lost on restart, NULL again until the next write), is cached for
information_schema_stats_expiry (a day by default, MySQL 8), is not kept for partitioned or
every kind of table, and moves at commit with a resolution of a second; table_rows is an
estimate; CHECKSUM TABLE reads every row. Nothing tells a change without a scan, so the
whole-table checksum of the first pass decides.

Nothing here fails a run: an error gives `none` with the reason. No session is opened to an
engine outside Spark here.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from py4j.protocol import Py4JJavaError
from pyspark.sql import SparkSession

from parity.log import logger
from parity.plan import SidePlan, canonical_hash
from parity.scala_seq import scala_items
from parity.sides.file_views import spark_reason
from parity.sides.unreadable_files import FILE_RELATION

# The name of Spark's own session catalog, which a three-part relation name may start with.
SESSION_CATALOG = "spark_catalog"
# The characters that make a path a glob for Spark (SparkHadoopUtil.isGlobPath).
GLOB = re.compile(r"[{}\[\]*?\\]")
# Engines whose cheap change markers are not reliable: InnoDB's update_time is lost on restart.
CHECKSUMMED = {"mysql"}


@dataclass(frozen=True)
class InputFingerprint:
    # "files" | "catalog" | "database_file" | "pg_stats" | "none"
    kind: str
    # sha256 hex of the canonical description of the inputs; "" when kind is "none".
    digest: str
    # For people: what was fingerprinted ("12 files, 3.4 MB, newest ..."), or why nothing was.
    detail: str

    @classmethod
    def none(cls, reason: str) -> InputFingerprint:
        return cls("none", "", reason)


def input_fingerprint(spark: SparkSession, plan: SidePlan) -> InputFingerprint:
    """The fingerprint of the inputs of one side's relation; never raises."""
    try:
        return _fingerprint(spark, plan)
    except Exception as error:  # a fingerprint is an optimization: it never fails a run
        reason = spark_reason(error)
        logger.warning(
            "parity: no input fingerprint of the %s relation %s: %s",
            plan.side,
            plan.relation_name,
            reason,
        )
        return InputFingerprint.none(f"cannot fingerprint: {reason}")


def _fingerprint(spark: SparkSession, plan: SidePlan) -> InputFingerprint:
    if not plan.in_session:
        if plan.dialect == "duckdb":
            return _duckdb_file(plan.connection_env)
        if plan.dialect == "postgres":
            return _planned(plan.fingerprint)
        if plan.dialect in CHECKSUMMED:
            return InputFingerprint.none("compared by its whole-table checksum")
        return InputFingerprint.none(
            f"a {plan.dialect} side: parity knows no cheap and reliable fingerprint of it"
        )
    files = FILE_RELATION.match(plan.relation_name)
    if files is not None:
        return _file_relation(spark, files.group(1).replace("``", "`"))
    return _catalog_table(spark, plan.relation_name)


def _file_relation(spark: SparkSession, path: str) -> InputFingerprint:
    jvm = spark._jvm
    root = jvm.org.apache.hadoop.fs.Path(path)
    system = root.getFileSystem(spark._jsc.hadoopConfiguration())
    roots = [s.getPath() for s in system.globStatus(root) or []] if GLOB.search(path) else [root]
    listed = {}
    for matched in roots:
        files = _listing(system, matched)
        if files is not None:
            listed[system.makeQualified(matched).toString()] = files
    if not listed:
        return InputFingerprint.none(f"missing: no file at {path}")
    return InputFingerprint("files", canonical_hash({"files": listed}), _summary(listed))


def _catalog_table(spark: SparkSession, name: str) -> InputFingerprint:
    """A table of the session catalog, read as Spark's CatalogFileIndex reads it: the table's
    metadata and its partitions, from the session catalog."""
    jvm = spark._jvm
    state = spark._jsparkSession.sessionState()
    catalog = state.catalog()
    identifier = state.sqlParser().parseMultipartIdentifier(name)
    parts = [str(part) for part in scala_items(identifier)]
    if catalog.isTempView(identifier):
        return InputFingerprint.none("a temporary view: its inputs are not known")
    if len(parts) > 3 or (len(parts) == 3 and parts[0].lower() != SESSION_CATALOG):
        return InputFingerprint.none(
            f"a table of catalog {parts[0]}: parity knows no cheap fingerprint of it"
        )
    database = jvm.scala.Some(parts[-2]) if len(parts) > 1 else jvm.scala.Option.empty()
    table_id = jvm.org.apache.spark.sql.catalyst.TableIdentifier(parts[-1], database)
    if not catalog.tableExists(table_id):
        return InputFingerprint.none(f"missing: no table {name}")
    table = catalog.getTableMetadata(table_id)
    if table.tableType().name() == "VIEW":
        return InputFingerprint.none("a view: its inputs are not known")
    provider = table.provider().get() if table.provider().isDefined() else "hive"
    if provider.lower() == "delta":
        return _delta_table(spark, name)
    if not table.storage().locationUri().isDefined():
        return InputFingerprint.none(
            f"a {provider} table without a location: its inputs are not known"
        )
    location = table.storage().locationUri().get().toString()
    partitions = _partitions(jvm, catalog, table_id, table)
    system = jvm.org.apache.hadoop.fs.Path(location).getFileSystem(spark._jsc.hadoopConfiguration())
    # Partitions under the table's location are in its listing; others are listed on their own.
    inside = location.rstrip("/") + "/"
    roots = [location] + [p for p, _ in partitions if p and not p.startswith(inside)]
    listed = {}
    for root in dict.fromkeys(roots):
        files = _listing(system, jvm.org.apache.hadoop.fs.Path(root))
        listed[root] = files if files is not None else "missing"
    description = {
        "provider": provider,
        "schema": table.schema().json(),
        # Its location, format and the options Spark reads it with (a JSON table's multiLine),
        # as DESCRIBE EXTENDED shows them.
        "storage": table.storage().toLinkedHashMap().toString(),
        "partition_columns": [str(c) for c in scala_items(table.partitionColumnNames())],
        "partitions": partitions,
        "files": listed,
    }
    detail = f"{table.tableType().name().lower()} {provider} table"
    if partitions:
        detail += f", {_counted(len(partitions), 'partition')}"
    return InputFingerprint("files", canonical_hash(description), f"{detail}, {_summary(listed)}")


def _partitions(jvm: Any, catalog: Any, table_id: Any, table: Any) -> list[list[str]]:
    """Each partition's location and spec, in location order; none for an unpartitioned table."""
    if table.partitionColumnNames().isEmpty():
        return []
    found = []
    for partition in scala_items(catalog.listPartitions(table_id, jvm.scala.Option.empty())):
        uri = partition.storage().locationUri()
        found.append([uri.get().toString() if uri.isDefined() else "", partition.spec().toString()])
    return sorted(found)


def _delta_table(spark: SparkSession, name: str) -> InputFingerprint:
    """A Delta table's version: Delta versions every commit, so the version is the table's
    state. Untested here (Delta is not installed): no history gives `none`."""
    rows = spark.sql(f"describe history {name} limit 1").collect()
    if not rows:
        return InputFingerprint.none("a Delta table without history")
    version = int(rows[0]["version"])
    return InputFingerprint(
        "catalog",
        canonical_hash({"provider": "delta", "version": version}),
        f"Delta version {version}",
    )


def _listing(system: Any, root: Any) -> list[list[Any]] | None:
    """The files under `root` (a directory, recursively, or a file) that Spark reads, as
    [path relative to root, size, modification time in ms], sorted; None when it is missing.
    Listed directory by directory (listStatus): unlike listFiles, it asks no file its block
    locations or permissions, which the local file system reads by running a process per file
    where Hadoop's native library is absent."""
    try:
        top = system.getFileStatus(root)
    except Py4JJavaError as error:
        if error.java_exception.getClass().getName() == "java.io.FileNotFoundException":
            return None
        raise
    if not top.isDirectory():  # a file: read whatever its name
        return [[root.getName(), top.getLen(), top.getModificationTime()]]
    files: list[list[Any]] = []
    folders = [(root, "")]
    while folders:
        folder, relative = folders.pop()
        for status in system.listStatus(folder):
            path = status.getPath()
            name = path.getName()
            if _ignored(name):  # nothing under a skipped directory is read either
                continue
            if status.isDirectory():
                folders.append((path, f"{relative}{name}/"))
            else:
                files.append([relative + name, status.getLen(), status.getModificationTime()])
    return sorted(files)


def _ignored(name: str) -> bool:
    """Whether Spark skips a file or directory of this name when it lists a relation's files
    (HadoopFSUtils.shouldFilterOutPathName): hidden and underscore names but partition
    directories and Parquet summaries, and files being copied."""
    excluded = (
        (name.startswith("_") and "=" not in name)
        or name.startswith(".")
        or name.endswith("._COPYING_")
    )
    return excluded and not name.startswith(("_common_metadata", "_metadata"))


def _planned(fingerprint: str) -> InputFingerprint:
    """A PostgreSQL side's fingerprint as the plan read it; none where it read none (its side
    could not be read)."""
    if not fingerprint:
        return InputFingerprint.none("the plan read no fingerprint of it")
    found = json.loads(fingerprint)
    return InputFingerprint(found["kind"], found["digest"], found["detail"])


def _duckdb_file(connection_env: str) -> InputFingerprint:
    """The database file and its WAL: any write to any table changes one of them (conservative:
    a write to another table counts as a change)."""
    target = os.environ.get(connection_env, "")
    if not target:
        return InputFingerprint.none(f"environment variable {connection_env} is not set or empty")
    database = Path(target)
    if not database.is_file():  # in memory, a remote (MotherDuck) or missing database
        return InputFingerprint.none(f"the database {connection_env} names is not a local file")
    files = [database, database.with_name(database.name + ".wal")]
    described = []
    for file in files:
        if file.exists():
            stat = file.stat()
            described.append([file.name, stat.st_size, stat.st_mtime_ns])
    sizes = ", ".join(f"{name} {_size(size)}" for name, size, _ in described)
    return InputFingerprint("database_file", canonical_hash(described), f"database file: {sizes}")


def _summary(listed: dict[str, Any]) -> str:
    """'12 files, 3.4 MB, newest 2026-11-25T10:00:00Z' over every listed root."""
    files = [f for entries in listed.values() if isinstance(entries, list) for f in entries]
    if not files:
        return "no data file"
    newest = datetime.fromtimestamp(max(f[2] for f in files) / 1000, UTC)
    size = _size(sum(f[1] for f in files))
    return f"{_counted(len(files), 'file')}, {size}, newest {newest:%Y-%m-%dT%H:%M:%SZ}"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _size(size: int) -> str:
    if size < 1000:
        return f"{size} B"
    scaled, units = size / 1000, ["kB", "MB", "GB", "TB"]
    while scaled >= 1000 and len(units) > 1:
        scaled, units = scaled / 1000, units[1:]
    return f"{scaled:.1f} {units[0]}"
