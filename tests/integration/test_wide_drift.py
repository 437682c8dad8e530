"""A copy whose timestamps were all shifted by 5 hours (a time zone forgotten) is named for what it
is: the report gives the column's line, with its count and error, before any example, calls out
the whole-hour shift with the option that would absorb it (`time_zone`), and shows examples of
that column; parity_column_drift publishes the pattern. The pair is the common migration pair: a
PostgreSQL source against a Spark copy, with a tolerance on the grid, so the report also says
its within-tolerance figures are only those seen."""

from __future__ import annotations

import pytest

from tests.integration.remote_tables import reconcile, remote_pair

SOURCES = """
version: 2
sources:
  - name: shifted_lake
    schema: "{{ env_var('PARITY_SCHEMA') }}"
    tables:
      - name: shifted_orders
"""
PAIR = remote_pair(
    "shifted",
    "legacy_pg",
    {"source": ["shifted_lake", "shifted_orders"]},
    tolerance={"defaults": {"timestamp": {"temporal_tolerance_ms": 1}}},
)


@pytest.fixture(scope="module")
def shifted(scratch, spark, remote_legacy):
    spark.table(f"{scratch.schema}.legacy_orders").selectExpr(
        "*", "ordered_at + interval 5 hours as shifted_at"
    ).drop("ordered_at").withColumnRenamed("shifted_at", "ordered_at").write.mode(
        "overwrite"
    ).saveAsTable(f"{scratch.schema}.shifted_orders")
    with scratch.file("models/shifted_sources.yml", SOURCES):
        logged: list[str] = []
        assert reconcile(scratch, [PAIR], logged).success
        # The report's lines for the pair: from its verdict to the blank line after them.
        start = next(
            i for i, x in enumerate(logged) if x.startswith("parity pair 'shifted': DIFFERENT")
        )
        report = logged[start : logged.index("", start)]
        drift = {
            row["column_name"]: row.asDict()
            for row in spark.table(f"{scratch.schema}.parity_column_drift")
            .where("pair_name = 'shifted'")
            .collect()
        }
        yield report, drift


def test_the_column_is_named_with_its_count_before_the_examples(shifted):
    report, _ = shifted
    (line,) = [x for x in report if x.startswith("  column ordered_at: ")]
    assert line == (
        "  column ordered_at: 3000 rows differ beyond tolerance, 0 within; NULL on one side 0;"
        " max error 18000000 ms, mean 18000000 ms"
    )
    examples = [x for x in report if x.startswith("    key ")]
    assert report.index(line) < report.index(examples[0])
    # No other column differs.
    assert [x for x in report if x.startswith("  column ") and "differs by" not in x] == [line]


def test_the_shift_is_called_out_with_the_option_that_absorbs_it(shifted):
    report, drift = shifted
    (called,) = [x for x in report if "differs by one constant" in x]
    assert called.startswith(
        "  column ordered_at differs by one constant (whole_hours): 3000 of 3000 compared values"
        " shifted by whole hours, 5, the target later than the source"
    )
    assert "`time_zone`" in called
    assert drift["ordered_at"]["pattern"] == "whole_hours"
    assert drift["ordered_at"]["pattern_note"] == called.split("(whole_hours): ")[1]
    assert {c for c, row in drift.items() if row["pattern"]} == {"ordered_at"}


def test_examples_show_the_shifted_column(shifted):
    report, _ = shifted
    examples = [x for x in report if x.startswith("    key ")]
    # The project's report shows 12 (demo/dbt_project.yml: example_rows).
    assert len(examples) == 12, examples
    for line in examples:
        assert " value_mismatch ordered_at: source '2024-" in line, line


def test_within_tolerance_figures_say_they_are_only_those_seen(shifted):
    report, _ = shifted
    (counts,) = [x for x in report if x.startswith("  missing in target ")]
    assert (
        "within tolerance 0 rows (0 values, only those seen while locating the differences:"
        " a lower bound)" in counts
    )
