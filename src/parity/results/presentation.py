"""How a difference is published: values a person can read beside the exact canonical text, and
no value at all for what the pair marks sensitive. All of it in Spark, over the differences
kept there.

Canonical text is exact but not always readable (a double is its hexadecimal binary value, a
boolean is 1 or 0). The published ``source_value`` and ``target_value`` are readable: a float
as the decimal Java prints for it (Double.toString, or Float.toString for a 32-bit float: it
reads back as the same value), a boolean as true or false; the exact text stays in
``source_canonical`` and ``target_canonical``. A sensitive value is published as its sha256
only (of its canonical text): enough to tell equal values apart, never the value.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql import Column, DataFrame
from pyspark.sql import functions as F

from parity.values.column_rule import ColumnRule
from parity.values.masking import Masking

HASH_PREFIX = "sha256:"
FLOAT_SPECIALS = ("NaN", "Infinity", "-Infinity")
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
    key = _hashed(F.col("key")) if hidden_key else F.col("key")
    whole_row = F.col("column_name").isNull()
    value = {side: F.col(f"{side}_value") for side in ("source", "target")}
    hidden = _hidden(masking, rules)
    published = {
        "key": key,
        "kind": F.col("kind"),
        "column_name": F.col("column_name"),
        **{
            f"{side}_value": F.when(whole_row, _row(text, masking, rules, readable=True)).when(
                ~hidden, _readable(text, rules)
            )
            for side, text in value.items()
        },
        "delta": F.when(~hidden, F.col("delta")),
        "relative_error": F.when(~hidden, F.col("relative_error")),
        **{
            f"{side}_canonical": F.when(whole_row, _row(text, masking, rules, readable=False)).when(
                ~hidden, text
            )
            for side, text in value.items()
        },
        **{
            f"{side}_hash": F.when(~whole_row & hidden, _hashed(text))
            for side, text in value.items()
        },
    }
    return differences.select(*[published[name].alias(name) for name in published])


def _hidden(masking: Masking, rules: tuple[ColumnRule, ...]) -> Column:
    """Whether a value difference's column is sensitive."""
    if masking.everything:
        return F.lit(True)
    names = [rule.column for rule in rules if masking.hides(rule.column)]
    return F.lower(F.col("column_name")).isin([n.lower() for n in names]) if names else F.lit(False)


def _row(
    document: Column, masking: Masking, rules: tuple[ColumnRule, ...], readable: bool
) -> Column:
    """A whole row's JSON object of canonical values: readable where asked, each sensitive
    value hashed, or wholly hashed when the pair is sensitive."""
    if masking.everything:
        return _hashed(document)

    def shown(name: Column, text: Column) -> Column:
        chosen = text
        for rule in rules:
            if masking.hides(rule.column):
                changed = _hashed(text)
            elif readable and rule.kind in READABLE_KINDS:
                changed = _readable_as(text, rule)
            else:
                continue
            chosen = F.when(F.lower(name) == rule.column.lower(), changed).otherwise(chosen)
        return chosen

    values = F.from_json(document, "map<string,string>")
    return F.when(document.isNotNull(), F.to_json(F.transform_values(values, shown)))


def _readable(text: Column, rules: tuple[ColumnRule, ...]) -> Column:
    """A value difference's readable text, by its column's kind."""
    chosen = text
    for rule in rules:
        if rule.kind in READABLE_KINDS:
            chosen = F.when(
                F.lower(F.col("column_name")) == rule.column.lower(), _readable_as(text, rule)
            ).otherwise(chosen)
    return chosen


def _readable_as(text: Column, rule: ColumnRule) -> Column:
    if rule.kind == "boolean":
        return F.when(text == "1", "true").when(text == "0", "false").otherwise(text)
    if rule.kind == "float":
        number = text.cast("double")
        shown = (number.cast("float") if rule.bits == 32 else number).cast("string")
        return F.when(text.isin(*FLOAT_SPECIALS), text).otherwise(F.coalesce(shown, text))
    return text


def _hashed(text: Column) -> Column:
    return F.when(text.isNotNull(), F.concat(F.lit(HASH_PREFIX), F.sha2(text, 256)))
