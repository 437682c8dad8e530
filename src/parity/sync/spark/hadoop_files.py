"""Directories renamed and deleted through Hadoop's FileSystem in the session's JVM, so an apply
works on any file system Spark reads (local, HDFS, object stores), as Spark itself would."""

from __future__ import annotations

from typing import Any

from pyspark.sql import SparkSession

from parity.sync.decisions import Unwritable


def exists(spark: SparkSession, path: str) -> bool:
    system, located = _located(spark, path)
    return bool(system.exists(located))


def rename(spark: SparkSession, source: str, destination: str) -> None:
    system, moved = _located(spark, source)
    _, to = _located(spark, destination)
    # Hadoop moves a directory *into* a destination that exists: there must be none.
    if system.exists(to) or not system.rename(moved, to):
        raise Unwritable(f"cannot rename {source} to {destination}: it exists, or renaming failed")


def delete(spark: SparkSession, path: str) -> bool:
    """Deletes a directory and all it holds; whether there was one."""
    system, located = _located(spark, path)
    return bool(system.exists(located)) and bool(system.delete(located, True))


def _located(spark: SparkSession, path: str) -> tuple[Any, Any]:
    located = spark._jvm.org.apache.hadoop.fs.Path(path)
    return located.getFileSystem(spark._jsc.hadoopConfiguration()), located


def same(spark: SparkSession, one: str, other: str) -> bool:
    """Whether two paths name one directory, once qualified (scheme, authority, absolute)."""
    first, located = _located(spark, one)
    second, other_located = _located(spark, other)
    return str(first.makeQualified(located).toString()) == str(
        second.makeQualified(other_located).toString()
    )
