"""What of an engine's error may be published: no value it quotes, no secret of the run, the
names the plan published and the engine's own words kept. The messages are the engines' own,
as each printed them for a row holding `s3cretval` (tests/integration/test_published_errors.py
runs them through dbt)."""

from __future__ import annotations

import logging

import pytest

from parity.sides.published_errors import (
    DEBUG,
    debug_text,
    published,
    secrets_of,
    the_run,
)

VALUE = "s3cretval"

# (engine's message, what is published of it)
MESSAGES = [
    (
        'invalid input syntax for type integer: "s3cretval"',
        "invalid input syntax for type integer: '…'",
    ),
    (
        "Conversion Error: Could not convert string 's3cretval' to INT32\n\n"
        "LINE 1: select cast('s3cretval' as integer)\n               ^^^^^^^^^^",
        "Conversion Error: Could not convert string '…' to INT32",
    ),
    (
        "Conversion Error: Type INT64 with value 3000000000 can't be cast because the value is"
        " out of range for the destination type INT32",
        "Conversion Error: Type INT64 with value … can't be cast because the value is out of"
        " range for the destination type INT32",
    ),
    (
        'Conversion Error: Casting value "1234.5678" to type DECIMAL(4,2) failed: value is out'
        " of range!",
        "Conversion Error: Casting value '…' to type DECIMAL(4,2) failed: value is out of range!",
    ),
    (
        "[CAST_INVALID_INPUT] The value 's3cretval' of the type \"STRING\" cannot be cast to"
        ' "INT" because it is malformed. SQLSTATE: 22018',
        '[CAST_INVALID_INPUT] The value \'…\' of the type "STRING" cannot be cast to "INT"'
        " because it is malformed. SQLSTATE: 22018",
    ),
    (
        '[CAST_OVERFLOW] The value 3000000000L of the type "BIGINT" cannot be cast to "INT"'
        " due to an overflow. SQLSTATE: 22003",
        '[CAST_OVERFLOW] The value … of the type "BIGINT" cannot be cast to "INT" due to an'
        " overflow. SQLSTATE: 22003",
    ),
    (
        "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION]  12345.678 cannot be represented as"
        ' Decimal(5, 2). If necessary set "spark.sql.ansi.enabled" to "false" to bypass this'
        " error, and return NULL instead. SQLSTATE: 22003",
        "[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION]  … cannot be represented as"
        " Decimal(5, 2). If necessary set \"spark.sql.ansi.enabled\" to '…' to bypass this"
        " error, and return NULL instead. SQLSTATE: 22003",
    ),
    (
        '[INVALID_FORMAT.MISMATCH_INPUT] The format is invalid: 999. The input "STRING"'
        " s3cret(val does not match the format. SQLSTATE: 42601",
        '[INVALID_FORMAT.MISMATCH_INPUT] The format is invalid: 999. The input "STRING"'
        " '…' does not match the format. SQLSTATE: 42601",
    ),
    (
        "[USER_RAISED_EXCEPTION] s3cretval from another table SQLSTATE: P0001",
        "[USER_RAISED_EXCEPTION] '…' SQLSTATE: P0001",
    ),
    (
        "(1292, \"Truncated incorrect INTEGER value: 's3cretval'\")",
        "(1292, \"Truncated incorrect INTEGER value: '…'\")",
    ),
    (
        "(1045, \"Access denied for user 'parity'@'10.0.0.5' (using password: YES)\")",
        "(1045, \"Access denied for user '…'@'…' (using password: YES)\")",
    ),
    (
        "(1064, \"You have an error in your SQL syntax; check the manual near 'drop table"
        " s3cretval' at line 1\")",
        "(1064, \"You have an error in your SQL syntax; check the manual near '…' at line 1\")",
    ),
    (
        'invalid input syntax for type json\nDETAIL:  Token "s3cretval" is invalid.\n'
        "CONTEXT:  JSON data, line 1: s3cretval",
        "invalid input syntax for type json DETAIL:  Token '…' is invalid.",
    ),
    # A value holding the quote, which PostgreSQL prints as it is.
    (
        'invalid input syntax for type integer: "s3cret"val"',
        "invalid input syntax for type integer: '…'",
    ),
    ('date field value out of range: "s3cret\'val"', "date field value out of range: '…'"),
    # A value holding a line break: hidden whole, not cut at the first line.
    (
        'invalid input syntax for type integer: "s3cret\nval"',
        "invalid input syntax for type integer: '…'",
    ),
]


@pytest.mark.parametrize(("message", "shown"), MESSAGES)
def test_no_value_an_engine_quotes_is_published(message, shown):
    assert published(message) == shown
    assert "s3cret" not in published(message)


