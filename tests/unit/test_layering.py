"""The library imports one way, in its flow: a module imports only modules of its own layer or of
the layers before it, so a change to one layer never reaches back into the ones it feeds.

    values → plan → sides → algorithms → comparison → results → pipelines → telemetry → reconcile

`values` (and `errors`, `log`, `spark_settings`, `scala_seq`) import nothing of parity's. The
reference oracle (`reference.py`) is what the tests hold the engines to: no runtime module may
lean on it.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import REPO

LIBRARY = REPO / "src" / "parity"
FLOW = [
    "values",
    "plan",
    "sides",
    "algorithms",
    "comparison",
    "results",
    "pipelines",
    "telemetry",
    "reconcile",
    "sync",
]
# Modules outside the flow: the base every layer may use, and entry points nothing imports.
BASE = {"errors", "log", "spark_settings", "scala_seq"}
# `report` renders the report page from what the macros read: it imports none of the flow.
ENTRY_POINTS = {"reference", "embedded", "predicates", "spark_columns", "report"}


def layer(module: str) -> int:
    """The position of a module (``parity.sides.sql``) in the flow; the base is below it, the
    package root (whose import reaches everything) above it."""
    if module == "parity":
        return len(FLOW) + 1
    name = module.split(".")[1]
    if name in BASE:
        return -1
    if name in ENTRY_POINTS:
        return len(FLOW)
    return FLOW.index(name)


def imports_of(module: str, source: str, is_package: bool = False) -> set[str]:
    """The parity modules ``source`` (the text of ``module``) imports, however it spells them:
    ``import parity.x``, ``from parity.x import y``, ``from parity import x`` (x may be a module)
    and relative imports."""
    package = module if is_package else module.rpartition(".")[0]
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # Each name is a module of its own, or a name of the module it comes from.
            for alias in node.names:
                dotted = f"{base}.{alias.name}"
                imported.add(dotted if dotted in MODULES else base)
    return {name for name in imported if name in MODULES}


def _module_names() -> dict[str, tuple[str, bool]]:
    """Each library module's dotted name: its path and whether it is a package."""
    found = {}
    for path in sorted(LIBRARY.rglob("*.py")):
        parts = path.relative_to(LIBRARY.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (str(path), is_package)
    return found


MODULES = _module_names()


@cache
def modules() -> dict[str, set[str]]:
    """Each library module (but the package root) and the parity modules it imports, parsed once
    for every case that asks."""
    return {
        name: imports_of(name, Path(path).read_text(), is_package)
        for name, (path, is_package) in MODULES.items()
        if name != "parity"
    }


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


def test_the_base_and_the_values_import_nothing_of_parity():
    leaning = {
        name: imported
        for name, imported in modules().items()
        if imported and (name.split(".")[1] in BASE or name.startswith("parity.values"))
    }
    assert not leaning


@pytest.mark.parametrize(
    "source",
    [
        "from parity.results.summary import Findings",
        "import parity.results.summary",
        "from parity import results",
        "from parity import reconcile",
        "from ..results import summary",
        "from ..results.summary import Findings",
        "from .. import reconcile",
        "from parity import *",
    ],
)
def test_a_later_module_is_seen_however_it_is_imported(source):
    imported = imports_of("parity.sides.spark", source)
    assert imported and any(layer(m) > layer("parity.sides.spark") for m in imported)


def test_an_earlier_or_same_layer_import_passes():
    source = "from parity.values.rows import Row\nfrom .side import Side\nfrom parity import errors"
    assert imports_of("parity.sides.spark", source) == {
        "parity.values.rows",
        "parity.sides.side",
        "parity.errors",
    }
