"""A tolerance matrix, evaluated in Spark on the rows that differ, by both algorithms and across
engines: each drift inside its column's tolerance is kept as within_tolerance with its delta and
fails nothing; each drift beyond it is a value_mismatch; the generic tests give the verdicts.
Every value within tolerance is counted, and a few examples of each column's are listed (the
pair's within_tolerance_examples), every difference beyond it always."""

from __future__ import annotations

import pytest

from tests.integration.remote_tables import reconcile
from tests.integration.run_results import by_pair

# 2^60: a bigint whose +1 a trip through double would lose.
SERIAL = 2**60

TOLERANCE_SOURCE = f"""
select *, cast(order_id as bigint) + {SERIAL} as serial from {{{{ ref('legacy_orders') }}}}
"""

# Each change: (order, column, SQL of the new value, within the tolerance below?).
CHANGES = [
    (10, "amount", "amount + 0.01", True),
    (11, "amount", "amount + 0.02", False),
    (20, "discount", "discount * (1 + 1e-12)", True),
    (21, "discount", "discount * (1 + 1e-6)", False),
    (30, "ordered_at", "ordered_at + interval 400 microseconds", True),
    (31, "ordered_at", "ordered_at + interval 2 milliseconds", False),
    (40, "ship_date", "date_add(ship_date, 1)", True),
    (41, "ship_date", "date_add(ship_date, 2)", False),
    (50, "status", "upper(status)", True),
    (51, "status", "concat(' ', status, '\\t')", True),
    (52, "status", "'bogus'", False),
    (66, "note", "''", True),  # NULL in the source
    (70, "customer_id", "customer_id + 1", False),
    (80, "serial", "serial + 1", False),
    (90, "fx_rate", "fx_rate + 0.00000001", True),
    (91, "fx_rate", "fx_rate + 0.00000002", False),
]
COLUMNS = [
    "customer_id",
    "status",
    "amount",
    "fx_rate",
    "discount",
    "is_gift",
    "ordered_at",
    "ship_date",
    "note",
    "serial",
]

TOLERANCE = {
    "defaults": {
        # As YAML reads 1e-9: text. Both spellings are numbers to parity.
        "numeric": {"rel_tol": "1e-9"},
        "timestamp": {"temporal_tolerance_ms": 1},
        "date": {"temporal_tolerance_days": 1},
        "string": {"trim": True, "case_insensitive": True, "empty_equals_null": True},
    },
    "columns": {
        "amount": {"abs_tol": 0.01},
        "fx_rate": {"abs_tol": 0.00000001},
        "serial": {"abs_tol": 0.5, "rel_tol": 0},
    },
}

# For the relations without `serial`: the legacy copies in PostgreSQL and DuckDB.
WITHOUT_SERIAL = {
    **TOLERANCE,
    "columns": {k: v for k, v in TOLERANCE["columns"].items() if k != "serial"},
}

TESTS = """
version: 2
models:
  - name: tolerance_target
    data_tests:
      - parity.no_differences:
          name: no_differences_beyond_tolerance_fails
          arguments: {pair: tol_joindiff}
      - parity.in_parity:
          name: in_parity_fails
          arguments: {pair: tol_joindiff}
      - parity.column_drift_below:
          name: amount_drift_fails
          arguments: {pair: tol_joindiff, column: amount, max_pct: 0.01}
      - parity.column_drift_below:
          name: status_drift_passes
          arguments: {pair: tol_joindiff, column: status, max_pct: 0.1}
      - parity.column_drift_below:
          name: discount_relative_error_fails
          arguments: {pair: tol_joindiff, column: discount, max_relative_error: 1.0e-9}
      - parity.row_drift_below:
          name: row_drift_passes
          arguments: {pair: tol_joindiff, max_pct: 0}
      - parity.row_drift_below:
          name: row_drift_fails
          arguments: {pair: tol_lakehouse, max_pct: 0.01}
  - name: tolerance_within
    data_tests:
      - parity.no_differences:
          name: no_differences_within_tolerance_passes
          arguments: {pair: tol_within}
      - parity.in_parity:
          name: in_parity_passes
          arguments: {pair: tol_within}
      - parity.column_drift_below:
          name: discount_relative_error_passes
          arguments: {pair: tol_within, column: discount, max_relative_error: 1.0e-9}
      # Its one value within tolerance (1e-12 relative) is counted, not listed.
      - parity.column_drift_below:
          name: unlisted_relative_error_fails
          arguments: {pair: tol_within_unlisted, column: discount, max_relative_error: 1.0e-13}
"""


