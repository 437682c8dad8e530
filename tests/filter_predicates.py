"""Ordinary filters, per dialect, over a table of orders (id integer, status and note text,
amount decimal, d date, ordered_at timestamp, is_gift boolean): each must pass the plan's check
(tests/unit/test_predicates.py) and run on its engine (tests/unit/test_duckdb_filters.py,
tests/integration/test_filter_predicates.py). The table's rows and definition, and the filters
that a dialect's check or engine refuses, are here for every engine's test.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from parity.predicates import predicate_problem
from parity.sides.connections import connect

# Every dialect parses and runs these.
PORTABLE = [
    "id < 1000",
    "id between 10 and 20",
    "id not between 10 and 20",
    "id in (1, 2, 3)",
    "id not in (4, 5)",
    "status = 'shipped'",
    "status <> 'cancelled'",
    "status like 'sh%'",
    "status not like '%x%'",
    "note is null",
    "note is not null",
    "is_gift",
    "not is_gift",
    "amount > 10.5 and amount <= 1000",
    "(id < 10) or (id > 20)",
    "-amount < 0",
    "id * 2 + 1 > 3",
    "coalesce(note, '') = ''",
    "nullif(status, '') is not null",
    "lower(status) = 'shipped'",
    "upper(trim(status)) in ('SHIPPED', 'OPEN')",
    "length(status) > 3",
    "abs(amount) < 100",
    "round(amount, 1) > 0",
    "floor(amount) <= ceil(amount)",
    "greatest(id, 5) = id or least(id, 5) = id",
    "case when status = 'open' then 1 else 0 end = 1",
    "case status when 'open' then true else false end",
    "substr(status, 1, 2) = 'sh'",
    "concat(status, '-') = 'open-'",
    "d < current_date",
    "ordered_at < current_timestamp",
    "extract(year from d) = 2024",
]
# Each dialect's own syntax and functions.
OWN = {
    "spark": [
        "status rlike '^[a-z]'",
        "status ilike 'OPEN'",
        "cast(id as string) like '1%'",
        "d > date_sub(current_date(), 30)",
        "datediff(current_date(), d) < 4000",
        "year(d) = 2024 and month(d) between 1 and 12",
        "to_date(ordered_at) >= date '2024-01-01'",
        "ordered_at >= current_timestamp() - interval 30 days",
        "ordered_at >= timestamp '2024-07-01 00:00:00'",
        "date_trunc('month', ordered_at) >= timestamp '2024-07-01 00:00:00'",
        "nvl(note, 'x') = 'x'",
        "if(is_gift, 1, 0) = 1",
        "id % 2 = 0",
        "startswith(status, 's')",
        "date_format(d, 'yyyy') = '2024'",
    ],
    "postgres": [
        "status ~ '^[a-z]'",
        "status ~* 'OPEN'",
        "status ilike 'OPEN'",
        "id::text like '1%'",
        "cast(id as text) like '1%'",
        "ordered_at >= now() - interval '30 days'",
        "d > current_date - 30",
        "date_trunc('month', ordered_at) >= timestamp '2024-07-01'",
        "date_part('year', d) = 2024",
        "position('p' in status) > 0",
        "split_part(status, 'p', 1) = 'sh'",
        "to_char(d, 'YYYY') = '2024'",
        "is_gift is true",
        "id % 2 = 0",
        "ordered_at at time zone 'UTC' > timestamp '2024-01-01'",
    ],
    "duckdb": [
        "regexp_matches(status, '^[a-z]')",
        "status ilike 'OPEN'",
        "id::varchar like '1%'",
        "cast(id as varchar) like '1%'",
        "ordered_at >= now() - interval '30 days'",
        "d > current_date - interval '30 days'",
        "date_trunc('month', ordered_at) >= timestamp '2024-07-01'",
        "year(d) = 2024",
        "strftime(d, '%Y') = '2024'",
        "starts_with(status, 's')",
        "date_diff('day', d, current_date) < 4000",
        "ifnull(note, 'x') = 'x'",
        "id % 2 = 0",
        "is_gift is true",
        "date_part('year', d) = 2024",
    ],
    "mysql": [
        "status regexp '^[a-z]'",
        "d > curdate() - interval 30 day",
        "ordered_at >= now() - interval 30 day",
        "date_format(d, '%Y') = '2024'",
        "year(d) = 2024",
        "datediff(curdate(), d) < 4000",
        "ifnull(note, 'x') = 'x'",
        "if(is_gift, 1, 0) = 1",
        "cast(id as char) like '1%'",
        "locate('p', status) > 0",
        "id div 2 = 1",
        "id % 2 = 0",
        "is_gift is true",
        "date_add(d, interval 1 day) > d",
        "timestampdiff(day, ordered_at, now()) < 4000",
    ],
}

# The table of orders each engine's test creates, named filter_orders.
ROWS = [
    (1, "shipped", None, Decimal("12.50"), dt.date(2024, 7, 1), dt.datetime(2024, 7, 1, 9), True),
    (2, "open", "gift wrap", Decimal("-3.25"), dt.date(2023, 1, 5), dt.datetime(2023, 1, 5), False),
    (
        15,
        "cancelled",
        "",
        Decimal("999.99"),
        dt.date(2024, 12, 31),
        dt.datetime(2024, 12, 31),
        None,
    ),
]
COLUMNS = "id, status, note, amount, d, ordered_at, is_gift"
SQL_TABLE = (
    "create table filter_orders (id integer, status varchar(20), note varchar(40),"
    " amount decimal(12, 2), d date, ordered_at {timestamp}, is_gift boolean)"
)
VARIABLE = "PARITY_TEST_FILTER_ENGINE"


def failures(dialect: str, count) -> dict[str, str]:
    """The predicates of the dialect that its check or its engine refused, with the reason."""
    failed = {}
    for text in PORTABLE + OWN[dialect]:
        problem = predicate_problem(dialect, text)
        if problem:
            failed[text] = problem
            continue
        try:
            count(f"select count(*) from filter_orders as __parity_relation where ({text})")
        except Exception as error:  # the engine's own error, whatever its driver's class
            failed[text] = str(error).splitlines()[0]
    return failed


def remote_failures(dialect: str, url: str, monkeypatch) -> dict[str, str]:
    monkeypatch.setenv(VARIABLE, url)
    session = connect(dialect, VARIABLE, "filters", "source relation filter_orders")
    try:
        return failures(dialect, session.query)
    finally:
        session.close()
