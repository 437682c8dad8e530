"""A pair's `where` is a filter in its side's dialect, or it is refused with the reason: exactly
one SQL expression (nothing can close the parenthesis the plan puts around it, add a statement,
stand as a query or hide in a comment), holding only what the allow-list admits."""

import re

import pytest

from parity.predicates import SQLFLUFF_DIALECTS, predicate_problem
from parity.values.filter_functions import COMMON, DIALECT
from tests.conftest import REPO
from tests.filter_predicates import OWN, PORTABLE

ACCEPTED = [
    "is_gift",
    "not is_gift",
    "order_id < 1000",
    "(order_id < 10) or (order_id > 20)",
    "status = 'a;b' and note is null",
    "status = '/* not a comment */ -- nor this'",
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
    ("order_id < 1000 -- a comment that swallows the parenthesis", "it holds a comment"),
    ("order_id < 1000\n-- a comment on its own line\n", "it holds a comment"),
    ("order_id < 1000 /* a comment */", "it holds a comment"),
    ("order_id < 1000 union select 1", "it is not one SQL expression"),
    ("select 1", "it is a query, not a predicate"),
    ("((select true))", "it is a query, not a predicate"),
    ("with t as (select 1) select * from t", "it is a query, not a predicate"),
    ("customer_id in (select id from test_customers)", "it holds a subquery"),
    ("exists (select 1 from t where t.id = order_id)", "it holds a subquery"),
    ("(select max(id) from t) > order_id", "it holds a subquery"),
    ("no_such_function(order_id) > 0", "it calls no_such_function, which is not one of"),
    ("sum(order_id) > 0", "it calls sum, which is not one of"),
]
# Each probe of issue 47, and its close variants, by dialect: what the check refuses first.
PROBES = {
    "postgres": [
        ("dblink_exec('dbname=postgres', 'insert into canary values (1)') = 'OK'", "dblink_exec"),
        ("dblink('dbname=postgres', 'select 1') is not null", "dblink"),
        ("lo_export(16384, '/tmp/parity_probe') > 0", "lo_export"),
        ("pg_terminate_backend(1234)", "pg_terminate_backend"),
        ("pg_cancel_backend(1234)", "pg_cancel_backend"),
        ("pg_sleep(10) is null", "pg_sleep"),
        ("pg_read_file('/etc/passwd') is not null", "pg_read_file"),
        ("current_setting('data_directory') is not null", "current_setting"),
        ("set_config('transaction_read_only', 'off', true) is not null", "set_config"),
        ("nextval('seq') > 0", "nextval"),
        ("query_to_xml('select 1', true, true, '') is not null", "query_to_xml"),
        ("pg_catalog.lower(status) = 'a'", "pg_catalog.lower: a filter calls a function by its"),
        ('"pg_sleep"(1) is null', '"pg_sleep"'),
        ("status = current_user", "the word current_user"),
        ("cast(note as regclass) is not null", "it casts to regclass, which reads the catalog"),
        ("note::regproc is not null", "it casts to regproc"),
    ],
    "spark": [
        ("reflect('org.apache.hadoop.fs.FileUtil', 'symLink', '/a', '/b') = 0", "reflect"),
        ("reflect('org.apache.hadoop.fs.FileUtil', 'chmod', '/a', '777') = 0", "reflect"),
        ("java_method('java.lang.System', 'getenv', 'PG_URL') is not null", "java_method"),
        ("raise_error(reflect('java.lang.System', 'getenv', 'PG_URL')) is null", "raise_error"),
        ("raise_error(note) is null", "raise_error"),
        ("assert_true(order_id > 0) is null", "assert_true"),
        ("input_file_name() like '%'", "input_file_name"),
        ("current_user() = 'a'", "current_user"),
        ("transform(array(1), x -> x) is not null", "transform"),
        ("order_id in (select id from t)", "it holds a subquery"),
    ],
    "duckdb": [
        ("read_text('/proc/self/environ') is not null", "read_text"),
        ("(select content from read_text('/proc/self/environ')) is not null", "subquery"),
        ("(select count(*) from read_csv('/etc/passwd')) > 0", "subquery"),
        ("(select count(*) from read_parquet('s3://bucket/x.parquet')) > 0", "subquery"),
        ("(select count(*) from 'text.csv') > 0", "subquery"),
        ("(select count(*) from query('select 1')) > 0", "subquery"),
        ("getenv('HOME') is not null", "getenv"),
        ("current_setting('threads') > 0", "current_setting"),
        ("status.upper() = 'A'", "status.upper: a filter calls a function by its"),
        ("'/etc/passwd'.read_text() is not null", "not one SQL expression"),
    ],
    "mysql": [
        ("1=0 /*!) or (1=1 */", "it holds a comment"),
        ("1=0 /*!) union all select 1, 2, 3 from dual where (1=1 */", "it holds a comment"),
        ("1=1 /*+ max_execution_time(1) */", "it holds a comment"),
        ("1=1 # a comment", "it holds a comment"),
        ("load_file('/etc/passwd') is not null", "load_file"),
        ("sleep(10) = 0", "sleep"),
        ("benchmark(100000000, md5('a')) = 0", "benchmark"),
        ("get_lock('parity', 10) = 1", "get_lock"),
        ("order_id in (select id from mysql.user)", "it holds a subquery"),
        ("@@datadir is not null", "the word @@datadir"),
        ("status = user()", "user"),
    ],
}


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
@pytest.mark.parametrize("text", ACCEPTED + PORTABLE)
def test_a_filter_is_accepted_in_every_dialect(dialect, text):
    assert predicate_problem(dialect, text) is None


