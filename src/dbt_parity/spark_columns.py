"""Lets the plan's macros read a Spark relation's columns in one lookup of dbt's own
SparkSession, instead of two `describe` statements (parity.spark_columns says why).

This adds ``adapter.parity_spark_columns(relation_name)``: the relation's columns as
``[{name, data_type, nullable, fields}]``, [] when it does not exist, less Hudi's metadata
columns as dbt-spark leaves them out. With a profile whose Spark is not in dbt's process (not
the session method) it returns None, and the macros describe the relation through SQL.
"""

from __future__ import annotations

from typing import Any

from dbt_parity.session_submission import dbt_session

METHOD = "parity_spark_columns"


def _spark_columns(self: Any, relation_name: str) -> list[dict[str, Any]] | None:
    credentials = self.config.credentials
    if credentials.method != "session":
        return None
    from parity.spark_columns import spark_columns

    spark = dbt_session(dict(credentials.server_side_parameters or {}))
    columns = spark_columns(spark, relation_name)
    return [c for c in columns if c["name"] not in self.HUDI_METADATA_COLUMNS]


def register(adapter_class: Any) -> None:
    """Adds the method to the adapter class and to what dbt exposes of it to Jinja."""
    if METHOD in adapter_class._available_:
        return
    setattr(adapter_class, METHOD, _spark_columns)
    adapter_class._available_ = adapter_class._available_ | {METHOD}
