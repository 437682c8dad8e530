"""Lets the plan's macros read Spark relations' columns from dbt's own SparkSession, instead of
two `describe` statements each (parity.spark_columns says why).

This adds ``adapter.parity_spark_columns(relation_name)``: the relation's columns as
``[{name, data_type, nullable, fields}]``, [] when it does not exist, less Hudi's metadata
columns as dbt-spark leaves them out; and ``adapter.parity_spark_columns_of(relation_names)``:
the same of many relations at once, by name, of those the session catalog describes itself (the
others are read one by one). With a profile whose Spark is not in dbt's process (not the
session method) both return None, and the macros describe each relation through SQL.
"""

from __future__ import annotations

from typing import Any

from dbt_parity.session_submission import dbt_session


def _spark_columns(self: Any, relation_name: str) -> list[dict[str, Any]] | None:
    spark = _session(self)
    if spark is None:
        return None
    from parity.spark_columns import spark_columns

    return _shown(self, spark_columns(spark, relation_name))


def _spark_columns_of(self: Any, relation_names: list[str]) -> dict[str, list] | None:
    spark = _session(self)
    if spark is None:
        return None
    from parity.spark_columns import spark_columns_of

    found = spark_columns_of(spark, list(relation_names))
    return {name: _shown(self, columns) for name, columns in found.items()}


def _session(adapter: Any) -> Any:
    """dbt's own SparkSession, or None where Spark is not in dbt's process."""
    credentials = adapter.config.credentials
    if credentials.method != "session":
        return None
    return dbt_session(dict(credentials.server_side_parameters or {}))


def _shown(adapter: Any, columns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in columns if c["name"] not in adapter.HUDI_METADATA_COLUMNS]


METHODS = {"parity_spark_columns": _spark_columns, "parity_spark_columns_of": _spark_columns_of}


def register(adapter_class: Any) -> None:
    """Adds the methods to the adapter class and to what dbt exposes of it to Jinja."""
    if set(METHODS) <= adapter_class._available_:
        return
    for name, method in METHODS.items():
        setattr(adapter_class, name, method)
    adapter_class._available_ = adapter_class._available_ | set(METHODS)