@pytest.mark.parametrize(
    ("dialect", "text"),
    [(d, text) for d, texts in OWN.items() for text in texts]
    + [("databricks", text) for text in OWN["spark"]],
)
def test_each_dialect_accepts_its_own_filters(dialect, text):
    assert predicate_problem(dialect, text) is None


@pytest.mark.parametrize("dialect", sorted(SQLFLUFF_DIALECTS))
@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_anything_else_is_refused_with_its_reason(dialect, text, reason):
    assert reason in (predicate_problem(dialect, text) or "")


@pytest.mark.parametrize(
    ("dialect", "text", "named"),
    [(d, text, named) for d, probes in PROBES.items() for text, named in probes],
)
def test_every_probe_is_refused_naming_what_it_holds(dialect, text, named):
    assert named in (predicate_problem(dialect, text) or "")


def test_each_dialect_parses_its_own_syntax_only():
    assert predicate_problem("postgres", "status ~ '^[a-z]'") is None
    assert predicate_problem("spark", "status rlike '^[a-z]'") is None
    assert "not one SQL expression in the postgres dialect" in predicate_problem(
        "postgres", "status rlike '^[a-z]'"
    )


def test_a_project_adds_functions_to_a_dialect():
    assert "it calls my_mask" in predicate_problem("postgres", "my_mask(note) = 'x'")
    assert predicate_problem("postgres", "my_mask(note) = 'x'", frozenset({"my_mask"})) is None


def test_trusted_filters_skip_the_allow_list_but_stay_one_expression():
    subquery = "customer_id in (select id from test_customers)"
    assert predicate_problem("postgres", subquery, trusted=True) is None
    for text in ("1=1; drop table t", "1=0 /*!) or (1=1 */", "order_id > 0) or (1 = 1"):
        assert predicate_problem("mysql", text, trusted=True) is not None


def test_a_dialect_parity_does_not_render_is_refused():
    assert predicate_problem("oracle", "1 = 1") == "parity cannot check SQL in the oracle dialect"


def test_the_readme_lists_each_dialect_s_functions():
    """README.md's table of filter functions is the lists' own: one row for the common ones,
    one per dialect (Spark's and Databricks' share a row)."""
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("### Filters") : readme.index("### Files as relations")]
    rows = re.findall(r"^\| (`[^|]+`) \| ([^|]+) \|$", section, re.M)
    listed = {}
    for dialects, names in rows:
        for dialect in re.findall(r"`(\w+)`", dialects):
            listed[dialect] = set(re.findall(r"`(\w+)`", names))
    assert listed == {"common": set(COMMON)} | {d: set(f) for d, f in DIALECT.items()}


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("amount >> 3 and", "at position 13 of the where: Found unparsable section: 'and'"),
        ("a = 1\nand b = = 2", "at line 2, position 7 of the where: Found unparsable section"),
    ],
)
def test_a_parser_position_points_into_the_users_text(text, where):
    problem = predicate_problem("postgres", text)
    assert f"not one SQL expression in the postgres dialect ({where}" in problem, problem
    assert "Line " not in problem
