"""What a dbt package's documentation lacks, and what breaks parity's lineage in a project, read
from the manifest `dbt parse` writes.

`missing_docs` is a pure function of the manifest (as JSON) and of the columns each model
produces, so hand-made manifests test it (tests/unit/test_docs_coverage.py);
tests/integration/test_dbt_docs.py feeds it the package's own. A model's produced columns come
from its code, not from its YAML: for a SQL model, the output columns of its compiled select
(`select_columns`); for a Python model, the schema in the library that builds its DataFrame. A
model whose columns are unknown is itself reported, so a new Python model cannot go unchecked.

A macro's arguments are read from its signature in `macro_sql`, parsed by dbt's own Jinja parser
(generic tests included: dbt names them `test_<name>`); argument types must be ones dbt's
`validate_macro_args` accepts.

`lineage_gaps` is a pure function of the manifest and of the pairs configured: each side of each
pair must be an ancestor of parity_plan, and parity_plan an ancestor of every result model.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

import jinja2
from dbt.parser.schemas import is_valid_type
from dbt_common.clients import jinja
from sqlfluff.core import FluffConfig, Linter
from sqlfluff.core.parser import BaseSegment

DOCUMENTED_NODES = ("model", "analysis")
# The package whose plan the lineage runs through, and the models of its results.
PACKAGE = "parity"
RESULT_MODELS = ("parity_pair_results", "parity_summary", "parity_differences")


def missing_docs(
    manifest: Mapping[str, Any], package: str, produced_columns: Mapping[str, Sequence[str]]
) -> list[str]:
    """Every documentation gap of `package`'s models, analyses and macros, one line each."""
    problems: list[str] = []
    nodes = [
        n
        for n in manifest["nodes"].values()
        if n["package_name"] == package and n["resource_type"] in DOCUMENTED_NODES
    ]
    for node in sorted(nodes, key=lambda n: n["unique_id"]):
        where = f"{node['resource_type']} {node['name']} ({node['original_file_path']})"
        if not _text(node.get("description")):
            problems.append(f"{where}: no description")
        if node["resource_type"] == "model":
            problems += _column_problems(where, node, produced_columns.get(node["name"]))
    macros = [m for m in manifest["macros"].values() if m["package_name"] == package]
    for macro in sorted(macros, key=lambda m: m["unique_id"]):
        where = f"macro {macro['name']} ({macro['original_file_path']})"
        if not _text(macro.get("description")):
            problems.append(f"{where}: no description")
        problems += _argument_problems(where, macro)
    return problems


def _column_problems(
    where: str, node: Mapping[str, Any], produced: Sequence[str] | None
) -> list[str]:
    if produced is None:
        return [f"{where}: the docs check does not know the columns this model produces"]
    documented = {name.lower(): column for name, column in node.get("columns", {}).items()}
    problems = [
        f"{where}: column {name} has no description"
        for name in produced
        if not _text(documented.get(name.lower(), {}).get("description"))
    ]
    produced_names = {name.lower() for name in produced}
    problems += [
        f"{where}: documents column {column['name']}, which the model does not produce"
        for name, column in documented.items()
        if name not in produced_names
    ]
    return problems


def _argument_problems(where: str, macro: Mapping[str, Any]) -> list[str]:
    signature = macro_arguments(macro["macro_sql"])
    documented = {argument["name"]: argument for argument in macro.get("arguments") or []}
    problems = []
    for name in signature:
        argument = documented.get(name)
        if argument is None:
            problems.append(f"{where}: argument {name} is not documented")
            continue
        kind = _text(argument.get("type"))
        if not kind:
            problems.append(f"{where}: argument {name} has no type")
        elif not is_valid_type(kind):
            problems.append(f"{where}: argument {name} has type '{kind}', not one dbt knows")
        if not _text(argument.get("description")):
            problems.append(f"{where}: argument {name} has no description")
    problems += [
        f"{where}: documents argument {name}, which is not in its signature"
        for name in documented
        if name not in signature
    ]
    return problems


