"""The script a user would write instead of parity for two Spark tables: a session configured as
the embedded profile's (profiles/profiles.yml: its warehouse, metastore and settings), both tables
read, a full outer join on the key with null-safe equality on every other column, the differing
rows collected. Run as a process of its own by bench/user_wait.py, which times all of it.

    python bench/plain_script.py SOURCE TARGET KEY [KEY ...]
"""

import os
import sys
from functools import reduce

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

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
    .config("spark.ui.enabled", "false")
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.python.sql.dataFrameDebugging.enabled", "false")
    .enableHiveSupport()
    .getOrCreate()
)
source, target = spark.table(source_table).alias("s"), spark.table(target_table).alias("t")
columns = [c for c in source.columns if c not in keys]


def every(names, equal):
    return reduce(lambda a, b: a & b, [equal(F.col(f"s.{c}"), F.col(f"t.{c}")) for c in names])


joined = source.join(target, every(keys, lambda s, t: s == t), "full_outer")
differing = joined.where(~every([*keys, *columns], lambda s, t: s.eqNullSafe(t))).collect()
print(f"{len(differing)} rows differ")
spark.stop()
