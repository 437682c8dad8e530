"""The correction set: each difference beyond tolerance of the published run as the row to write,
delete or change on the side a pair corrects, with what that side held; nothing within
tolerance, no schema finding, and no sensitive value, ever."""

from __future__ import annotations

import json
from contextlib import ExitStack

import pytest

from tests.integration.correction_tables import (
    AN_HOUR_LATER,
    AT,
    NOON,
    SOURCE,
    TARGET,
    WIDE,
    model,
    sha,
)
from tests.integration.dbt_project_copy import error_text
from tests.integration.remote_tables import reconcile

# Order 7's amount in the source and in the target.
SEVEN = "-98765432109876543210.1234567891"
SEVEN_SINCE = "-98765432109876543210.6234567891"


def pair(name: str, **options) -> dict:
    return {
        "name": name,
        "source": {"ref": "correction_source"},
        "target": {"ref": "correction_target"},
        "key": ["id", "region"],
        "enforce_key": "warn",
        "tolerance": {"columns": {"amount": {"abs_tol": 0.01}}},
        "sensitive_columns": ["note"],
        **options,
    }


# A key both sides hold more than once, two pairs of whose rows differ in the same column; and a
# key the target lacks, two different rows of it in the source.
TANGLED_SOURCE = [
    (12, "us", "120.0000000000", "l", "n12", NOON),
    (12, "us", "121.0000000000", "m", "n12", NOON),
    (12, "us", "122.0000000000", "o", "n12", NOON),
    (13, "us", "130.0000000000", "p", "n13", NOON),
    (13, "us", "131.0000000000", "q", "n13", NOON),
]
TANGLED_TARGET = [
    (12, "us", "120.5000000000", "l", "n12", NOON),
    (12, "us", "121.5000000000", "m", "n12", NOON),
]

PAIRS = [
    pair("to_target"),
    pair("to_source", sync={"direction": "target_to_source"}, algorithm="hashdiff"),
    pair("hidden", sensitive=True, algorithm="hashdiff"),
    {**pair("same"), "target": {"ref": "correction_source"}},
    pair("roomy", sync={"max_corrections": 20}),
    pair("tangled", source={"ref": "tangled_source"}, target={"ref": "tangled_target"}),
]


@pytest.fixture(scope="module")
def published(scratch, spark):
    """The pairs reconciled and published, with the relations they compare."""
    with ExitStack() as files:
        files.enter_context(scratch.file("models/correction_source.sql", model(SOURCE)))
        files.enter_context(scratch.file("models/correction_target.sql", model(TARGET)))
        files.enter_context(scratch.file("models/tangled_source.sql", model(TANGLED_SOURCE)))
        files.enter_context(scratch.file("models/tangled_target.sql", model(TANGLED_TARGET)))
        built = scratch.dbt(
            "run",
            "--select",
            "correction_source correction_target tangled_source tangled_target",
            vars=scratch.demo_vars(),
        )
        assert built.success
        assert reconcile(scratch, PAIRS).success
        yield


@pytest.fixture(scope="module")
def corrections(published, scratch, spark):
    rows = spark.table(f"{scratch.schema}.parity_corrections").collect()
    history = spark.table(f"{scratch.schema}.parity_run_corrections").collect()
    by_pair: dict[str, dict] = {}
    for row in rows:
        by_pair.setdefault(row["pair_name"], {})[(row["key"], row["operation"])] = row.asDict()
    return by_pair, rows, history


def apply(scratch, spark, **request):
    """An apply of the published run's corrections; its rows of parity_applies, by pair."""
    ran = scratch.dbt(
        "run",
        "--select",
        "parity_applies",
        vars=scratch.demo_vars(parity={"pairs": PAIRS}, parity_apply=request),
    )
    assert ran.success, error_text(ran)
    rows = spark.table(f"{scratch.schema}.parity_applies").collect()
    latest = max(r["applied_at"] for r in rows)
    return {r["pair_name"]: r.asDict() for r in rows if r["applied_at"] == latest}


def key(id_: int, region: str) -> str:
    return json.dumps([str(id_), region], separators=(",", ":"))


