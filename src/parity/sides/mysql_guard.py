"""What a MySQL (or MariaDB) query may hold before it reaches the server, read by its tokens.

A read-only transaction still lets a SELECT write a file (`into outfile`, `into dumpfile`), and
MySQL runs the text of `/*! ... */` comments as code (and reads `/*+ ... */` as hints), so a
comment can turn one expression into another the moment the server reads it. parity's own MySQL
SQL holds neither a comment nor `into`, and starts with `select`: a query that does not is
refused whole. The text is read as the server reads it with parity's session (sql_mode empty):
'single' and "double" quoted strings with doubled quotes and backslash escapes, `backtick`
identifiers with doubled backticks; a word, a comment or `into` inside them is data.
"""

from __future__ import annotations

# A character of an unquoted word (MySQL's identifiers also take any non-ASCII character).
WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
# What opens a comment outside quotes: MySQL's three kinds, and `--` whatever follows it (the
# server reads it as a comment before a space, as two minus signs otherwise: no filter needs
# either spelling).
COMMENTS = ("/*", "--", "#")
# Why a query is refused.
NOT_SELECT = "a query that does not start with select"
UNTERMINATED = "an unterminated quote"
COMMENT = "a comment (MySQL runs some as code)"
INTO = "`into` (a file or variable written)"


def refusal(sql: str) -> str | None:
    """Why ``sql`` may not run in parity's MySQL session, or None when it may."""
    start = sql.lstrip()
    if start[:6].lower() != "select" or (start[6:] and _in_word(start[6])):
        return NOT_SELECT
    words: list[str] = []
    position, length = 0, len(sql)
    while position < length:
        char = sql[position]
        if char in "'\"`":
            end = _closing(sql, position)
            if end is None:
                return UNTERMINATED
            position = end
        elif sql.startswith(COMMENTS, position):
            return COMMENT
        elif _in_word(char):
            begin = position
            while position < length and _in_word(sql[position]):
                position += 1
            words.append(sql[begin:position].lower())
        else:
            position += 1
    # A word that starts with a digit and ends in `into` may be a number before the keyword
    # (`1e5into`): refused too.
    if any(word == "into" or (word[0].isdigit() and word.endswith("into")) for word in words):
        return INTO
    return None


def _in_word(char: str) -> bool:
    return char in WORD or not char.isascii()


def _closing(sql: str, start: int) -> int | None:
    """The position after the quote that closes the one at ``start``, or None."""
    quote, position = sql[start], start + 1
    while position < len(sql):
        char = sql[position]
        if char == "\\" and quote != "`":
            position += 2
        elif char == quote:
            if sql.startswith(quote, position + 1):  # a doubled quote is one quote character
                position += 2
            else:
                return position + 1
        else:
            position += 1
    return None