def macro_arguments(macro_sql: str) -> list[str]:
    """The argument names of the one macro (or generic test) that `macro_sql` defines."""
    definitions = list(jinja.parse(macro_sql).find_all(jinja2.nodes.Macro))
    assert len(definitions) == 1, f"expected one macro definition in {macro_sql[:80]!r}"
    return [argument.name for argument in definitions[0].args]


def select_columns(sql: str) -> list[str]:
    """The names of the columns a compiled Spark SQL select returns, in order: each output
    expression's alias (every alias of a generator such as `inline(x) as (a, b)`) or the name
    of the column it selects. Raises ValueError on an output it cannot name, such as `*`."""
    config = FluffConfig(overrides={"dialect": "sparksql", "templater": "raw"})
    tree = Linter(config=config).parse_string(sql).tree
    if tree is None or any(True for _ in tree.recursive_crawl("unparsable")):
        raise ValueError(f"sqlfluff cannot parse:\n{sql}")
    select = _output_select(tree)
    names = []
    for element in select.get_child("select_clause").get_children("select_clause_element"):
        alias = element.get_child("alias_expression")
        reference = element.get_child("column_reference")
        if alias is not None:
            names += [_name(s) for s in alias.recursive_crawl(*_IDENTIFIERS)]
        elif reference is not None:
            names.append(_name(list(reference.recursive_crawl(*_IDENTIFIERS))[-1]))
        else:
            raise ValueError(f"cannot name the output column {element.raw!r}")
    return names


_IDENTIFIERS = ("naked_identifier", "quoted_identifier")
_QUERIES = (
    "file",
    "statement",
    "select_statement",
    "set_expression",
    "with_compound_statement",
    "bracketed",
)


def _output_select(segment: BaseSegment) -> BaseSegment:
    """The select whose columns a statement returns: the main query after any `with` (the last
    query among its parts), the first branch of a `union`."""
    if segment.is_type("select_statement"):
        return segment
    queries = [child for child in segment.segments if child.is_type(*_QUERIES)]
    if not queries:
        raise ValueError(f"no select in {segment.raw!r}")
    return _output_select(queries[-1] if segment.is_type("with_compound_statement") else queries[0])


def _name(identifier: BaseSegment) -> str:
    return identifier.raw.strip("`")


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def lineage_gaps(manifest: dict[str, Any], pairs: list[dict[str, Any]]) -> list[str]:
    """What breaks the lineage from each side of each pair to parity_plan, and from
    parity_plan to each result model."""
    plan = f"model.{PACKAGE}.parity_plan"
    plan_ancestors = ancestors(manifest, plan)
    gaps = [
        f"pair {pair['name']}: its {side} {pair[side]} is not an ancestor of parity_plan"
        for pair in pairs
        for side in ("source", "target")
        if relation_node(manifest, pair[side]) not in plan_ancestors
    ]
    gaps += [
        f"parity_plan is not an ancestor of {name}"
        for name in RESULT_MODELS
        if plan not in ancestors(manifest, f"model.{PACKAGE}.{name}")
    ]
    return gaps


def relation_node(manifest: dict[str, Any], spec: dict[str, Any]) -> str:
    """The unique id of the node a pair side names."""
    if "source" in spec:
        source_name, table = spec["source"]
        found = [
            uid
            for uid, s in manifest["sources"].items()
            if s["source_name"] == source_name and s["name"] == table
        ]
    else:
        package, name = [None, spec["ref"]] if isinstance(spec["ref"], str) else spec["ref"]
        found = [
            uid
            for uid, n in manifest["nodes"].items()
            if n["resource_type"] == "model"
            and n["name"] == name
            and package in (None, n["package_name"])
        ]
    assert len(found) == 1, f"{spec} names {found}"
    return found[0]


def ancestors(manifest: dict[str, Any], node: str) -> set[str]:
    parents = manifest["parent_map"]
    seen: set[str] = set()
    queue = deque(parents[node])
    while queue:
        parent = queue.popleft()
        if parent not in seen:
            seen.add(parent)
            queue.extend(parents.get(parent, []))
    return seen