def loaded(row: dict) -> tuple:
    """A correction as (copies, new values, values read at apply, before-image), JSON read."""
    return (
        row["copies"],
        None if row["new_values"] is None else json.loads(row["new_values"]),
        row["values_at_apply"],
        None if row["before_image"] is None else json.loads(row["before_image"]),
    )


def whole(amount: str, label: str | None, note: str | None, at: str = AT) -> dict:
    return {"amount": amount, "label": label, "note": note, "placed_at": at}


def test_the_target_gets_what_the_source_holds(corrections):
    found = corrections[0]["to_target"]
    assert {k: loaded(v) for k, v in found.items()} == {
        (key(2, "eu"), "update"): (1, {"label": "b"}, ["note"], {"label": "B2", "note": sha("x2")}),
        (key(3, "eu"), "update"): (1, {"label": None}, [], {"label": ""}),
        (key(4, "us"), "insert"): (
            1,
            {"amount": WIDE, "label": "ü☕", "placed_at": AT},
            ["note"],
            None,
        ),
        (key(5, "us"), "delete"): (1, None, [], whole("50.0000000000", "e", sha("n5"))),
        (key(7, "us"), "update"): (1, {"amount": SEVEN}, [], {"amount": SEVEN_SINCE}),
        (key(8, "us"), "delete"): (2, None, [], whole("80.0000000000", "h", sha("n8"))),
        (key(9, "eu"), "insert"): (
            2,
            {"amount": "90.0000000000", "label": "i", "placed_at": AT},
            ["note"],
            None,
        ),
        (key(10, "eu"), "update"): (1, {"placed_at": AT}, [], {"placed_at": AN_HOUR_LATER}),
        (key(11, "eu"), "insert"): (
            1,
            {"amount": "110.0000000000", "label": "k", "placed_at": AT},
            ["note"],
            None,
        ),
    }
    assert {v["direction"] for v in found.values()} == {"source_to_target"}
    # The keys one side holds more than once and both hold: applied over all their rows.
    assert {k for k, v in found.items() if v["whole_key"]} == {
        (key(8, "us"), "delete"),
        (key(11, "eu"), "insert"),
    }
    assert {v["corrected_relation"].split(".")[-1] for v in found.values()} == {"correction_target"}


def test_the_source_gets_what_the_target_holds_when_the_pair_says_so(corrections):
    found = corrections[0]["to_source"]
    assert {k: loaded(v) for k, v in found.items()} == {
        (key(2, "eu"), "update"): (1, {"label": "B2"}, ["note"], {"label": "b", "note": sha("n2")}),
        (key(3, "eu"), "update"): (1, {"label": ""}, [], {"label": None}),
        (key(4, "us"), "delete"): (1, None, [], whole(WIDE, "ü☕", sha("n4"))),
        (key(5, "us"), "insert"): (
            1,
            {"amount": "50.0000000000", "label": "e", "placed_at": AT},
            ["note"],
            None,
        ),
        (key(7, "us"), "update"): (1, {"amount": SEVEN_SINCE}, [], {"amount": SEVEN}),
        (key(8, "us"), "insert"): (
            2,
            {"amount": "80.0000000000", "label": "h", "placed_at": AT},
            ["note"],
            None,
        ),
        (key(9, "eu"), "delete"): (2, None, [], whole("90.0000000000", "i", None)),
        (key(10, "eu"), "update"): (1, {"placed_at": AN_HOUR_LATER}, [], {"placed_at": AT}),
        (key(11, "eu"), "delete"): (1, None, [], whole("110.0000000000", "k", sha("n11"))),
    }
    assert {v["corrected_relation"].split(".")[-1] for v in found.values()} == {"correction_source"}
    assert {k for k, v in found.items() if v["whole_key"]} == {
        (key(8, "us"), "insert"),
        (key(11, "eu"), "delete"),
    }


def test_rows_of_a_key_held_more_than_once_paired_twice_have_no_images(corrections):
    """Which of the key's values belong together is not published: the update says so by
    having none, and the apply leaves the key alone."""
    found = {k: v for k, v in corrections[0]["tangled"].items() if k[0] == key(12, "us")}
    assert {k: loaded(v) for k, v in found.items()} == {
        (key(12, "us"), "update"): (1, None, [], None),
        (key(12, "us"), "insert"): (
            1,
            {"amount": "122.0000000000", "label": "o", "placed_at": AT},
            ["note"],
            None,
        ),
    }
    assert all(v["whole_key"] for v in found.values())


