"""The library imports one way, in its flow: a module imports only modules of its own layer or of
the layers before it, so a change to one layer never reaches back into the ones it feeds.

    values → plan → sides → algorithms → comparison → results → reconcile

`values` (and `errors`, `log`) import nothing of parity's. The reference oracle
(`reference.py`) is what the tests hold the engines to: no runtime module may lean on it.
"""

from __future__ import annotations

import ast

import pytest

from tests.conftest import REPO

LIBRARY = REPO / "src" / "parity"
FLOW = ["values", "plan", "sides", "algorithms", "comparison", "results", "reconcile"]
# Modules outside the flow: the base every layer may use, and entry points nothing imports.
BASE = {"errors", "log"}
ENTRY_POINTS = {"reference", "embedded", "predicates"}


def layer(module: str) -> int:
    """The position of a module (``parity.sides.sql``) in the flow; the base is below it."""
    name = module.split(".")[1]
    if name in BASE:
        return -1
    if name in ENTRY_POINTS:
        return len(FLOW)
    return FLOW.index(name)


def modules() -> dict[str, set[str]]:
    """Each library module and the parity modules it imports."""
    found = {}
    for path in sorted(LIBRARY.rglob("*.py")):
        name = ".".join(path.relative_to(LIBRARY.parent).with_suffix("").parts)
        if name.endswith(".__init__"):
            name = name.removesuffix(".__init__")
        if name == "parity":
            continue
        imported = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("parity."):
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names if a.name.startswith("parity.")}
        found[name] = imported
    return found


def test_every_module_has_a_place_in_the_flow():
    for name in modules():
        layer(name)  # raises ValueError for a package the flow does not name


@pytest.mark.parametrize("module", sorted(modules()))
def test_imports_run_one_way(module):
    upward = sorted(m for m in modules()[module] if layer(m) > layer(module))
    assert not upward, f"{module} imports {upward}, later in the flow {' → '.join(FLOW)}"


def test_the_runtime_never_imports_the_oracle():
    leaning = sorted(name for name, imported in modules().items() if "parity.reference" in imported)
    assert not leaning
