"""A MySQL query runs only when it starts with `select` and holds no comment and no `into` outside
quotes: read by its tokens, so that what is quoted is data and what is not cannot hide."""

from __future__ import annotations

import pytest

from parity.sides.mysql_guard import COMMENT, INTO, NOT_SELECT, UNTERMINATED, refusal
from tests.conftest import REPO

REFUSED = [
    ("select * from t into/**/outfile '/tmp/x'", COMMENT),
    ("select 1 /*!into*/ /*!outfile '/tmp/x'*/", COMMENT),
    ("select 1 from t where (1=0 /*!) or (1=1 */)", COMMENT),
    ("select /*+ max_execution_time(0) */ 1", COMMENT),
    ("select 1 from t # comment", COMMENT),
    ("select 1 from t -- x", COMMENT),
    ("select 1 from t --", COMMENT),
    ("select 1--1", COMMENT),
    ("select 1 from t where x = 'a' /* 'b */", COMMENT),
    ("select * from t into outfile '/tmp/x'", INTO),
    ("select 1 into\n dumpfile '/tmp/x'", INTO),
    ("select 1 into @a", INTO),
    ("select 1 INTO @a", INTO),
    ("select 1e5into @a", INTO),
    ("select 1.into @a", INTO),
    ("select `a` from t into outfile 'x'", INTO),
    # A backslash escapes the quote: the string goes on, and so does the guard.
    ("select 'a\\' into outfile' into outfile '/tmp/x'", INTO),
    ("select 'it''s' into outfile '/tmp/x'", INTO),
    ("select 'unterminated", UNTERMINATED),
    ("select `a", UNTERMINATED),
    ("/*! drop table canary */ select 1", NOT_SELECT),
    ("-- x\nselect 1", NOT_SELECT),
    ("drop table canary", NOT_SELECT),
    ("set session transaction read write", NOT_SELECT),
    ("selectinto from t", NOT_SELECT),
    ("(select 1)", NOT_SELECT),
    ("with x as (select 1) select * from x", NOT_SELECT),
    ("", NOT_SELECT),
]

ACCEPTED = [
    "select 1",
    "  SELECT\n1",
    "select 'into /* -- # */' from t",
    'select "into", "/*!", "it""s", "a\\"into" from t',
    "select `into`, `a``into`, `/*` from `into`",
    "select 'a\\'b -- c' from t",
    "select point_into, into_x, intox, x.`into` from t",
    "select 1 - -1, 2 * 3 / 4, a->'$.x' from t where b like '%into%'",
    "select 'é', éinto from t",
]


@pytest.mark.parametrize(("sql", "reason"), REFUSED)
def test_a_query_with_a_comment_or_into_or_not_a_select_is_refused(sql, reason):
    assert refusal(sql) == reason


@pytest.mark.parametrize("sql", ACCEPTED)
def test_quoted_text_and_identifiers_are_data(sql):
    assert refusal(sql) is None


def test_parity_own_mysql_select_passes():
    """The canonical select as rendered (tests/golden), less the line naming sqlfluff's
    dialect, which parity never sends."""
    golden = (REPO / "tests/golden/mysql.sql.golden").read_text()
    header, sql = golden.split("\n", 1)
    assert header.startswith("-- sqlfluff:") and refusal(sql) is None