def drifted(changes) -> str:
    assignments = {
        column: " ".join(
            f"when order_id = {order} then {sql}"
            for order, changed, sql, _ in changes
            if changed == column
        )
        for column in COLUMNS
    }
    select = ", ".join(
        f"case {assignments[c]} else {c} end as {c}" if assignments[c] else c for c in COLUMNS
    )
    return f"select order_id, {select} from {{{{ ref('tolerance_source') }}}}\n"


# Every row drifts, each value within its tolerance: doubles recomputed, timestamps a loader
# rounded to milliseconds, text re-cased and padded.
EVERYTHING_DRIFTS = """
select order_id, customer_id, upper(status) as status, amount, fx_rate,
    discount * (1 + 1e-12) as discount, is_gift,
    timestamp_micros((unix_micros(ordered_at) + 500) div 1000 * 1000) as ordered_at,
    ship_date, concat(note, ' ') as note, serial
from {{ ref('tolerance_source') }}
"""


ONE_EXAMPLE = {"within_tolerance_examples": 1}


def pair(name, target, **options):
    return {
        "name": name,
        "source": {"ref": "tolerance_source"},
        "target": {"ref": target},
        "key": "order_id",
        "tolerance": TOLERANCE,
        **options,
    }


@pytest.fixture(scope="module")
def reconciled(scratch, spark, remote_legacy):
    scratch.write("models/tolerance_source.sql", TOLERANCE_SOURCE)
    scratch.write("models/tolerance_target.sql", drifted(CHANGES))
    scratch.write("models/tolerance_within.sql", drifted([c for c in CHANGES if c[3]]))
    scratch.write("models/tolerance_drifts.sql", EVERYTHING_DRIFTS)
    scratch.write("models/tolerance_tests.yml", TESTS)
    built = scratch.dbt(
        "run",
        "--select",
        "tolerance_source tolerance_target tolerance_within tolerance_drifts",
        vars=scratch.demo_vars(),
    )
    assert built.success
    pairs = [
        # Hashed exactly, as tol_hashdiff: every difference within tolerance is reported.
        pair("tol_joindiff", "tolerance_target", tolerant_checksums=False),
        pair("tol_joindiff_grid", "tolerance_target"),
        pair(
            "tol_hashdiff",
            "tolerance_target",
            algorithm="hashdiff",
            bisection_threshold=16,
            tolerant_checksums=False,
        ),
        pair("tol_hashdiff_grid", "tolerance_target", algorithm="hashdiff", bisection_threshold=16),
        *(
            pair(name, "tolerance_drifts", algorithm="hashdiff", bisection_threshold=16, **options)
            for name, options in (
                ("tol_drifts_grid", {}),
                ("tol_drifts_exact", {"tolerant_checksums": False}),
            )
        ),
        pair("tol_drifts_joindiff_grid", "tolerance_drifts"),
        # Every value within tolerance listed; tol_drifts_exact lists the default 10 per column.
        pair(
            "tol_drifts_all",
            "tolerance_drifts",
            tolerant_checksums=False,
            within_tolerance_examples="all",
        ),
        # One example per column of tol_joindiff's; none of tol_within's.
        pair("tol_one_example", "tolerance_target", tolerant_checksums=False, **ONE_EXAMPLE),
        pair(
            "tol_within_unlisted",
            "tolerance_within",
            tolerant_checksums=False,
            within_tolerance_examples=0,
        ),
        pair("tol_within", "tolerance_within", algorithm="hashdiff"),
        # 8 rows beyond tolerance of 3000: above 0.001, below 0.01.
        pair("tol_halted_joindiff", "tolerance_target", critical_drift_ratio=0.001),
        pair(
            "tol_halted_hashdiff",
            "tolerance_target",
            critical_drift_ratio=0.001,
            algorithm="hashdiff",
            bisection_threshold=16,
        ),
        # 16 differing keys from 10 to 91: the first cell of 64 keys holds 11 of them.
        pair(
            "tol_capped_joindiff", "tolerance_target", max_differences=1, tolerant_checksums=False
        ),
        pair(
            "tol_capped_hashdiff",
            "tolerance_target",
            max_differences=3,
            algorithm="hashdiff",
            bisection_threshold=16,
        ),
        pair(
            "tol_not_halted",
            "tolerance_target",
            critical_drift_ratio=0.01,
            tolerant_checksums=False,
        ),
        # The demo's migrated copy: 5 rows lost, new or doubled of 3001.
        {
            **pair("tol_lakehouse", "lakehouse_orders"),
            "source": {"ref": "legacy_orders"},
            "tolerance": WITHOUT_SERIAL,
            "enforce_key": "warn",  # order 2000 is doubled on purpose
        },
        *(
            {
                **pair(name, "tolerance_target", bisection_threshold=16),
                "source": {"source": [source, "orders"]},
                "columns": [c for c in COLUMNS if c != "serial"],
                "tolerance": WITHOUT_SERIAL,
            }
            for name, source in (("tol_postgres", "legacy_pg"), ("tol_duckdb", "legacy_duckdb"))
        ),
    ]
    assert reconcile(scratch, pairs).success
    summaries, differences = by_pair(spark, scratch.schema)
    run_id = summaries["tol_joindiff"]["run_id"]
    drift = {
        (r["pair_name"], r["column_name"]): r.asDict()
        for r in spark.table(f"{scratch.schema}.parity_column_drift")
        .where(f"run_id = '{run_id}'")
        .collect()
    }
    tested = scratch.dbt(
        "test",
        "--select",
        "tolerance_target tolerance_within",
        vars=scratch.demo_vars(parity={"pairs": pairs}),
        parse_once=True,
    )
    statuses = {r.node.name: str(r.status) for r in tested.result.results}
    yield summaries, differences, statuses, drift
    for name in (
        "tolerance_source.sql",
        "tolerance_target.sql",
        "tolerance_within.sql",
        "tolerance_drifts.sql",
        "tolerance_tests.yml",
    ):
        (scratch.path / "models" / name).unlink()


