"""What of an engine's or a driver's error may be published.

A pair's error is published in its `status_reason` (parity_pair_results, parity_summary,
parity_run_results), printed by the report and logged to dbt.log, and an engine's text carries
data: a cast error quotes the row's value (a sensitive column's too), `raise_error` publishes its
argument, a driver echoes the piece of a URL it could not parse, the password in it. So what is
published of such a text is its first line (and a PostgreSQL DETAIL or HINT, a DuckDB
suggestion), with every quoted value and every number an engine quotes as a value replaced by
'…', and every secret of the run removed.

A quoted text is kept only where it is a name the plan itself published (the pair's relations
and columns, by `the_run`) or a type's name: a value can be put where an engine quotes a name
(PostgreSQL's `cast(note as regclass)` says `relation "<the note>" does not exist`), so the place
says nothing.

The secrets are the values of the variables the run reads its connections from, the userinfo of
a URL in them whatever characters it holds (everything between `//` and the last `@`, so that a
password written without percent-encoding is covered whole), the password, and each piece of it
between URL delimiters a driver may echo alone, percent-decoded too.

With PARITY_DEBUG_ERRORS=1 the whole text, less the secrets, is logged as well, for whoever
debugs an engine's failure.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from parity.log import logger
from parity.plan import PairPlan

DEBUG = "PARITY_DEBUG_ERRORS"
HIDDEN = "'…'"
SECRET = "***"
# A quoted text: from a quote (not an apostrophe: `can't`) to the same quote followed by a
# delimiter (a value holding the quote, unescaped as PostgreSQL and DuckDB print it, stays
# whole), or to the end of the text.
QUOTED = re.compile(r"""(?<!\w)(['"])(.*?)(?:\1(?=[\s,.;:!?)\]}@]|\Z)|\Z)""", re.S)
# Where an engine prints a value unquoted: Spark's `The value 3000000000L of the type "BIGINT"`
# and `The 12.35 rounded half up from 12.345 cannot be represented as ...`, DuckDB's `with value
# 300 can't be cast`.
NUMBER = r"[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?[A-Za-z]{0,2}\b"
VALUE_NUMBER = re.compile(
    rf"(?:\b(value|The|from)(\s+){NUMBER}|{NUMBER}(?=\s+(cannot be represented|rounded)))", re.I
)
# Spark's to_number: `The input "STRING" <the value> does not match the format`.
UNQUOTED_INPUT = re.compile(r"(The input \"[^\"]*\" ).*?( does not match)", re.S)
# PyMySQL's error, the repr of its code and message: `(1045, "Access denied for user ...")`.
MYSQL_ERROR = re.compile(r"""\(\d+, (?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\)""", re.S)
# `raise_error(...)`'s text, which is the caller's: whatever a `where` made of a row.
RAISED = re.compile(r"(\[USER_RAISED_EXCEPTION\])(.*?)(?=\s*SQLSTATE:|\Z)", re.S)
# The second line worth keeping: a PostgreSQL DETAIL or HINT, a DuckDB suggestion (its LINE echo
# of the query and a PostgreSQL CONTEXT quote the SQL and the data, unquoted).
SECOND_LINE = re.compile(r"(DETAIL|HINT):|Did you mean|Candidate bindings")
# Quoted names of types, of MySQL's clauses and of Spark's settings, which an engine's message
# quotes.
TYPE_NAME = re.compile(
    r"(tiny|small|medium|big)?int(eger)?\d*( unsigned)?|string|text|binary|bytea|blob|boolean|"
    r"(var)?char(acter)?( varying)?|float\d*|real|double( precision)?|json|uuid|interval|"
    r"(decimal|numeric)(\(\d+(,\s*\d+)?\))?|date(time)?|time(stamp)?(_[nl]tz)?"
    r"( with(out)? time zone)?|select|where clause|field list|on clause|order clause|"
    r"spark\.[\w.]+",
    re.I,
)
# A relation's name, in its parts (schema, table), and the path of a file relation.
RELATION_PARTS = re.compile(r"[.`\"]+")
FILE_PATH = re.compile(r"^(?:parquet|json)\.`(.*)`$", re.S)
USERINFO = re.compile(r"//(.*)@", re.S)
# A password given as a keyword: `password=...` in a key=value string, `?password=` in a URL.
PASSWORD_KEYWORD = re.compile(r"(?:^|[\s?&])password\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&#]+)", re.I)
# Where a driver cuts a URL it cannot parse, echoing a piece of the password between two.
DELIMITERS = re.compile(r"[@:/%?#&]")
# A piece of a password shorter than this is left: it would cut words of every message.
SHORTEST_PIECE = 3


@dataclass(frozen=True)
class Known:
    """What the running model knows of its pairs: the secrets of every variable they read their
    connections from, and the names the plan published."""

    secrets: tuple[str, ...] = ()
    names: frozenset[str] = frozenset()


_run = Known()


@contextmanager
def the_run(
    variables: Iterable[str], names: Iterable[str], paths: Iterable[str] = ()
) -> Iterator[None]:
    """Within it, every error scrubbed knows the secrets of these environment variables (all the
    run's sides', not only the failing one's) and of the userinfo of these paths, and may keep
    these names where they are quoted."""
    global _run
    before = _run
    secrets = [s for v in set(variables) if v for s in secrets_of(os.environ.get(v, ""))]
    secrets += [s for path in paths for s in secrets_of(path, whole=False)]
    places = [p for v in set(variables) if v for p in _places(os.environ.get(v, ""))]
    _run = Known(tuple(secrets), frozenset(n.lower() for n in [*names, *places] if n))
    try:
        yield
    finally:
        _run = before


def pairs_run(pairs: Iterable[PairPlan]) -> AbstractContextManager[None]:
    """`the_run` of these pairs: their sides' variables and a file side's path (which its
    relation's name publishes, all but its userinfo), their names, relations and columns."""
    sides = [side for pair in pairs for side in (pair.source, pair.target)]
    names = [pair.name for pair in pairs]
    for side in sides:
        names += [side.relation_name, *RELATION_PARTS.split(side.relation_name)]
        names += [*side.key_names, *side.column_names, *side.key_columns, *side.value_columns]
        names += [column.get("name", "") for column in side.schema_snapshot]
    paths = [part for side in sides for part in FILE_PATH.findall(side.relation_name)]
    return the_run([side.connection_env for side in sides], names, paths)


def secrets_of(target: str, whole: bool = True) -> list[str]:
    """What a message must never show of a connection's target: the whole of it (unless not
    ``whole``), its userinfo, its password and the password's pieces, read by position rather
    than parsed, so that a target too malformed to parse is covered too."""
    if not target:
        return []
    found = [target] if whole else []
    passwords = []
    userinfo = USERINFO.search(target)
    if userinfo:
        found.append(userinfo.group(1))
        if ":" in userinfo.group(1):
            passwords.append(userinfo.group(1).split(":", 1)[1])
    passwords += [m.group(1).strip("'") for m in PASSWORD_KEYWORD.finditer(target)]
    for password in {*passwords, *map(unquote, passwords)}:
        found += [password, *_pieces(password)]
    found += [unquote(secret) for secret in found]
    return sorted({s for s in found if len(s) >= SHORTEST_PIECE}, key=len, reverse=True)


def _pieces(password: str) -> list[str]:
    """Each run of the password between delimiters, and each end of it cut at one."""
    cuts = [m.start() for m in DELIMITERS.finditer(password)]
    ends = [password[:cut] for cut in cuts] + [password[cut + 1 :] for cut in cuts]
    return DELIMITERS.split(password) + ends


def _places(target: str) -> list[str]:
    """The host and database a URL names, which its driver's errors quote (not secrets)."""
    try:
        parts = urlsplit(target)
        return [parts.hostname or "", unquote(parts.path.lstrip("/"))]
    except ValueError:
        return []


def published(message: str, secrets: Iterable[str] = ()) -> str:
    """What may be published of an engine's message: its first line (and a second that helps),
    values hidden, no secret. Logs the whole message, less the secrets, under PARITY_DEBUG_ERRORS.
    """
    every = sorted({*secrets, *_run.secrets}, key=len, reverse=True)
    if os.environ.get(DEBUG) == "1":
        logger.info("parity: the engine's whole message (%s=1): %s", DEBUG, hidden(message, every))
    text = hidden(message, every)
    driver = MYSQL_ERROR.fullmatch(text.strip())
    if driver:  # the message, with its quotes, is inside: its code stays outside
        code, text = ast.literal_eval(driver.group(0))
    text = RAISED.sub(rf"\1 {HIDDEN}", text)
    text = QUOTED.sub(_quoted, text)
    text = VALUE_NUMBER.sub(lambda m: f"{m[1] or ''}{m[2] or ''}…", text)
    text = UNQUOTED_INPUT.sub(rf"\1{HIDDEN}\2", text)
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    kept = " ".join(lines[:1] + [line for line in lines[1:2] if SECOND_LINE.match(line)])
    return f'({code}, "{kept}")' if driver else kept


def hidden(text: str, secrets: Iterable[str]) -> str:
    """The text with each secret replaced, the longest first (a piece is part of the whole)."""
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, SECRET)
    return text


def debug_text(text: str) -> str | None:
    """The text for a debug line (a traceback): under PARITY_DEBUG_ERRORS only, less the run's
    secrets; else None, and nothing is logged."""
    return hidden(text, _run.secrets) if os.environ.get(DEBUG) == "1" else None


def _quoted(match: re.Match[str]) -> str:
    inner = match.group(2)
    if inner.lower() in _run.names or TYPE_NAME.fullmatch(inner):
        return match.group(0)
    return HIDDEN
