"""Checks a pair's `where` before anything runs: a filter, never a program.

Pasted into every query of its side, a `where` runs with the credentials parity was given, and in
CI whoever opens a pull request writes it. So the plan checks each side's text in two steps with
sqlfluff, in that side's dialect, inside the very shape the plan renders it in
(``from <relation> as <alias> where (<text>)``):

1. it is exactly one expression: the parenthesis around it is the one the text closes, nothing
   follows, no ';', no query, and no comment (MySQL runs `/*! */` as code; no filter needs one);
2. it holds only what a filter needs, walked node by node against an allow-list: column
   references, literals, operators, `is [not] null`, `in (...)`, `between`, `like`, `case`,
   `cast`, date and interval arithmetic, and calls of the dialect's functions
   (parity.values.filter_functions). The first thing outside it is named: a subquery, a table
   function, reflection, an unknown or user-defined function, a symbol of another syntax.

A project that needs more adds functions (`parity_filter_functions`) or trusts its filters
(`parity_trust_filters`), which skips the second step only.
"""

from __future__ import annotations

import re
from functools import cache

from sqlfluff.core import FluffConfig, Lexer, Linter

from parity.values.filter_functions import allowed_functions, names

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
POSITION = re.compile(r"^Line (\d+), Position (\d+): ")
# What the rendered query holds before the user's text, on its first line.
PREFIX = len(RENDERED.split("{}")[0])
QUERIES = {"select_statement", "set_expression", "with_compound_statement", "select_clause"}

# What an expression is made of: nodes whose parts are checked in turn.
STRUCTURE = {
    "expression",
    "bracketed",
    "function_contents",
    "cast_expression",
    "case_expression",
    "when_clause",
    "else_clause",
    "datetime_literal",
    "interval_expression",
    "interval_literal",
    "array_accessor",
    "comparison_operator",
    "time_zone_grammar",
}
# Nodes taken whole: a value, or a type's name (a cast's target).
VALUES = {
    "literal",
    "numeric_literal",
    "quoted_literal",
    "boolean_literal",
    "null_literal",
    "data_type",
    "datetime_type_identifier",
    "date_part",
    "binary_operator",
    "sign_indicator",
}
KEYWORDS = names(
    """
    and or not is null true false unknown in between symmetric like ilike rlike regexp similar
    to escape case when then else end as interval distinct from at time zone div date
    timestamp timestamp_ltz timestamp_ntz
    """
)
SYMBOLS = names("( ) , . + - * / % || :: [ ] = < > ! <= >= <> != <=> ~ ~* !~ !~* & | ^")
# The parts of a date a word may name (extract, intervals) besides the functions' own names.
DATE_PARTS = names(
    """
    year years month months week weeks day days hour hours minute minutes second seconds
    quarter quarters millisecond milliseconds microsecond microseconds epoch dow doy isodow
    isoyear dayofweek dayofyear
    """
)


def predicate_problem(
    dialect: str, text: str, added: frozenset[str] = frozenset(), trusted: bool = False
) -> str | None:
    """Why ``text`` is not a filter a ``dialect`` side may run, or None when it is. ``added``:
    the functions the project allows beside the dialect's; ``trusted``: only step 1."""
    if dialect not in SQLFLUFF_DIALECTS:
        return f"parity cannot check SQL in the {dialect} dialect"
    rendered = RENDERED.format(text)
    linter, lexer = _tools(SQLFLUFF_DIALECTS[dialect])
    # By token, as the engine will read the text: a ';' or a comment inside a string is none.
    tokens, _ = lexer.lex(rendered)
    if any(token.raw == ";" for token in tokens):
        return "it holds a ';': a filter is one expression, never several statements"
    if any("comment" in token.type for token in tokens):
        return "it holds a comment: a filter needs none, and MySQL runs some comments as code"
    parsed = linter.parse_string(rendered)
    root = parsed.root_variant()
    tree = root.tree if root else None
    if tree is None or any(tree.recursive_crawl("unparsable")) or parsed.violations:
        reasons = "; ".join(_in_text(v.desc(), text) for v in parsed.violations)
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
    if trusted:
        return None
    refused = _first_refused(content[0], allowed_functions(dialect, added))
    return refused and f'{refused} (README.md, "Filters", lists what a filter may hold)'


