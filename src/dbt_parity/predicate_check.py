"""Lets the plan's macros check a pair's `where` with the parity library.

Macros cannot import Python, and the plan must refuse a filter before any engine sees it. dbt
exposes to Jinja the adapter methods named in the adapter class's ``_available_``; this adds one,
``adapter.parity_predicate_problem(dialect, text, added, trusted)``, which returns why the text
is not a filter in that dialect, or None (parity.predicates).
"""

from __future__ import annotations

from typing import Any

METHOD = "parity_predicate_problem"


def _predicate_problem(
    self: Any, dialect: str, text: str, added: list[str], trusted: bool
) -> str | None:
    # Imported on first use: sqlfluff is slow to import, and dbt imports this hook every command.
    from parity.predicates import predicate_problem

    return predicate_problem(dialect, text, frozenset(added), trusted)


def register(adapter_class: Any) -> None:
    """Adds the method to the adapter class and to what dbt exposes of it to Jinja."""
    if METHOD in adapter_class._available_:
        return
    setattr(adapter_class, METHOD, _predicate_problem)
    adapter_class._available_ = adapter_class._available_ | {METHOD}
