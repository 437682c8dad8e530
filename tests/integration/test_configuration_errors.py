"""Bad configuration fails with an error that names the pair and the problem, and writes nothing;
a pair whose relations do not hold what it names is planned as its problem, alone."""

from __future__ import annotations

from typing import Any

import pytest
from dbt.cli.main import dbtRunnerResult
from dbt.contracts.graph.manifest import Manifest

from tests.integration.dbt_project_copy import error_text
from tests.integration.run_results import pair_error

GOOD = {
    "name": "p",
    "source": {"ref": "legacy_orders"},
    "target": {"ref": "lakehouse_orders"},
    "key": "order_id",
}


def plan(
    scratch, pairs: list[dict], manifest: Manifest | None = None, logged: list[str] | None = None
) -> dbtRunnerResult:
    """Introspects and plans the pairs, on the given manifest if any (else parsing the project
    with the pairs); ``logged`` collects what the plan logs."""
    return scratch.dbt(
        "run",
        "--select",
        "parity_remote_relations parity_remote_columns parity_plan",
        vars=scratch.demo_vars(parity={"pairs": pairs}),
        manifest=manifest,
        logged=logged,
    )


@pytest.fixture(scope="module")
def parsed(scratch) -> Manifest:
    """The project parsed once, with a good pair: parsing is most of what a bad configuration's
    run costs. Its models validate the pairs again when they compile, with the vars of the
    invocation that runs them, so each case below fails with its own message on this manifest."""
    result = scratch.dbt("parse", vars=scratch.demo_vars(parity={"pairs": [GOOD]}))
    assert result.success, error_text(result)
    return result.result


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([{**GOOD, "bisection": 3}], "parity pair 'p': unknown option 'bisection'"),
        (
            [{**GOOD, "retries": -1}],
            "parity pair 'p': retries must be a whole number of at least 0, not '-1'",
        ),
        (
            [{**GOOD, "retries": 2.5}],
            "parity pair 'p': retries must be a whole number of at least 0, not '2.5'",
        ),
        (
            [{**GOOD, "retry_seconds": "soon"}],
            "parity pair 'p': retry_seconds must be a number of seconds above 0, not 'soon'",
        ),
        ([GOOD, GOOD], "parity pair 'p': duplicate pair name"),
        (
            [{**GOOD, "algorithm": "fastest"}],
            "parity pair 'p': algorithm must be auto, hashdiff or joindiff",
        ),
        (
            [{**GOOD, "bisection_threshold": 0}],
            "parity pair 'p': bisection_threshold must be a whole number",
        ),
        (
            [{**GOOD, "bisection_factor": 2**64}],
            "parity pair 'p': bisection_factor must be a whole number of at least 2 and at most"
            " 65536",
        ),
        (
            [{**GOOD, "target": "lakehouse_orders"}],
            "parity pair 'p': 'target' must be {ref: model}",
        ),
        ([{**GOOD, "source": {"ref": "no_such_model"}}], "no_such_model"),
        (
            [{**GOOD, "tolerance": {"defaults": {"numeric": {"rel_tol": 1}}}}],
            "parity pair 'p': tolerance for type family 'numeric': rel_tol must be a number from"
            " 0 up to (not including) 1, not '1'",
        ),
        (
            [{**GOOD, "tolerance": {"columns": {"amount": {"abs_tol": "-0.5"}}}}],
            "parity pair 'p': tolerance for column 'amount': abs_tol must be a number of at"
            " least 0",
        ),
        (
            [{**GOOD, "tolerance": {"columns": {"amount": {"abs_tol": float("inf")}}}}],
            "parity pair 'p': tolerance for column 'amount': abs_tol must be a number of at"
            " least 0, not 'inf'",
        ),
        (
            [{**GOOD, "tolerance": {"defaults": {"numeric": {"temporal_tolerance_ms": 1}}}}],
            "parity pair 'p': tolerance for type family 'numeric': unknown option"
            " 'temporal_tolerance_ms' (allowed: abs_tol, rel_tol, rel_floor)",
        ),
        (
            [{**GOOD, "tolerance": {"defaults": {"timestamp": {"temporal_grid": "round"}}}}],
            "parity pair 'p': tolerance for type family 'timestamp': temporal_grid must be"
            " nearest or floor, not 'round'",
        ),
        (
            [{**GOOD, "tolerant_checksums": "yes"}],
            "parity pair 'p': 'tolerant_checksums' must be true or false, not 'yes'",
        ),
        (
            [{**GOOD, "where": {"source": "order_id > 0", "sink": "x"}}],
            "parity pair 'p': 'where' must be a SQL predicate, or {source: predicate, target:",
        ),
        # A where is one expression in its side's dialect, refused in the plan otherwise.
        (
            [{**GOOD, "where": "order_id < 1000; drop table lakehouse_orders"}],
            "parity pair 'p': the source side's where is refused (spark): it holds a ';'",
        ),
        (
            [{**GOOD, "where": {"source": "order_id > 0", "target": "order_id < (1000"}}],
            "parity pair 'p': the target side's where is refused (spark): it is not one SQL"
            " expression in the spark dialect",
        ),
        (
            [{**GOOD, "where": {"source": "order_id > 0) or (1 = 1"}}],
            "parity pair 'p': the source side's where is refused (spark): its parentheses do not"
            " balance",
        ),
        (
            [{**GOOD, "where": "select order_id from lakehouse_orders"}],
            "parity pair 'p': the source side's where is refused (spark): it is a query, not a"
            " predicate",
        ),
        (
            [{**GOOD, "exclude_columns": ["note"], "columns": ["status"]}],
            "parity pair 'p': give 'columns' or 'exclude_columns', not both",
        ),
        (
            [{**GOOD, "exclude_columns": ["order_id"]}],
            "parity pair 'p': key column 'order_id' cannot be excluded",
        ),
        (
            [{**GOOD, "time_window": {"column": "ordered_at", "max_age": "a fortnight"}}],
            "parity pair 'p': time_window.max_age must read like '36 hours'",
        ),
        (
            [{**GOOD, "critical_drift_ratio": 0}],
            "parity pair 'p': critical_drift_ratio must be a number above 0 and at most 1",
        ),
        (
            [{**GOOD, "max_differences": 0}],
            "parity pair 'p': max_differences must be a whole number of at least 1, not '0'",
        ),
        (
            [{**GOOD, "within_tolerance_examples": -1}],
            "parity pair 'p': within_tolerance_examples (or the var"
            " parity_within_tolerance_examples, its default) must be a whole number from 0 to"
            " 100000 or 'all', not '-1'",
        ),
        (
            [{**GOOD, "max_row_drift_pct": -1}],
            "parity pair 'p': max_row_drift_pct must be a percentage from 0 to 100",
        ),
        (
            [{**GOOD, "compatibility": "sideways"}],
            "parity pair 'p': compatibility must be none, backward, forward or full, not"
            " 'sideways'",
        ),
        (
            [{**GOOD, "enforce_key": True}],
            "parity pair 'p': enforce_key must be error, warn or off, not 'True'",
        ),
        (
            [{**GOOD, "column_presence_tolerance": -1}],
            "parity pair 'p': column_presence_tolerance must be a whole number of at least 0,"
            " not '-1'",
        ),
        (
            [{**GOOD, "column_presence_tolerance": "two"}],
            "parity pair 'p': column_presence_tolerance must be a whole number",
        ),
        (
            [{**GOOD, "sync": {"direction": "both_ways"}}],
            "parity pair 'p': sync direction must be source_to_target or target_to_source, not"
            " 'both_ways'",
        ),
        (
            [{**GOOD, "sync": {"apply": True}}],
            "parity pair 'p': unknown sync option 'apply' (allowed: direction, max_corrections,"
            " apply_connection_env)",
        ),
        (
            [{**GOOD, "sync": {"max_corrections": "150%"}}],
            "parity pair 'p': sync max_corrections must be a whole number of at least 0 or a"
            " percentage from 0% to 100%, not '150%'",
        ),
        ([{**GOOD, "sync": "target"}], "parity pair 'p': 'sync' must be a mapping of direction"),
    ],
)
def test_bad_configuration_names_pair_and_problem(scratch, parsed, pairs, message):
    result = plan(scratch, pairs, parsed)
    assert not result.success
    assert message in error_text(result)


