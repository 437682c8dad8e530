"""The contracts between the Jinja that writes the package's tables and the Python that fills or
reads them, held both ways without dbt or Spark: the verdict's columns, the history's and the
summary's select lists, the plan's columns and each one's YAML doc name exactly what the
dataclasses hold. Otherwise a field the SQL leaves out is never published, and a column the
Python never reads is planned for nothing."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
import yaml
from jinja2 import nodes

from parity.pipelines.incremental import VERDICT_FIELDS
from parity.plan import pairs_from_rows
from parity.results.pair_result import RESULT_SCHEMA, PairResult
from parity.sides.remote_columns import COLUMNS_SCHEMA
from parity.sides.sql import BLOCK_BITS
from parity.values.keyspace import HASHED_BLOCK_BITS
from tests.plan_factory import SIDES, plan_row

ROOT = Path(__file__).resolve().parents[2]
JINJA = jinja2.Environment(extensions=["jinja2.ext.do"])
# What parity_run_pairs holds of a result, and the summary reads from it: each run's pointer to
# the run whose result it publishes.
RUN_POINTERS = ("computed_run_id", "run_mode", "run_mode_reason")
# What the history adds to a result: when the run started.
RUN_STARTED = "run_started_at"


def parsed(path: str) -> nodes.Template:
    return JINJA.parse((ROOT / path).read_text())


def returned(path: str, macro: str | None = None):
    """The literal a macro `return`s: the file's only one, or the one named ``macro``."""
    template = parsed(path)
    if macro is not None:
        (template,) = [m for m in template.find_all(nodes.Macro) if m.name == macro]
    (call,) = [
        call
        for call in template.find_all(nodes.Call)
        if isinstance(call.node, nodes.Name) and call.node.name == "return"
    ]
    return call.args[0].as_const()


def assigned_list(path: str, name: str) -> list[str]:
    """The literal list a template sets ``name`` to."""
    (assign,) = [
        assign
        for assign in parsed(path).find_all(nodes.Assign)
        if isinstance(assign.target, nodes.Name) and assign.target.name == name
    ]
    return assign.node.as_const()


VERDICT = returned("macros/publish/verdict_columns.sql")


def selected_columns(path: str) -> list[str]:
    """The names a model's select gives its columns, rendered with the package's macros stubbed
    (the verdict list is the real one)."""
    parity = SimpleNamespace(
        verdict_columns=lambda: VERDICT,
        run_started_at_literal=lambda: "timestamp'2026-01-01 00:00:00'",
        published_run=lambda: "'run'",
    )
    sql = JINJA.from_string((ROOT / path).read_text()).render(
        parity=parity, ref=lambda *name: name[-1], invocation_id="run"
    )
    select = re.search(r"^select\n(.*?)\nfrom ", sql, re.DOTALL | re.MULTILINE).group(1)
    lines = [line.split("--")[0].strip() for line in select.splitlines()]
    items = "".join(line for line in lines if line).split(",")
    return [re.search(r"(\w+)$", item.strip()).group(1) for item in items]


def documented_columns(path: str, model: str) -> set[str]:
    (node,) = [m for m in yaml.safe_load((ROOT / path).read_text())["models"] if m["name"] == model]
    return {column["name"] for column in node["columns"]}


def published_fields() -> list[str]:
    """PairResult's fields that parity_pair_results holds, in order (`found` stays in Spark)."""
    return list(RESULT_SCHEMA.names)


def test_the_verdict_is_pair_results_fields_from_pair_name_to_status_reason():
    names = [field.name for field in fields(PairResult)]
    assert names[names.index("pair_name") : names.index("status_reason") + 1] == VERDICT


def test_the_history_keeps_every_field_of_a_result_but_the_runs_pointers():
    columns = selected_columns("models/history/parity_run_results.sql")
    assert len(columns) == len(set(columns))
    assert columns[:2] == ["run_id", RUN_STARTED]
    assert columns[2 : 2 + len(VERDICT)] == VERDICT
    assert set(columns) == set(published_fields()) - set(RUN_POINTERS) | {RUN_STARTED}


def test_the_run_pairs_keep_the_runs_pointers_and_the_state_a_rerun_reads():
    columns = selected_columns("models/history/parity_run_pairs.sql")
    assert set(RUN_POINTERS) <= set(columns)
    assert set(columns) <= set(published_fields()) | {RUN_STARTED}


def test_the_summary_publishes_the_verdict_and_how_the_run_came_to_it():
    columns = selected_columns("models/results/parity_summary.sql")
    assert len(columns) == len(set(columns))
    assert columns[2 : 2 + len(VERDICT)] == VERDICT
    assert {"run_mode", "run_mode_reason", "dead_letters"} <= set(columns)
    assert set(columns) <= set(published_fields()) | {RUN_STARTED}