def kinds(differences):
    return {(d["key"], d["column_name"]): d["kind"] for d in differences}


EXPECTED = {
    (str(order), column): "within_tolerance" if within else "value_mismatch"
    for order, column, _, within in CHANGES
}


@pytest.mark.parametrize("name", ["tol_joindiff", "tol_hashdiff"])
def test_each_drift_is_judged_by_its_columns_tolerance(reconciled, name):
    summaries, differences, _, _ = reconciled
    assert kinds(differences[name]) == EXPECTED
    found = summaries[name]
    assert (found["value_mismatch_rows"], found["mismatched_values"]) == (8, 8)
    assert (found["within_tolerance_rows"], found["within_tolerance_values"]) == (8, 8)
    assert found["differing_rows"] == 8 and not found["passed"]


def test_both_algorithms_report_the_same_deltas(reconciled):
    _, differences, _, _ = reconciled
    joindiff, hashdiff = (
        sorted(tuple(v for k, v in sorted(d.items()) if k != "pair_name") for d in differences[n])
        for n in ("tol_joindiff", "tol_hashdiff")
    )
    assert joindiff == hashdiff


def test_deltas_are_exact_and_in_the_columns_unit(reconciled):
    _, differences, _, _ = reconciled
    delta = {(d["key"], d["column_name"]): d["delta"] for d in differences["tol_joindiff"]}
    assert delta[("10", "amount")] == "0.01"
    assert delta[("80", "serial")] == "1"  # 2^60 + 81 against 2^60 + 80: no double involved
    assert delta[("90", "fx_rate")] == "0.00000001"
    assert delta[("30", "ordered_at")] == "0.400"  # milliseconds
    assert delta[("41", "ship_date")] == "2"  # days
    assert delta[("52", "status")] is None
    errors = {
        (d["key"], d["column_name"]): d["relative_error"] for d in differences["tol_joindiff"]
    }
    assert errors[("20", "discount")] == pytest.approx(1e-12, rel=1e-3)
    # of the larger value: 1e-6 a / (a (1 + 1e-6))
    assert errors[("21", "discount")] == pytest.approx(1e-6 / (1 + 1e-6), rel=1e-6)


