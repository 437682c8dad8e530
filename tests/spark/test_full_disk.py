"""A job that failed because the disk is full says so: "No space left on device" is found among
the causes of the Java exception py4j hands back, not only in its stack trace."""

from __future__ import annotations

import pytest
from py4j.protocol import Py4JJavaError

from parity.sides.full_disk import full_disk

WRITE_FAILED = "[TASK_WRITE_FAILED] Task failed while writing rows to file:/data/warehouse/t."


def raised(spark, cause) -> Py4JJavaError:
    """The Py4JJavaError of a call into the JVM that throws ``cause``, wrapped as Java wraps a
    failure it waited on (an ExecutionException whose cause is ``cause``)."""
    future = spark._jvm.java.util.concurrent.CompletableFuture()
    future.completeExceptionally(cause)
    with pytest.raises(Py4JJavaError) as caught:
        future.get()
    return caught.value


def test_a_full_disk_among_the_causes_is_named_with_the_file_written(spark):
    jvm = spark._jvm
    no_space = jvm.java.io.IOException("No space left on device")
    error = raised(spark, jvm.org.apache.spark.SparkException(WRITE_FAILED, no_space))
    assert "No space left on device" not in error.java_exception.getMessage()
    assert full_disk(error) == (
        "the disk is full (No space left on device) writing file:/data/warehouse/t"
    )


def test_a_full_disk_without_a_file_is_named_alone(spark):
    error = raised(spark, spark._jvm.java.io.IOException("No space left on device"))
    assert full_disk(error) == "the disk is full (No space left on device)"


def test_another_failure_is_not_a_full_disk(spark):
    jvm = spark._jvm
    error = raised(
        spark,
        jvm.org.apache.spark.SparkException(WRITE_FAILED, jvm.java.io.IOException("Stream closed")),
    )
    assert full_disk(error) is None