def test_the_plans_names_are_kept_and_nothing_else_is():
    message = 'relation "public.orders" does not exist'
    assert published(message) == "relation '…' does not exist"
    with the_run([], ["public.orders", "note"]):
        assert published(message) == message
        # A value where an engine quotes a name (`cast(note as regclass)`): hidden all the same.
        assert published('relation "s3cretval" does not exist') == "relation '…' does not exist"
        assert published('column "NOTE" does not exist') == 'column "NOTE" does not exist'
    assert published('column "note" does not exist') == "column '…' does not exist"


# Passwords a user may write into a URL without percent-encoding, and what drivers echo of them.
@pytest.mark.parametrize(
    ("target", "echoes"),
    [
        (
            "postgresql://parity:p@ss:w/rd%@127.0.0.1:5432/db",
            ["invalid percent-encoded token: rd%@127.0.0.1:5432/db", "bad w/rd%", "p@ss:w"],
        ),
        (
            "mysql://parity:Secr3t/Passw0rd@127.0.0.1:3306/parity",
            ["Port could not be cast to integer value as Secr3t", "Passw0rd@127.0.0.1"],
        ),
        ("postgresql://parity:p%40ss%3Aword@h/db", ["p@ss:word", "p%40ss%3Aword", "ss:word"]),
        ("host=127.0.0.1 user=parity password=Secr3t/Passw0rd", ["Secr3t", "Passw0rd"]),
        ("host=h password='Secr3t Passw0rd'", ["'Secr3t Passw0rd'", "Secr3t Passw0rd"]),
    ],
)
def test_no_secret_or_piece_of_it_is_published(target, echoes):
    for echo in echoes:
        shown = published(f"driver: {echo} (unquoted)", secrets_of(target))
        assert not any(piece in shown for piece in ("Secr3t", "Passw0rd", "rd%", "ss:w")), shown
        assert shown.startswith("driver: ")
    assert target not in published(f"driver: {target}", secrets_of(target))


def test_the_userinfo_is_taken_to_the_last_at_whatever_it_holds():
    target = "postgresql://us:er:p@ss@w//rd@@127.0.0.1/db"
    assert "us:er:p@ss@w//rd@" in secrets_of(target)
    assert published("malformed: us:er:p@ss@w//rd@", secrets_of(target)) == "malformed: ***"


def test_every_variable_of_the_run_is_a_secret(monkeypatch):
    monkeypatch.setenv("PARITY_TEST_OTHER_URL", "mysql://shop:Secr3t/Passw0rd@db.internal/shop")
    # DuckDB's read_text('/proc/self/environ') would show another side's variable.
    environ = "PATH=/bin\x00PARITY_TEST_OTHER_URL=mysql://shop:Secr3t/Passw0rd@db.internal/shop"
    with the_run(["PARITY_TEST_OTHER_URL", "PARITY_TEST_UNSET"], []):
        shown = published(f"Invalid Input Error: {environ}")
    assert "Secr3t" not in shown and "Passw0rd" not in shown and "shop:" not in shown
    assert "Secr3t" in published(f"Invalid Input Error: {environ}")  # the run is over


def test_a_short_piece_of_a_password_is_left():
    """`rd%` is taken as a piece; `w` and `ss` are not, or every `ss` of a message would go."""
    secrets = secrets_of("postgresql://parity:p@ss:w/rd%@h/db")
    assert "rd%" in secrets and "ss" not in secrets and "w" not in secrets
    assert published("password authentication failed", secrets) == "password authentication failed"


def test_the_whole_message_is_logged_only_under_the_debug_switch(monkeypatch, caplog):
    secrets = secrets_of("postgresql://parity:Secr3t@h/db")
    message = 'invalid input syntax for type integer: "s3cretval" (Secr3t)'
    with caplog.at_level(logging.DEBUG, logger="parity"):
        monkeypatch.delenv(DEBUG, raising=False)
        published(message, secrets)
        assert not caplog.records
        assert debug_text("Traceback: s3cretval") is None
        monkeypatch.setenv(DEBUG, "1")
        assert published(message, secrets) == "invalid input syntax for type integer: '…' (***)"
        (record,) = caplog.records
        assert VALUE in record.getMessage() and "Secr3t" not in record.getMessage()
        with the_run([], []):
            assert debug_text("Traceback: s3cretval") == "Traceback: s3cretval"


def test_a_connections_host_and_database_are_kept(monkeypatch):
    monkeypatch.setenv("PARITY_TEST_LEGACY_URL", "postgresql://parity:Secr3t@10.0.0.5:5432/legacy")
    message = (
        'connection failed: connection to server at "10.0.0.5", port 5432 failed: FATAL:'
        '  database "legacy" does not exist'
    )
    with the_run(["PARITY_TEST_LEGACY_URL"], []):
        assert published(message) == message
    assert published(message) == (
        "connection failed: connection to server at '…', port 5432 failed: FATAL:"
        "  database '…' does not exist"
    )