def test_drift_only_within_tolerance_passes(reconciled):
    summaries, differences, _, _ = reconciled
    found = summaries["tol_within"]
    assert found["passed"] and found["differing_rows"] == 0
    # On the tolerance grid a segment of drift within tolerance may match by checksum alone.
    assert {d["kind"] for d in differences.get("tol_within", [])} <= {"within_tolerance"}
    assert found["tolerance_hash"] == summaries["tol_joindiff"]["tolerance_hash"]
    assert found["tolerance_hash"] != found["config_hash"]


@pytest.mark.parametrize(
    "name", ["tol_hashdiff_grid", "tol_joindiff_grid", "tol_postgres", "tol_duckdb"]
)
def test_on_the_tolerance_grid_every_drift_beyond_tolerance_is_found(reconciled, name):
    """Hashed on the tolerance grid (the default), hashdiff finds every difference beyond
    tolerance, in every engine, and so does joindiff; one within tolerance is reported only
    where its segment (joindiff: its row's hash) still differed."""
    _, differences, _, _ = reconciled
    expected = {k: v for k, v in EXPECTED.items() if k[1] != "serial" or name.endswith("diff_grid")}
    found = kinds(differences[name])
    mismatches = {k for k, v in expected.items() if v == "value_mismatch"}
    assert {k for k, v in found.items() if v == "value_mismatch"} == mismatches
    assert found.items() <= expected.items()


def test_drift_within_tolerance_everywhere_moves_few_rows_on_the_grid(reconciled):
    """Every row drifts within tolerance: hashed exactly, every segment differs and every row is
    moved; on the tolerance grid, only the few doubles that straddle a cell of 2^-30 relative
    make their segments differ (about 1e-12 * 2^31 of them)."""
    summaries, differences, _, _ = reconciled
    exact, grid = summaries["tol_drifts_exact"], summaries["tol_drifts_grid"]
    for found in (exact, grid):
        assert found["passed"] and found["differing_rows"] == 0
    assert exact["rows_moved"] == 6000 and exact["within_tolerance_rows"] > 2900
    assert grid["rows_moved"] < 300, grid["rows_moved"]
    assert {d["kind"] for d in differences.get("tol_drifts_grid", [])} <= {"within_tolerance"}
    # joindiff's first pass hashes on the same grid: only the straddling rows are compared.
    joined = summaries["tol_drifts_joindiff_grid"]
    assert joined["passed"] and joined["differing_rows"] == 0
    assert joined["within_tolerance_rows"] < 150, joined["within_tolerance_rows"]


@pytest.mark.parametrize(
    ("test", "status"),
    [
        ("no_differences_beyond_tolerance_fails", "fail"),
        ("in_parity_fails", "fail"),
        ("amount_drift_fails", "fail"),
        ("status_drift_passes", "pass"),
        ("discount_relative_error_fails", "fail"),
        ("no_differences_within_tolerance_passes", "pass"),
        ("in_parity_passes", "pass"),
        ("discount_relative_error_passes", "pass"),
        ("unlisted_relative_error_fails", "fail"),
        ("row_drift_passes", "pass"),
        ("row_drift_fails", "fail"),
    ],
)
def test_generic_tests_give_the_verdicts(reconciled, test, status):
    _, _, statuses, _ = reconciled
    assert statuses[test] == status


