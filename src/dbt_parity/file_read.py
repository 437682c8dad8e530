"""Lets the plan's macros read a file relation without failing the whole plan.

A query that fails in a macro fails the model, so one unreadable path would stop every pair's
plan. This adds ``adapter.parity_file_read(format, path, view)``: it registers the temporary
view over the files in dbt's own SparkSession (parity.sides.file_views) and returns
``{'problem': Spark's reason or None, 'file_view': how the files are read, or None}``. With a
profile whose Spark is not in dbt's process (not the session method) it returns None, and the
macros read the files through SQL.
"""

from __future__ import annotations

from typing import Any

from dbt_parity.session_submission import dbt_session

METHOD = "parity_file_read"


def _file_read(self: Any, format: str, path: str, view: str) -> dict[str, Any] | None:
    credentials = self.config.credentials
    if credentials.method != "session":
        return None
    from parity.sides.file_views import Unreadable, read_files

    spark = dbt_session(dict(credentials.server_side_parameters or {}))
    try:
        file_view = read_files(spark, format, path, view)
    except Unreadable as unreadable:
        return {"problem": str(unreadable), "file_view": None}
    return {"problem": None, "file_view": file_view.as_plan() if file_view else None}


def register(adapter_class: Any) -> None:
    """Adds the method to the adapter class and to what dbt exposes of it to Jinja."""
    if METHOD in adapter_class._available_:
        return
    setattr(adapter_class, METHOD, _file_read)
    adapter_class._available_ = adapter_class._available_ | {METHOD}