def test_bad_configuration_fails_the_parse(scratch):
    """As a user meets it: the project parsed with the bad pairs fails before anything runs."""
    result = plan(scratch, [{**GOOD, "bisection": 3}])
    assert not result.success and result.result is None
    assert "parity pair 'p': unknown option 'bisection'" in error_text(result)


# Pairs whose relations lack what they name, each with what its problem says: planned in one
# run, beside a good pair (a plan run is about the cost of a case). A typo in any named column
# is the pair's problem, naming the option, the name and the side, with the relation's columns.
SOURCE_LACKS = "which the source relation"
TARGET_LACKS = "which the target relation"
LACKING = {
    "key_absent": ({"key": "nope"}, [f"key names column 'nope', {SOURCE_LACKS}"]),
    "column_absent": (
        {"columns": ["status", "gone"]},
        [f"columns names column 'gone', {SOURCE_LACKS}"],
    ),
    "rename_target_absent": (
        {"renames": {"status": "state"}},
        [f"renames names column 'state', {TARGET_LACKS}"],
    ),
    "rename_source_absent": (
        {"renames": {"custmer_id": "customer_id"}},
        [f"renames names column 'custmer_id', {SOURCE_LACKS}"],
    ),
    "exclude_absent": ({"exclude_columns": ["notes"]}, ["exclude_columns names column 'notes'"]),
    "tolerance_absent": (
        {"tolerance": {"columns": {"gone": {"abs_tol": 1}}}},
        [f"tolerance names column 'gone', {SOURCE_LACKS}"],
    ),
    "sensitive_absent": (
        {"sensitive_columns": ["secret"]},
        [f"sensitive_columns names column 'secret', {SOURCE_LACKS}"],
    ),
    "window_absent": (
        {"time_window": {"column": "updated_at", "min_age": "1 hour"}},
        [f"time_window names column 'updated_at', {SOURCE_LACKS}"],
    ),
    # Every name a pair gets wrong at once, each side once with its columns.
    "several_absent": (
        {"key": ["order_id", "line"], "renames": {"status": "state"}, "exclude_columns": ["x"]},
        [
            "key names column 'line' and exclude_columns names column 'x', which the source"
            " relation",
            f"; renames names column 'state', {TARGET_LACKS}",
        ],
    ),
    "tolerance_on_key": (
        {"tolerance": {"columns": {"order_id": {"abs_tol": 1}}}},
        ["tolerance names column 'order_id', which the pair does not compare"],
    ),
    "sensitive_excluded": (
        {"exclude_columns": ["note"], "sensitive_columns": ["note"]},
        ["sensitive_columns names column 'note', which the pair neither keys on nor compares"],
    ),
    # An option or a window that does not fit the column's type: the pair's problem too.
    "tolerance_off_type": (
        {
            "tolerance": {
                "columns": {"note": {"temporal_tolerance_ms": 5}, "is_gift": {"abs_tol": 1}}
            }
        },
        [
            "tolerance for column 'is_gift': abs_tol does not apply to a boolean column (it is"
            " compared exactly); tolerance for column 'note': temporal_tolerance_ms does not"
            " apply to a string column",
        ],
    ),
    "window_off_type": (
        {"time_window": {"column": "status", "min_age": "1 hour"}},
        [
            "time_window column 'status' is string in the source relation: it must be a"
            " timestamp or a date",
        ],
    ),
    "key_renamed_across_types": (
        {"renames": {"order_id": "ship_date"}},
        ["key column 'order_id': bigint (spark) and date (spark) cannot be compared"],
    ),
}


