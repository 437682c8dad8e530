"""Python values spelled as Spark SQL literals of their exact type, read alike whatever the
session's parser settings (the Python twin of macros/utils/_spark_string_literal.sql), and
column names as quoted identifiers."""

from __future__ import annotations

from decimal import Decimal


def string_literal(text: str) -> str:
    """A plain literal when ``text`` holds no quote or backslash, else its UTF-8 bytes in hex:
    with spark.sql.parser.escapedStringLiterals on, backslash escapes would stay as typed."""
    if "'" not in text and "\\" not in text:
        return f"'{text}'"
    return f"decode(unhex('{text.encode().hex()}'), 'UTF-8')"


def identifier(name: str) -> str:
    """A column name quoted for Spark SQL, whatever characters it holds."""
    return "`" + name.replace("`", "``") + "`"


def double_literal(value: float) -> str:
    """A double, as the shortest text that reads back as the same double."""
    return f"{float(value)!r}D".upper()


def decimal_literal(value: Decimal) -> str:
    """A decimal of exactly ``value``'s digits (a plain 1.5 would read as a decimal too, but
    1E+3 as a double)."""
    return f"{value:f}BD"
