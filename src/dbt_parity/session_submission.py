"""Runs a dbt Python model in the SparkSession of the dbt process itself."""

from __future__ import annotations

import logging
from typing import Any

from dbt.adapters.base import PythonJobHelper

SUBMISSION_METHOD = "session"


class _DbtLogBridge(logging.Handler):
    """Forwards the parity library's log records to dbt's own log, while a model runs: a warning
    (or worse) as a warning line, which dbt shows as one (`--warn-error` does not apply)."""

    def emit(self, record: logging.LogRecord) -> None:
        from dbt.events.types import JinjaLogDebug, JinjaLogInfo, JinjaLogWarning
        from dbt_common.events.functions import fire_event

        if record.levelno >= logging.WARNING:
            event = JinjaLogWarning
        else:
            event = JinjaLogInfo if record.levelno >= logging.INFO else JinjaLogDebug
        fire_event(event(msg=self.format(record)))


class SessionPythonJobHelper(PythonJobHelper):
    """Executes the compiled model with ``spark`` bound to the session dbt-spark uses."""

    def __init__(self, parsed_model: dict, credential: Any) -> None:
        self.parsed_model = parsed_model
        self.server_side_parameters = dict(getattr(credential, "server_side_parameters", {}) or {})

    def submit(self, compiled_code: str) -> None:
        spark = dbt_session(self.server_side_parameters)
        library_logger = logging.getLogger("parity")
        bridge = _DbtLogBridge()
        library_logger.addHandler(bridge)
        library_logger.setLevel(logging.INFO)
        library_logger.propagate = False  # dbt's log is the one place these lines belong
        try:
            name = self.parsed_model.get("unique_id", "python_model")
            exec(compile(compiled_code, name, "exec"), {"spark": spark, "__name__": name})
        finally:
            library_logger.removeHandler(bridge)
            library_logger.propagate = True


def dbt_session(server_side_parameters: dict[str, Any]) -> Any:
    """The SparkSession of dbt-spark's session method: the same builder its cursor uses, so SQL
    and Python models (and the plan's reads of files) share one session and one catalog."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.enableHiveSupport()
    for key, value in server_side_parameters.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


def register(adapter_class: type) -> None:
    """Adds the session method to the adapter's ``python_submission_helpers``."""
    original = adapter_class.python_submission_helpers
    if getattr(original.fget, "_parity_session", False):
        return

    def helpers(self: Any) -> dict[str, type[PythonJobHelper]]:
        return {**original.fget(self), SUBMISSION_METHOD: SessionPythonJobHelper}

    prop = property(helpers)
    prop.fget._parity_session = True  # type: ignore[attr-defined]
    adapter_class.python_submission_helpers = prop
