"""How a difference is published: values a person can read beside the exact canonical text, and
no value at all for what the pair marks sensitive. All of it in Spark, over the differences
kept there.

Canonical text is exact but not always readable (a double is its hexadecimal binary value, a
boolean is 1 or 0). The published ``source_value`` and ``target_value`` are readable: a float
as the decimal Java prints for it (Double.toString, or Float.toString for a 32-bit float: it
reads back as the same value), a boolean as true or false; the exact text stays in
``source_canonical`` and ``target_canonical``. A sensitive value is published as its sha256
only (of its canonical text): enough to tell equal values apart, never the value.

Each published column is one SQL expression, handed to Spark once (F.expr): built as Column
objects, each operator was a call from Python into the JVM, several for each readable column.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from parity.values.column_rule import ColumnRule
from parity.values.masking import HASH_PREFIX, Masking
from parity.values.spark_literals import string_literal

FLOAT_SPECIALS = "('NaN', 'Infinity', '-Infinity')"
# The kinds whose canonical text is not what a person would read.
READABLE_KINDS = ("boolean", "float")


@dataclass(frozen=True)
class PublishedDifference:
    """A difference as published: a whole row (no column), one value of a row, or a schema
    finding (no key); readable values, the exact canonical text beside them, and only hashes of
    what the pair marks sensitive."""

    key: str | None
    kind: str
    column_name: str | None
    source_value: str | None
    target_value: str | None
    delta: str | None = None
    relative_error: float | None = None
    source_canonical: str | None = None
    target_canonical: str | None = None
    source_hash: str | None = None
    target_hash: str | None = None


def present(
    differences: DataFrame,
    key_names: tuple[str, ...],
    rules: tuple[ColumnRule, ...],
    masking: Masking,
) -> DataFrame:
    """Each difference (summary.DIFFERENCE_COLUMNS) as published (PublishedDifference's
    fields)."""
    hidden_key = any(masking.hides(name) for name in key_names)
    whole_row = "`column_name` is null"
    value = {side: f"`{side}_value`" for side in ("source", "target")}
    hidden = hidden_sql(masking, rules)
    published = {
        "key": hashed_sql("`key`") if hidden_key else "`key`",
        "kind": "`kind`",
        "column_name": "`column_name`",
        **{
            f"{side}_value": f"case when {whole_row} then {_row(text, masking, rules, True)}"
            f" when not {hidden} then {_readable(text, rules)} end"
            for side, text in value.items()
        },
        "delta": f"case when not {hidden} then `delta` end",
        "relative_error": f"case when not {hidden} then `relative_error` end",
        **{
            f"{side}_canonical": f"case when {whole_row} then {_row(text, masking, rules, False)}"
            f" when not {hidden} then {text} end"
            for side, text in value.items()
        },
        **{
            f"{side}_hash": f"case when not {whole_row} and {hidden} then {hashed_sql(text)} end"
            for side, text in value.items()
        },
    }
    return differences.select(*[F.expr(sql).alias(name) for name, sql in published.items()])


def hidden_sql(masking: Masking, rules: tuple[ColumnRule, ...]) -> str:
    """Whether a value difference's column is sensitive, in SQL over a difference's columns."""
    if masking.everything:
        return "true"
    names = [string_literal(rule.column.lower()) for rule in rules if masking.hides(rule.column)]
    return f"(lower(`column_name`) in ({', '.join(names)}))" if names else "false"


def _row(document: str, masking: Masking, rules: tuple[ColumnRule, ...], readable: bool) -> str:
    """A whole row's JSON object of canonical values: readable where asked, each sensitive
    value hashed, or wholly hashed when the pair is sensitive."""
    if masking.everything:
        return hashed_sql(document)
    name, text = "parity_name", "parity_text"  # the lambda's variables
    shown = text
    for rule in rules:
        if masking.hides(rule.column):
            changed = hashed_sql(text)
        elif readable and rule.kind in READABLE_KINDS:
            changed = _readable_as(text, rule)
        else:
            continue
        column = string_literal(rule.column.lower())
        shown = f"case when lower({name}) = {column} then {changed} else {shown} end"
    values = f"from_json({document}, 'map<string,string>')"
    return (
        f"case when {document} is not null"
        f" then to_json(transform_values({values}, ({name}, {text}) -> {shown})) end"
    )


def _readable(text: str, rules: tuple[ColumnRule, ...]) -> str:
    """A value difference's readable text, by its column's kind."""
    chosen = text
    for rule in rules:
        if rule.kind in READABLE_KINDS:
            column = string_literal(rule.column.lower())
            chosen = (
                f"case when lower(`column_name`) = {column}"
                f" then {_readable_as(text, rule)} else {chosen} end"
            )
    return chosen


def _readable_as(text: str, rule: ColumnRule) -> str:
    if rule.kind == "boolean":
        return f"case when {text} = '1' then 'true' when {text} = '0' then 'false' else {text} end"
    if rule.kind == "float":
        number = f"cast({text} as double)"
        if rule.bits == 32:
            number = f"cast({number} as float)"
        shown = f"coalesce(cast({number} as string), {text})"
        return f"case when {text} in {FLOAT_SPECIALS} then {text} else {shown} end"
    return text


def hashed_sql(text: str) -> str:
    """A hidden value's text (SQL) as published: its sha256, prefixed."""
    return f"case when {text} is not null then concat('{HASH_PREFIX}', sha2({text}, 256)) end"
