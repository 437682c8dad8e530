"""The script a user would write instead of parity for two Spark tables: a session configured as
the embedded profile's (profiles/profiles.yml: its warehouse, metastore and settings), both tables
read, a full outer join on the key with null-safe equality on every other column, the differing
rows collected (baselines.plain_join, the join run_bench times in-process). Run as a process of
its own by bench/user_wait.py, which times all of it.

    python bench/plain_script.py SOURCE TARGET KEY [KEY ...]
"""

import os
import sys

from baselines import plain_join  # bench/, this script's folder, is first on sys.path
from pyspark.sql import SparkSession

source_table, target_table, *keys = sys.argv[1:]
metastore = os.environ.get("PARITY_METASTORE_DIR", "metastore_db")
spark = (
    SparkSession.builder.master(os.environ.get("PARITY_SPARK_MASTER", "local[2]"))
    .config("spark.sql.warehouse.dir", os.environ.get("PARITY_WAREHOUSE_DIR", "spark-warehouse"))
    .config(
        "spark.hadoop.javax.jdo.option.ConnectionURL",
        f"jdbc:derby:;databaseName={metastore};create=true",
    )
    .config("spark.sql.shuffle.partitions", os.environ.get("PARITY_SHUFFLE_PARTITIONS", "8"))
    .config("spark.driver.memory", os.environ.get("PARITY_DRIVER_MEMORY", "2g"))
    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.python.sql.dataFrameDebugging.enabled", "false")
    .enableHiveSupport()
    .getOrCreate()
)
columns = [c for c in spark.table(source_table).columns if c not in keys]
print(f"{plain_join(spark, (source_table, target_table), keys, columns)} rows differ")
spark.stop()
