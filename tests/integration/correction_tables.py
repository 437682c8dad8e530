"""Two small tables that differ in every way a correction can mend, for the correction set and
the applies: a compound key, a wide decimal, text with NULL, '' and unicode, a note a pair may
hide, a timestamp, and duplicates (of a key one side lacks, and extra copies of a key both hold)."""

from __future__ import annotations

import hashlib

# 2024-03-10 12:00:00 UTC, and an hour later, as Spark's timestamps (instants).
NOON = 1_710_072_000_000_000
HOUR = 3_600_000_000
AT = "2024-03-10 12:00:00.000000"
AN_HOUR_LATER = "2024-03-10 13:00:00.000000"

# A decimal(38, 10) of 30 digits: no double holds it.
WIDE = "12345678901234567890.1234567891"
# (id, region, amount, label, note, placed_at): a compound key, a decimal(38, 10), text with NULL,
# '' and unicode, a sensitive note and a timestamp.
SOURCE = [
    (1, "eu", "10.0000000000", "a", "n1", NOON),
    (2, "eu", "20.0000000000", "b", "n2", NOON),
    (3, "eu", "30.0000000000", None, "n3", NOON),
    (4, "us", WIDE, "ü☕", "n4", NOON),
    (6, "us", "60.0000000000", "f", "n6", NOON),
    (7, "us", "-98765432109876543210.1234567891", "g", "n7", NOON),
    (8, "us", "80.0000000000", "h", "n8", NOON),
    (9, "eu", "90.0000000000", "i", None, NOON),
    (9, "eu", "90.0000000000", "i", None, NOON),
    (10, "eu", "100.0000000000", "j", "n10", NOON),
    *[(11, "eu", "110.0000000000", "k", "n11", NOON)] * 2,
]
TARGET = [
    (1, "eu", "10.0000000000", "a", "n1", NOON),
    (2, "eu", "20.0000000000", "B2", "x2", NOON),  # label and the sensitive note differ
    (3, "eu", "30.0000000000", "", "n3", NOON),  # '' against NULL
    (5, "us", "50.0000000000", "e", "n5", NOON),  # only in the target
    (6, "us", "60.0100000000", "f", "n6", NOON),  # within amount's tolerance
    (7, "us", "-98765432109876543210.6234567891", "g", "n7", NOON),  # beyond it
    *[(8, "us", "80.0000000000", "h", "n8", NOON)] * 3,  # two copies more than the source's
    (10, "eu", "100.0000000000", "j", "n10", NOON + HOUR),
    (11, "eu", "110.0000000000", "k", "n11", NOON),  # one copy fewer than the source's
]


def model(rows) -> str:
    def literal(value):
        return "null" if value is None else f"'{value}'" if isinstance(value, str) else str(value)

    values = ",\n    ".join(f"({', '.join(literal(v) for v in row)})" for row in rows)
    return (
        "select cast(id as int) as id, region, cast(amount as decimal(38, 10)) as amount, label,"
        " note, timestamp_micros(placed_at) as placed_at\n"
        f"from values\n    {values}\nas rows (id, region, amount, label, note, placed_at)\n"
    )


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def notes_shown(spark, schema: str, pair: str, logged: list[str]) -> list[str]:
    """Where the notes an apply of ``pair`` writes (order 2's, the inserted 4's and 11's) are
    shown: its rows of every relation the corrections and applies publish, and the log lines
    given."""
    # Each row's values as they are: a row's repr writes a newline as a backslash and an n, and
    # a statement's line "4 rows: ..." would read as note n4.
    published = [
        " ".join(str(value) for value in row)
        for relation in ("parity_corrections", "parity_run_corrections", "parity_applies")
        for row in spark.table(f"{schema}.{relation}").where(f"pair_name = '{pair}'").collect()
    ]
    return [text for text in published + logged for note in ("n2", "n4", "n11") if note in text]
