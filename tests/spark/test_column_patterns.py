"""The evidence of a column's pattern is counted in Spark beside its drift totals, from the
canonical texts of its differing values, and names the constant each column differs by: a
timestamp shifted by 5 hours in winter and 4 in summer, an amount in cents, a float tenfold, a
code upper-cased, a name padded; a column that differs at random follows none."""

from __future__ import annotations

from parity.results.patterns import classify
from parity.results.summary import ROW_DIFF_SCHEMA, summarize
from parity.values.column_rule import ColumnRule

RULES = (
    ColumnRule("at", "timestamp", {}),
    ColumnRule("amount", "decimal", {}, scale=2),
    ColumnRule("code", "string", {}),
    ColumnRule("name", "string", {}),
    ColumnRule("noise", "float", {}),
    ColumnRule("scaled", "float", {}),
    ColumnRule("lenient", "timestamp", {"temporal_tolerance_ms": "86400000"}),
)
NAMES = tuple(rule.column for rule in RULES)
ROWS = 20


def row(i: int) -> tuple[list[str], str, list[str], list[str]]:
    winter = i < 15
    at = f"2024-{'01' if winter else '07'}-{i + 1:02d} 10:00:00.000000"
    shifted = f"2024-{'01' if winter else '07'}-{i + 1:02d} {15 if winter else 14}:00:00.000000"
    source = [at, f"{i + 1}.25", f"ab{i}", f"name {i}", float(i + 1).hex(), float(i + 1).hex(), at]
    target = [
        shifted,
        f"{(i + 1) * 100 + 25}.00",
        f"AB{i}",
        f"name {i}  ",
        float(i * 7).hex(),
        float((i + 1) * 10).hex(),
        shifted,
    ]
    return [str(i)], "value_mismatch", source, target


def test_each_column_is_named_by_the_constant_it_differs_by(spark):
    diffs = spark.createDataFrame([row(i) for i in range(ROWS)], ROW_DIFF_SCHEMA)
    totals = summarize(diffs, NAMES, RULES).drift_totals
    found = {rule.column: classify(rule, totals.get(rule.column, {}), ROWS) for rule in RULES}
    assert found["at"].pattern == "whole_hours"
    assert "shifted by whole hours, 4 to 5, the target later" in found["at"].pattern_note
    assert "`time_zone`" in found["at"].pattern_note
    assert found["amount"].pattern == "power_of_ten"
    assert "times 10^2" in found["amount"].pattern_note
    assert found["code"].pattern == "case"
    assert found["name"].pattern == "trimmed"
    assert found["noise"] is None
    assert "times 10^1" in found["scaled"].pattern_note
    # Within its tolerance, a shift needs no advice.
    assert found["lenient"] is None
