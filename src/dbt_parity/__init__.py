"""dbt start-up hook: what parity adds to dbt-spark.

dbt imports every installed top-level module whose name starts with ``dbt_`` when it starts
(its plugin discovery). dbt-spark can only submit Python models to Databricks clusters; this
module registers one more method that runs them in the process's own SparkSession, so plain
``dbt build`` works on the embedded session and on any ``spark.master``; it gives the plan's
macros the library's check of a pair's filters, its reading of files and of Spark relations'
columns, the reading and writing of dbt's artifacts, and the writing of the report page; it
stops, in one line, a second command on an embedded metastore that another process holds; and
a dbt interrupted or terminated cancels the queries parity runs on other engines. Keep this
import cheap: dbt pays for it on every command.
"""

from __future__ import annotations

try:
    from dbt.adapters.spark.connections import SparkConnectionManager
    from dbt.adapters.spark.impl import SparkAdapter
except ImportError:  # dbt-spark is not installed: nothing to register.
    SparkAdapter = None

if SparkAdapter is not None:
    from dbt_parity import (
        artifacts,
        file_read,
        html_report,
        metastore_in_use,
        predicate_check,
        query_cancel,
        session_submission,
        spark_columns,
    )

    session_submission.register(SparkAdapter)
    predicate_check.register(SparkAdapter)
    file_read.register(SparkAdapter)
    spark_columns.register(SparkAdapter)
    artifacts.register(SparkAdapter)
    html_report.register(SparkAdapter)
    metastore_in_use.register(SparkConnectionManager)
    query_cancel.register(SparkConnectionManager)