@pytest.fixture(scope="module")
def lacking(scratch, parsed, spark) -> dict[str, Any]:
    """Each pair's problem as the one plan of them all says it, by pair name ("" for a pair
    planned), and what the plan logged."""
    pairs = [{**GOOD, "name": name, **options} for name, (options, _) in LACKING.items()]
    other = {**GOOD, "name": "other", "enforce_key": "warn"}
    logged: list[str] = []
    result = plan(scratch, [*pairs, other], parsed, logged)
    assert result.success, error_text(result)
    rows = spark.sql(f"select pair_name, problem from {scratch.schema}.parity_plan").collect()
    return {"problems": {row["pair_name"]: row["problem"] for row in rows}, "logged": logged}


@pytest.mark.parametrize("name", LACKING)
def test_columns_the_relations_lack_are_the_pairs_problem(lacking, name):
    problem = lacking["problems"][name]
    for said in LACKING[name][1]:
        assert said in problem, problem
    if "does not have" in problem:  # with the relation's columns
        assert "(its columns: order_id, customer_id, status, amount" in problem
    # Said by the plan as it finds it, a warning naming the pair.
    assert f"parity pair '{name}': not planned: {problem}" in lacking["logged"]
    # Its problem is its own: the good pair beside it is planned.
    assert lacking["problems"]["other"] == ""


def test_key_problems_make_the_pair_an_error(scratch, spark):
    scratch.write(
        "models/orders_with_null_key.sql",
        "select * from {{ ref('legacy_orders') }}\n"
        "union all\n"
        "select cast(null as bigint), customer_id, status, amount, fx_rate, discount, is_gift,"
        " ordered_at, ship_date, note\n"
        "from {{ ref('legacy_orders') }} where order_id = 5\n",
    )
    assert scratch.dbt("run", "--select", "orders_with_null_key", vars=scratch.demo_vars()).success
    # Each pair an error of its own in one run: a NULL key, and (by default) a duplicate key,
    # each naming side, relation, key and count.
    null_key = {**GOOD, "name": "key_with_null", "target": {"ref": "orders_with_null_key"}}
    duplicated = {**GOOD, "name": "key_duplicated"}
    result = scratch.dbt(
        "run",
        "--select",
        "parity_remote_relations+",
        vars=scratch.demo_vars(parity={"pairs": [null_key, duplicated]}),
        parse_once=True,
    )
    assert result.success, error_text(result)
    failure = pair_error(spark, scratch.schema, "key_with_null")
    assert "parity pair 'key_with_null': target relation" in failure
    assert "1 rows with a NULL in key column(s) order_id" in failure
    assert (
        f"parity pair 'key_duplicated': target relation {scratch.schema}.lakehouse_orders (spark)"
        " has 1 key values held by more than one row in key column(s) order_id"
    ) in pair_error(spark, scratch.schema, "key_duplicated")