def test_circuit_breaker_halts_and_fails_the_pair(reconciled):
    summaries, differences, _, _ = reconciled
    for name in ("tol_halted_joindiff", "tol_halted_hashdiff"):
        assert summaries[name]["halted"] and not summaries[name]["passed"]
    # joindiff counts inside Spark first: no difference left it.
    assert summaries["tol_halted_joindiff"]["value_mismatch_rows"] == 8
    assert "tol_halted_joindiff" not in differences
    # hashdiff keeps what it had moved when the breaker tripped, and moves nothing after.
    assert differences["tol_halted_hashdiff"]
    assert not summaries["tol_not_halted"]["halted"]
    assert kinds(differences["tol_not_halted"]) == EXPECTED


def test_max_differences_stops_the_pair_early(reconciled):
    summaries, differences, _, drift = reconciled
    for name in ("tol_capped_joindiff", "tol_capped_hashdiff"):
        assert summaries[name]["halted"] and not summaries[name]["passed"]
        coverage = drift[(name, "amount")]["coverage"]
        assert coverage.startswith("halted at max_differences")
    # joindiff compares the first differing cell of 64 keys only, and publishes what it holds.
    capped = kinds(differences["tol_capped_joindiff"])
    assert capped == {k: v for k, v in EXPECTED.items() if int(k[0]) < 64}
    assert summaries["tol_capped_joindiff"]["value_mismatch_rows"] == 5
    assert summaries["tol_capped_hashdiff"]["value_mismatch_rows"] >= 3


def test_column_drift_telemetry_of_the_run(reconciled):
    *_, drift = reconciled
    amount = drift[("tol_joindiff", "amount")]
    assert (amount["values_compared"], amount["out_of_tolerance"], amount["within_tolerance"]) == (
        3000,
        1,
        1,
    )
    assert amount["max_abs_error"] == pytest.approx(0.02)
    assert amount["mean_abs_error"] == pytest.approx(0.03 / 3000)
    assert amount["max_lag_ms"] is None and amount["coverage"] == "every compared row"
    ordered = drift[("tol_joindiff", "ordered_at")]
    assert (ordered["max_lag_ms"], ordered["p99_lag_ms"]) == (2.0, 0.0)
    assert ordered["max_relative_error"] is None
    assert drift[("tol_joindiff", "note")]["null_on_one_side"] == 1
    assert drift[("tol_joindiff", "is_gift")]["out_of_tolerance"] == 0
    assert drift[("tol_hashdiff", "amount")]["mean_abs_error"] == amount["mean_abs_error"]
    assert drift[("tol_hashdiff", "amount")]["coverage"].startswith("every compared row: ")
    assert drift[("tol_halted_joindiff", "amount")]["coverage"].startswith("halted")
    grid = drift[("tol_joindiff_grid", "amount")]["coverage"]
    assert grid.startswith("every difference beyond tolerance; those within it only in the rows")


def test_within_tolerance_figures_say_how_they_were_counted(reconciled):
    """Hashed exactly, every value within tolerance is counted; on the tolerance grid, or halted
    before the end, only those seen while locating the differences are."""
    summaries, *_ = reconciled
    counted = {name: summary["within_tolerance_counted"] for name, summary in summaries.items()}
    exact = ("tol_joindiff", "tol_hashdiff", "tol_drifts_exact", "tol_not_halted")
    seen = (
        "tol_joindiff_grid",
        "tol_hashdiff_grid",
        "tol_drifts_grid",
        "tol_drifts_joindiff_grid",
        "tol_halted_hashdiff",
        "tol_capped_joindiff",
    )
    assert {name: counted[name] for name in exact + seen} == {
        **dict.fromkeys(exact, "exact"),
        **dict.fromkeys(seen, "seen"),
    }


