"""The embedded default session for processes that drive dbt themselves (tests, benchmark).

It is configured as the shipped profile (profiles/profiles.yml) configures dbt-spark's session,
and exports the variables that profile reads, so dbt in the same process finds this session's
warehouse and metastore.
"""

from __future__ import annotations

import os
from pathlib import Path

from pyspark.sql import SparkSession


def embedded_session(
    home: Path, app_name: str, java_options: str = "", **settings: str
) -> SparkSession:
    """A local session keeping its tables and Hive metastore under ``home``; ``java_options``
    go to the driver's JVM (``-Duser.timezone=...`` sets the zone a machine would have).
    ``settings`` are applied last, so they may choose another catalog than Hive's."""
    warehouse, metastore = home / "warehouse", home / "metastore_db"
    os.environ["PARITY_WAREHOUSE_DIR"] = str(warehouse)
    os.environ["PARITY_METASTORE_DIR"] = str(metastore)
    builder = (
        SparkSession.builder.master(os.environ.get("PARITY_SPARK_MASTER", "local[2]"))
        .appName(app_name)
        .config("spark.sql.warehouse.dir", str(warehouse))
        .config("spark.driver.memory", os.environ.get("PARITY_DRIVER_MEMORY", "2g"))
        .config(
            "spark.hadoop.javax.jdo.option.ConnectionURL",
            f"jdbc:derby:;databaseName={metastore};create=true",
        )
        .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={home} {java_options}")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.python.sql.dataFrameDebugging.enabled", "false")
        .enableHiveSupport()
    )
    for key, value in settings.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()
