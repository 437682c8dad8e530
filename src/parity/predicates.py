"""Checks a pair's `where` before anything runs: it must be exactly one SQL expression in its
side's dialect, so that pasted into the canonical select it can only ever filter rows.

sqlfluff parses the text in place, inside the very shape the plan renders it in
(``from <relation> as <alias> where (<text>)``): the parenthesis around it must be the one the
text closes, and nothing may follow. A text that closes it early, adds a statement or is itself
a query is refused with the reason, before any engine sees it.
"""

from __future__ import annotations

import re
from functools import cache

# The dialects parity renders, by the name sqlfluff knows them by.
SQLFLUFF_DIALECTS = {
    "spark": "sparksql",
    "databricks": "databricks",
    "postgres": "postgres",
    "duckdb": "duckdb",
    "mysql": "mysql",
    "snowflake": "snowflake",
    "bigquery": "bigquery",
}
# How macros/plan/side_select.sql renders a side's filter, with the relation's name left out.
RENDERED = "select 1 from compared as __parity_relation where ({})"
POSITION = re.compile(r"^Line \d+, Position \d+: ")
QUERIES = {"select_statement", "set_expression", "with_compound_statement"}


def predicate_problem(dialect: str, text: str) -> str | None:
    """Why ``text`` is not one SQL expression in ``dialect``, or None when it is."""
    if dialect not in SQLFLUFF_DIALECTS:
        return f"parity cannot check SQL in the {dialect} dialect"
    parsed = _linter(SQLFLUFF_DIALECTS[dialect]).parse_string(RENDERED.format(text))
    root = parsed.root_variant()
    tree = root.tree if root else None
    # A ';' token (not one inside a string or a comment, which lex as one token each).
    if tree is not None and any(token.raw == ";" for token in tree.raw_segments):
        return "it holds a ';': a filter is one expression, never several statements"
    if tree is None or any(tree.recursive_crawl("unparsable")) or parsed.violations:
        # Positions would point into the rendered query, not into the user's text.
        reasons = "; ".join(POSITION.sub("", v.desc()) for v in parsed.violations)
        return f"it is not one SQL expression in the {dialect} dialect ({reasons or 'unparsable'})"
    statements = list(tree.recursive_crawl("statement", recurse_into=False))
    clauses = list(tree.recursive_crawl("where_clause", recurse_into=False))
    if len(statements) != 1 or len(clauses) != 1:
        return "it is not one expression: it makes the query more than one statement"
    content = _inside(clauses[0])
    while len(content) == 1 and content[0].type == "expression":
        content = _inside(content[0])
    # The parenthesis the plan puts around the text must be one pair, holding the whole text.
    if len(content) != 1 or content[0].type != "bracketed" or content[0].raw != f"({text})":
        return "its parentheses do not balance: it closes the parenthesis around it"
    inner = _inside(content[0])
    while len(inner) == 1 and inner[0].type in ("bracketed", "expression"):
        inner = _inside(inner[0])
    if len(inner) == 1 and inner[0].type in QUERIES:
        return "it is a query, not a predicate"
    return None


def _inside(segment) -> list:
    """The code segments inside a where clause, an expression or a parenthesis, past its keyword
    or its brackets."""
    return [s for s in segment.segments if s.is_code and s.raw.lower() not in ("where", "(", ")")]


@cache
def _linter(dialect: str):
    # sqlfluff is imported here, not at start-up: dbt imports the start-up hook for every command.
    from sqlfluff.core import FluffConfig, Linter

    # The raw templater: the text is SQL as the engine will get it, never a template.
    return Linter(config=FluffConfig(overrides={"dialect": dialect, "templater": "raw"}))
