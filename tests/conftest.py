"""One SparkSession for the whole test session, shared with every in-process dbt invocation."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pyspark.sql import SparkSession

REPO = Path(__file__).resolve().parents[1]

# Not UTC, and with DST: canonical timestamps must not depend on the session time zone.
SESSION_TIME_ZONE = "America/New_York"


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory) -> SparkSession:
    home = tmp_path_factory.mktemp("spark")
    # The shipped profile reads these, so dbt's session settings agree with this one.
    os.environ["PARITY_WAREHOUSE_DIR"] = str(home / "warehouse")
    os.environ["PARITY_METASTORE_DIR"] = str(home / "metastore_db")
    session = (
        SparkSession.builder.master("local[2]")
        .appName("parity-tests")
        .config("spark.sql.warehouse.dir", str(home / "warehouse"))
        .config(
            "spark.hadoop.javax.jdo.option.ConnectionURL",
            f"jdbc:derby:;databaseName={home / 'metastore_db'};create=true",
        )
        .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={home}")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", SESSION_TIME_ZONE)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .enableHiveSupport()
        .getOrCreate()
    )
    yield session
    session.stop()
