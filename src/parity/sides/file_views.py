"""How Spark reads a file relation, or exactly why it cannot.

Spark 4 refuses to infer the schema of a Parquet file holding a FIXED_LEN_BYTE_ARRAY column of
logical type UUID (PARQUET_TYPE_ILLEGAL), as DuckDB writes them, but reads the column's 16 bytes
when told it is binary. So for such files the schema is taken from a file's footer, through the
session's JVM: the UUID columns as binary, every other column as Spark's own converter infers it
under the session's settings. The plan records that read (a FileView); whoever reads the files,
the plan or the reconciliation, in any session, registers the same temporary view from it.
"""

from __future__ import annotations

import json
from typing import Any

from py4j.protocol import Py4JJavaError
from pyspark.errors import AnalysisException
from pyspark.sql import SparkSession

from parity.sides.published_errors import published
from parity.values.file_view import FileView

ILLEGAL_TYPE = "PARQUET_TYPE_ILLEGAL"


class Unreadable(Exception):
    """Spark cannot read the files: the message is its reason, in a line."""


def read_files(spark: SparkSession, format: str, path: str, view: str) -> FileView | None:
    """Registers `view` over the files at `path` as Spark infers them, or, for Parquet files with
    UUID columns, as their FileView reads them (returned). Raises Unreadable with Spark's reason."""
    try:
        spark.read.format(format).load(path).createOrReplaceTempView(view)
        return None
    except (AnalysisException, Py4JJavaError) as error:
        reason = spark_reason(error)
        if format != "parquet" or ILLEGAL_TYPE not in reason:
            raise Unreadable(reason) from error
    try:
        file_view = _uuid_view(spark, path, reason)
        register(spark, file_view)
    except (AnalysisException, Py4JJavaError) as error:
        raise Unreadable(spark_reason(error)) from error
    spark.table(f"`{file_view.view}`").createOrReplaceTempView(view)
    return file_view


def register(spark: SparkSession, file_view: FileView) -> None:
    """Defines the view in this session (the same definition wherever it is registered)."""
    reader = spark.read.schema(file_view.schema).format(file_view.format)
    reader.load(file_view.path).createOrReplaceTempView(file_view.view)


def spark_reason(error: Exception) -> str:
    """Spark's reason in a line or two: its message's first line and, for a job or a file
    that failed, the first line of the deepest cause (the footer error), no Java stack trace;
    as it may be published (sides/published_errors.py: a file's values are data too)."""
    if not isinstance(error, Py4JJavaError):
        return published(str(error))
    thrown = error.java_exception
    reason = _first_line(thrown.getMessage())
    cause = thrown.getCause()
    while cause is not None and cause.getCause() is not None:
        cause = cause.getCause()
    if cause is not None and cause.getMessage() and _first_line(cause.getMessage()) not in reason:
        reason = f"{reason}; {_first_line(cause.getMessage())}"
    return published(reason)


def _first_line(text: str | None) -> str:
    return next(iter((text or "").strip().splitlines()), "")


def _uuid_view(spark: SparkSession, path: str, reason: str) -> FileView:
    """The view reading the UUID columns of the first Parquet file at `path` as binary."""
    jvm = spark._jvm
    schema = _footer_schema(spark, path, reason)
    fields = jvm.java.util.ArrayList()
    uuids = []
    for field in schema.getFields():
        if _is_uuid(field):
            uuids.append(field.getName())
            field = field.asPrimitiveType().withLogicalTypeAnnotation(None)
        elif not field.isPrimitive() and _holds_uuid(field):
            raise Unreadable(
                f"{reason}; column {field.getName()} holds a UUID field, and parity reads UUIDs"
                " as top-level columns only"
            )
        fields.add(field)
    if not uuids:  # the illegal type is not a UUID: Spark's reason stands
        raise Unreadable(reason)
    plain = jvm.org.apache.parquet.schema.MessageType(schema.getName(), fields)
    parquet = jvm.org.apache.spark.sql.execution.datasources.parquet
    converter = parquet.ParquetToSparkSchemaConverter(spark._jsparkSession.sessionState().conf())
    # Files are read as nullable whatever their footer says, as Spark reads them by inference.
    inferred = json.loads(converter.convert(plain).json())
    for column in inferred["fields"]:
        column["nullable"] = True
    ddl = jvm.org.apache.spark.sql.types.DataType.fromJson(json.dumps(inferred)).toDDL()
    return FileView.of("parquet", path, ddl, tuple(uuids))


def _footer_schema(spark: SparkSession, path: str, reason: str) -> Any:
    """The Parquet schema in the footer of the first data file at `path` (a file, a directory
    or a glob), skipping the names Spark skips (starting with `_` or `.`)."""
    jvm = spark._jvm
    conf = spark._jsc.hadoopConfiguration()
    root = jvm.org.apache.hadoop.fs.Path(path)
    system = root.getFileSystem(conf)
    files = []
    for status in system.globStatus(root) or []:
        listed = system.listFiles(status.getPath(), True)
        while listed.hasNext():
            found = listed.next().getPath()
            if not found.getName().startswith(("_", ".")):
                files.append(found.toString())
    if not files:
        raise Unreadable(reason)
    first = jvm.org.apache.hadoop.fs.Path(sorted(files)[0])
    opened = jvm.org.apache.parquet.hadoop.ParquetFileReader.open(
        jvm.org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(first, conf)
    )
    try:
        return opened.getFooter().getFileMetaData().getSchema()
    finally:
        opened.close()


def _is_uuid(field: Any) -> bool:
    annotation = field.getLogicalTypeAnnotation()
    return field.isPrimitive() and annotation is not None and annotation.toString() == "UUID"


def _holds_uuid(group: Any) -> bool:
    return any(
        _is_uuid(f) or (not f.isPrimitive() and _holds_uuid(f))
        for f in group.asGroupType().getFields()
    )
