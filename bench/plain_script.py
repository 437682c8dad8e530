"""The script a user would write instead of parity for Spark tables: a session configured as the
embedded profile's (profiles/profiles.yml: its warehouse, metastore and settings), then for each
pair, one after the other, both tables read, a full outer join on the key with null-safe equality
on every other column, the differing rows collected (baselines.plain_join, the join run_bench
times in-process). Run as a process of its own by bench/user_wait.py (one pair) and
bench/pull_requests.py (many), which time all of it; each pair's line gives its join's seconds.

    python bench/plain_script.py KEY[,KEY ...] SOURCE TARGET [SOURCE TARGET ...]
"""

import os
import sys
import time

from baselines import plain_join  # bench/, this script's folder, is first on sys.path
from pyspark.sql import SparkSession

keys, *tables = sys.argv[1:]
keys = keys.split(",")
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
for source, target in zip(tables[::2], tables[1::2], strict=True):
    started = time.perf_counter()
    columns = [c for c in spark.table(source).columns if c not in keys]
    differing = plain_join(spark, (source, target), keys, columns)
    print(f"{differing} rows differ in {time.perf_counter() - started:.2f} s")
spark.stop()
