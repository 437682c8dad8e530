"""A pair's `where` is exactly one SQL expression in its side's dialect, or it is refused with the
reason: nothing it holds can close the parenthesis the plan puts around it, add a statement, or
stand as a query."""

import pytest

from parity.predicates import SQLFLUFF_DIALECTS, predicate_problem

ACCEPTED = [
    "is_gift",
    "not is_gift",
    "order_id < 1000",
    "(order_id < 10) or (order_id > 20)",
    "status = 'a;b' and note is null",
    "customer_id in (select id from test_customers)",
    "exists (select 1 from t where t.id = order_id)",
    "order_id < 1000\n-- a comment on its own line\n",
]
REFUSED = [
    ("order_id < 1000; drop table orders", "it holds a ';'"),
    (
        "true)) as canonical) as canonical group by __parity_k0) as per_key;"
        " drop table public.canary; commit; select 1 from (select 1 as __parity_k0 from"
        " (select 1 from (select 1 where (true",
        "it holds a ';'",
    ),
    ("order_id > 0) or (1 = 1", "its parentheses do not balance"),
    ("order_id < (1000", "it is not one SQL expression"),
    ("order_id < 1000 -- a comment that swallows the parenthesis", "not one SQL expression"),
    ("order_id < 1000 union select 1", "it is not one SQL expression"),
    ("select 1", "it is a query, not a predicate"),
    ("((select true))", "it is a query, not a predicate"),
    ("with t as (select 1) select * from t", "it is a query, not a predicate"),
]


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
@pytest.mark.parametrize("text", ACCEPTED)
def test_one_expression_is_accepted_in_every_dialect(dialect, text):
    assert predicate_problem(dialect, text) is None


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_anything_else_is_refused_with_its_reason(dialect, text, reason):
    assert reason in (predicate_problem(dialect, text) or "")


def test_each_dialect_parses_its_own_syntax_only():
    assert predicate_problem("postgres", "status ~ '^[a-z]'") is None
    assert predicate_problem("spark", "status rlike '^[a-z]'") is None
    assert "not one SQL expression in the postgres dialect" in predicate_problem(
        "postgres", "status rlike '^[a-z]'"
    )


def test_a_dialect_parity_does_not_render_is_refused():
    assert predicate_problem("oracle", "1 = 1") == "parity cannot check SQL in the oracle dialect"