def _in_text(reason: str, text: str) -> str:
    """A parser's reason with its position in the user's text, not in the rendered query:
    sqlfluff counts lines and positions from 1, and the text starts after PREFIX on line 1."""
    found = POSITION.match(reason)
    if found is None:
        return reason
    line, position = int(found.group(1)), int(found.group(2))
    position -= PREFIX if line == 1 else 0
    lines = text.split("\n")
    said = reason[found.end() :]
    if line > len(lines) or not 1 <= position <= len(lines[line - 1]):
        return f"at the end of the where: {said}"
    where = f"line {line}, position {position}" if len(lines) > 1 else f"position {position}"
    return f"at {where} of the where: {said}"


def _first_refused(
    segment, functions: frozenset[str], words: frozenset[str] = frozenset()
) -> str | None:
    """What in ``segment`` falls outside the allow-list, first in reading order, or None.
    ``words``: the bare words it may hold besides date parts and function names."""
    kind = segment.type
    if kind in QUERIES or (kind == "keyword" and segment.raw.lower() == "exists"):
        return "it holds a subquery: a filter reads only the row it filters"
    if kind == "function":
        name = next(s for s in segment.segments if s.type == "function_name")
        called = name.raw.lower()
        if len([s for s in name.segments if s.is_code and s.raw != "."]) != 1:
            return f"it calls {name.raw}: a filter calls a function by its bare name"
        if called not in functions:
            return f"it calls {called}, which is not one of the dialect's filter functions"
        parts = [s for s in segment.segments if s.type != "function_name"]
        # PostgreSQL's `position(x in y)` reads its operands as bare words: columns.
        words = (
            frozenset(t.raw.lower() for t in segment.raw_segments)
            if called == "position"
            else words
        )
    elif kind == "column_reference":
        named = all(
            s.type in ("identifier", "naked_identifier", "quoted_identifier") or s.raw == "."
            for s in segment.segments
            if s.is_code
        )
        return None if named else f"it holds the reference {segment.raw}"
    elif kind == "data_type" and segment.raw.lower().startswith("reg"):
        # PostgreSQL's regclass, regproc...: a cast that looks a name up in the catalog.
        return f"it casts to {segment.raw}, which reads the catalog"
    elif kind in VALUES:
        return None
    elif kind in STRUCTURE:
        parts = segment.segments
    elif not segment.is_code:
        return None
    elif segment.segments:
        return f"it holds {segment.raw.strip()} ({kind.replace('_', ' ')})"
    else:
        return _refused_token(segment, functions | words)
    return next(
        (found for part in parts if (found := _first_refused(part, functions, words))), None
    )


def _refused_token(token, functions: frozenset[str]) -> str | None:
    word = token.raw.lower()
    if token.type == "keyword":
        return None if word in KEYWORDS else f"it holds the keyword {word}"
    if token.type == "symbol":
        return None if word in SYMBOLS else f"it holds the symbol {word}"
    # A bare word: a date part, or a function called without parentheses (current_date).
    return None if word in DATE_PARTS or word in functions else f"it holds the word {token.raw}"


def _inside(segment) -> list:
    """The code segments inside a where clause, an expression or a parenthesis, past its keyword
    or its brackets."""
    return [s for s in segment.segments if s.is_code and s.raw.lower() not in ("where", "(", ")")]


@cache
def _tools(dialect: str) -> tuple[Linter, Lexer]:
    """sqlfluff's linter and lexer for a dialect, with the raw templater: the text is SQL as the
    engine will get it, never a template."""
    config = FluffConfig(overrides={"dialect": dialect, "templater": "raw"})
    return Linter(config=config), Lexer(config=config)
