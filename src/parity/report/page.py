"""The report page rendered: Jinja2 (already in dbt's dependency tree) with autoescaping on, so
every text from the views (pair and column names, values, reasons) reaches the page as text,
never as markup. The style sheet and the script that sorts and filters the pairs are files
beside the template, inlined: the page loads nothing, from anywhere."""

from __future__ import annotations

import math
from functools import cache
from importlib.resources import files
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from parity.report.view import count, page, when

TEMPLATES = "templates"


@cache
def _environment() -> Environment:
    environment = Environment(
        loader=PackageLoader("parity.report", TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters.update(count=count, measure=_measure, when=when, percent=_percent)
    return environment


def _inlined(name: str) -> Markup:
    """A file beside the template, as it is: our own style sheet or script, no data in it."""
    return Markup(files("parity.report").joinpath(TEMPLATES, name).read_text(encoding="utf-8"))


def render(document: dict[str, Any]) -> str:
    """The page of the document the macros read (parity.report.view)."""
    return (
        _environment()
        .get_template("report.html.j2")
        .render(page=page(document), style=_inlined("report.css"), script=_inlined("report.js"))
    )


def _measure(value: Any) -> str:
    """A measure: a whole number without its fraction, else 6 significant digits (Spark's JSON
    writes NaN and the infinities as text)."""
    if value is None:
        return "—"
    if not isinstance(value, int | float) or not math.isfinite(value):
        return str(value)
    return f"{int(value):,}" if value == int(value) else f"{value:.6g}"


def _percent(value: Any) -> str:
    return "—" if value is None else f"{value:.6g}%"