def test_different_rows_of_a_key_one_side_lacks_are_applied_together(corrections):
    """Each row is one insert, and the key is decided whole: inserting one row must not make
    the other a conflict, nor a second apply insert them again."""
    rows = [r for r in corrections[1] if r["pair_name"] == "tangled" and r["key"] == key(13, "us")]
    assert sorted((r["operation"], json.loads(r["new_values"])["label"]) for r in rows) == [
        ("insert", "p"),
        ("insert", "q"),
    ]
    assert all(r["whole_key"] for r in rows)


def test_a_sensitive_pair_corrects_without_a_value_or_key_in_sight(corrections):
    found = corrections[0]["hidden"]
    assert sorted(op for _, op in found) == sorted(["update"] * 4 + ["insert"] * 3 + ["delete"] * 2)
    for (hashed_key, operation), row in found.items():
        assert hashed_key.startswith("sha256:")
        if operation == "insert":
            assert (row["new_values"], row["values_at_apply"]) == (None, ["*"])
        elif operation == "update":
            assert json.loads(row["new_values"]) == {}
            assert set(row["values_at_apply"]) == set(json.loads(row["before_image"]))
            assert all(v.startswith("sha256:") for v in json.loads(row["before_image"]).values())
        else:
            assert row["before_image"].startswith("sha256:")
    published = " ".join(str(v) for row in found.values() for v in row.values())
    for value in ("B2", "ü☕", SEVEN_SINCE, "x2", "n5", AN_HOUR_LATER, '"eu"'):
        assert value not in published


def test_a_pair_in_parity_has_nothing_to_correct(corrections):
    assert "same" not in corrections[0]


def test_the_history_holds_the_published_runs_corrections(corrections):
    _, rows, history = corrections
    assert rows and all(row in history for row in rows)


def test_a_dry_run_counts_what_an_apply_would_change_and_writes_nothing(published, scratch, spark):
    before = spark.table(f"{scratch.schema}.correction_target").collect()
    done = apply(scratch, spark, pairs=["roomy", "to_target"])
    assert {name: (r["mode"], r["outcome"]) for name, r in done.items()} == {
        "roomy": ("dry_run", "planned"),
        # 10 rows to correct of 10: more than 1% of them.
        "to_target": ("dry_run", "refused"),
    }
    roomy = done["roomy"]
    assert (roomy["inserts"], roomy["deletes"], roomy["updates"], roomy["conflicts"]) == (
        4,
        3,
        4,
        None,
    )
    assert roomy["reason"] == "" and roomy["corrected_relation"].endswith("correction_target")
    assert done["to_target"]["reason"] == (
        "11 rows to correct, more than its max_corrections (1%: 0.11 rows): set force to apply them"
    )
    assert sorted(spark.table(f"{scratch.schema}.correction_target").collect()) == sorted(before)


def test_force_passes_max_corrections_and_nothing_else(published, scratch, spark):
    done = apply(scratch, spark, pairs=["to_target", "hidden", "same"], force=True)
    assert (done["to_target"]["outcome"], done["to_target"]["forced"]) == ("planned", True)
    assert done["hidden"]["outcome"] == "refused"
    assert done["hidden"]["reason"].startswith("its key is sensitive")
    assert (done["same"]["outcome"], done["same"]["inserts"] + done["same"]["updates"]) == (
        "planned",
        0,
    )


def test_no_build_without_the_var_has_a_model_that_writes(published, scratch):
    listed = scratch.dbt(
        "ls", "--resource-type", "model", vars=scratch.demo_vars(parity={"pairs": PAIRS})
    )
    assert listed.success
    models = {name.split(".")[-1] for name in listed.result}
    assert "parity_corrections" in models and "parity_applies" not in models


def test_a_pair_the_project_does_not_declare_fails_the_apply(published, scratch):
    ran = scratch.dbt(
        "run",
        "--select",
        "parity_applies",
        vars=scratch.demo_vars(parity={"pairs": PAIRS}, parity_apply={"pair": "nowhere"}),
    )
    assert not ran.success
    assert "parity_apply: no pair named 'nowhere' is declared (pairs: hidden," in error_text(ran)