@pytest.mark.parametrize(
    ("model", "doc"),
    [
        ("models/history/parity_run_results.sql", "models/history/_history__models.yml"),
        ("models/history/parity_run_pairs.sql", "models/history/_history__models.yml"),
        ("models/results/parity_summary.sql", "models/results/_results__models.yml"),
    ],
)
def test_each_published_column_is_documented_and_each_documented_one_published(model, doc):
    assert documented_columns(doc, Path(model).stem) == set(selected_columns(model))


def plan_columns() -> list[str]:
    path = "models/plan/parity_plan.sql"
    side = assigned_list(path, "side_columns")
    return [*assigned_list(path, "plan_columns"), *(f"{s}_{c}" for s in SIDES for c in side)]


class ReadColumns(dict):
    """A plan row that records the columns read from it."""

    read: set[str]

    def __getitem__(self, name):
        self.read.add(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        self.read.add(name)
        return super().get(name, default)


def test_the_plan_writes_every_column_the_python_reads_and_no_other():
    row = ReadColumns(plan_row("p", {"algorithm": "joindiff"}))
    row.read = set()
    pairs_from_rows([row])
    assert sorted(plan_columns()) == sorted(row) == sorted(row.read)
    assert documented_columns("models/plan/_plan__models.yml", "parity_plan") == set(row)


def test_each_column_a_plan_row_is_given_is_one_the_plan_writes():
    """pair_plan.sql's rows are written through parity_plan.sql's lists: a key a row is given
    that the lists lack would be dropped without a word."""
    text = (ROOT / "macros/plan/pair_plan.sql").read_text()
    rows = re.findall(r"set row = \{(.*?)\}\s*-%\}", text, re.DOTALL)
    pair_keys = {key for row in rows for key in re.findall(r"^\s*'(\w+)':", row, re.MULTILINE)}
    side_keys = set(re.findall(r"side ~ '_(\w+)':", text))
    assert len(rows) == 2 and pair_keys and side_keys
    side = assigned_list("models/plan/parity_plan.sql", "side_columns")
    pair = assigned_list("models/plan/parity_plan.sql", "plan_columns")
    assert pair_keys <= set(pair) and side_keys == set(side)


def test_the_blocks_a_side_outside_spark_groups_by_are_the_sizes_the_library_reads():
    """Each engine numbers its blocks (macros/dialects/base/blocks.sql); the library turns them
    back into key ranges (sides/sql.py, values/keyspace.py)."""
    blocks = "macros/dialects/base/blocks.sql"
    assert returned(blocks, "key_block_bits") == BLOCK_BITS
    assert returned(blocks, "hashed_block_bits") == HASHED_BLOCK_BITS


def test_the_state_a_rerun_reads_carries_every_count_its_hash_covers():
    """previous_states.sql reads back each published result's verdict and counts, cast to text
    (the drift with its 6 decimals, apart); the state hash covers them all
    (incremental.VERDICT_FIELDS): one left out would make every kept state look corrupted."""
    (names,) = [
        loop.iter.as_const()
        for loop in parsed("macros/plan/previous_states.sql").find_all(nodes.For)
        if isinstance(loop.iter, nodes.List) and "passed" in loop.iter.as_const()
    ]
    read = [*names, "row_drift_pct"]
    assert len(read) == len(set(read)) and set(read) == set(VERDICT_FIELDS)


def test_the_remote_relations_listed_are_those_the_introspection_reads():
    """parity_remote_relations.sql writes each row through its column list; what
    sides/remote_columns.py reads of a row must be one of them."""
    path = "models/plan/parity_remote_relations.sql"
    listed = assigned_list(path, "plan_columns")
    (row,) = re.findall(r"rows\.append\(\{(.*?)\}\)", (ROOT / path).read_text(), re.DOTALL)
    assert re.findall(r"^\s*'(\w+)':", row, re.MULTILINE) == listed
    assert documented_columns("models/plan/_plan__models.yml", "parity_remote_relations") == set(
        listed
    )
    python = (ROOT / "src/parity/sides/remote_columns.py").read_text()
    (settings,) = re.findall(r"settings = \((.*?)\)", python)
    read = set(re.findall(r'\w\["(\w+)"\]', python)) | set(re.findall(r'"(\w+)"', settings))
    assert len(read) > 5 and read <= set(listed)


def test_the_plan_reads_of_the_remote_columns_only_what_the_introspection_writes():
    """parity_plan.sql selects from parity_remote_columns; pair_plan.sql reads the rows it got."""
    written = list(COLUMNS_SCHEMA.names)
    assert documented_columns("models/plan/_plan__models.yml", "parity_remote_columns") == set(
        written
    )
    plan = (ROOT / "models/plan/parity_plan.sql").read_text()
    (selected,) = re.findall(r"'select (.*?) from ' ~ remote_columns_relation", plan)
    selected = selected.split(", ")
    read = set(re.findall(r"column\['(\w+)'\]", (ROOT / "macros/plan/pair_plan.sql").read_text()))
    # `name` and `profile` are keys of the plan's own column lists, not of these rows.
    assert set(selected) <= set(written)
    assert read - {"name", "profile"} == set(selected)
