"""The Spark lane calls the library's parts directly, below reconcile_pair: each test runs under
the settings reconcile_pair sets for parity's queries (parity/spark_settings.py). Tests through
dbt get them from reconcile_pair itself, in the session as the user's run leaves it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pyspark.sql import SparkSession

from parity.spark_settings import parity_settings


@pytest.fixture(autouse=True)
def as_reconcile_pair_runs(spark: SparkSession) -> Iterator[None]:
    with parity_settings(spark):
        yield
