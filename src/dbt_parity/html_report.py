"""Lets the macros write the report page: ``adapter.parity_write_report_page(document)`` renders
the document the reporting macros read from the published views (parity.report.page) and writes
it to ``parity_report.html`` in the target folder, returning the file's path. The renderer is
imported on the first call, not when dbt starts."""

from __future__ import annotations

from typing import Any

from dbt_parity.artifacts import _write_artifact

WRITE_PAGE = "parity_write_report_page"
PAGE = "parity_report.html"


def _write_report_page(self: Any, document: dict[str, Any]) -> str:
    from parity.report.page import render

    return _write_artifact(self, PAGE, render(document))


def register(adapter_class: Any) -> None:
    """Adds the method to the adapter class and to what dbt exposes of it to Jinja."""
    if WRITE_PAGE in adapter_class._available_:
        return
    setattr(adapter_class, WRITE_PAGE, _write_report_page)
    adapter_class._available_ = adapter_class._available_ | {WRITE_PAGE}