def within(differences, column):
    return [d for d in differences if (d["kind"], d["column_name"]) == ("within_tolerance", column)]


def chosen_first(difference):
    """The order a column's examples are chosen in (results/examples.py): largest |delta|, then
    largest relative error (an error not published last), then smallest key (each key has one
    value of a column here, so no tie goes further)."""
    delta, relative = difference["delta"], difference["relative_error"]
    return (
        delta is None,
        -abs(float(delta)) if delta is not None else 0.0,
        relative is None,
        -relative if relative is not None else 0.0,
        difference["key"],
    )


def test_values_within_tolerance_are_counted_in_full_and_listed_by_example(reconciled):
    """Every value drifts within tolerance: each is counted, as where every one is listed, and
    each column lists its 10 of largest error (the default), those listing every one would list
    first."""
    summaries, differences, _, drift = reconciled
    capped, every = summaries["tol_drifts_exact"], summaries["tol_drifts_all"]
    for name in ("within_tolerance_rows", "within_tolerance_values"):
        assert capped[name] == every[name] > 2900, name
    columns = {c for (p, c) in drift if p == "tol_drifts_all" and drift[(p, c)]["within_tolerance"]}
    assert {"status", "discount", "ordered_at"} <= columns
    unpublished = {"pair_name", "run_id"}
    for column in columns:
        counted = drift[("tol_drifts_all", column)]["within_tolerance"]
        assert drift[("tol_drifts_exact", column)]["within_tolerance"] == counted > 10, column
        assert drift[("tol_drifts_exact", column)]["within_tolerance_listed"] == 10, column
        assert drift[("tol_drifts_all", column)]["within_tolerance_listed"] == counted, column
        listed = within(differences["tol_drifts_all"], column)
        assert len(listed) == counted, column
        first = [
            {k: v for k, v in d.items() if k not in unpublished}
            for d in sorted(listed, key=chosen_first)[:10]
        ]
        examples = within(differences["tol_drifts_exact"], column)
        assert (
            sorted(
                ({k: v for k, v in d.items() if k not in unpublished} for d in examples),
                key=chosen_first,
            )
            == first
        ), column


def test_a_capped_pair_lists_every_difference_beyond_tolerance(reconciled):
    summaries, differences, _, drift = reconciled
    found = kinds(differences["tol_one_example"])
    mismatches = {k for k, v in EXPECTED.items() if v == "value_mismatch"}
    assert {k for k, v in found.items() if v == "value_mismatch"} == mismatches
    # status has two values within tolerance: the one listed is of the smaller key (a text has
    # no delta); every other column has one, listed.
    listed = {k for k, v in found.items() if v == "within_tolerance"}
    every = {k for k, v in EXPECTED.items() if v == "within_tolerance"}
    assert listed == every - {("51", "status")}
    one = summaries["tol_one_example"]
    assert (one["value_mismatch_rows"], one["mismatched_values"]) == (8, 8)
    assert (one["within_tolerance_rows"], one["within_tolerance_values"]) == (8, 8)
    status = drift[("tol_one_example", "status")]
    assert (status["within_tolerance"], status["within_tolerance_listed"]) == (2, 1)
    assert drift[("tol_joindiff", "status")]["within_tolerance_listed"] == 2


def test_a_pair_listing_no_example_still_counts_and_measures_them(reconciled):
    summaries, differences, _, drift = reconciled
    unlisted = summaries["tol_within_unlisted"]
    assert unlisted["passed"] and unlisted["within_tolerance_values"] == 8
    assert "tol_within_unlisted" not in differences
    discount = drift[("tol_within_unlisted", "discount")]
    assert (discount["within_tolerance"], discount["within_tolerance_listed"]) == (1, 0)
    assert discount["max_relative_error"] == pytest.approx(1e-12, rel=1e-3)
