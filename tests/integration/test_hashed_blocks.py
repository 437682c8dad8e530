"""A PostgreSQL pair keyed by two columns, its differences spread over the whole hashed key
space: the first pass keeps each side's checksums by block of hashed positions, so the first
segment pass (32,768 cells at the default factor) is summed from them and asks neither engine
anything, and what is published is what the per-key path publishes (a factor of 10, whose cells
hold no whole blocks, asks the engines at every pass)."""

from __future__ import annotations

import psycopg
import pytest

from tests.integration.remote_tables import engine_sources, reconcile
from tests.integration.run_results import by_pair

ROWS = 40_000
POSTGRES_ENV = "PARITY_TEST_HASHED_BLOCKS_PG"


@pytest.fixture(scope="module")
def lines_drifted(scratch, postgres_url):
    """Order lines (order, line number) in two tables: every 200th line's amount changed, every
    400th deleted and as many inserted in the target, all over the key range."""
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        for table in ("lines_source", "lines_target"):
            connection.execute(f"drop table if exists {table}")
            connection.execute(
                f"create table {table} (order_id integer, line integer, amount numeric(12, 2),"
                " note text, primary key (order_id, line))"
            )
        connection.execute(
            "insert into lines_source select i / 4, i % 4, i * 1.25, 'line ' || i"
            f" from generate_series(0, {ROWS - 1}) as i"
        )
        connection.execute(
            "insert into lines_target select order_id, line,"
            " case when (order_id * 4 + line) % 200 = 7 then amount + 1 else amount end, note"
            " from lines_source where (order_id * 4 + line) % 400 <> 3"
        )
        connection.execute(
            "insert into lines_target select order_id, 9, 0, 'added' from lines_source"
            " where line = 0 and order_id % 100 = 11"
        )
    sources = engine_sources(
        "hashed_pg", "postgres", POSTGRES_ENV, "public", ["lines_source", "lines_target"]
    )
    with (
        pytest.MonkeyPatch.context() as patch,
        scratch.file("models/hashed_blocks_sources.yml", sources),
    ):
        patch.setenv(POSTGRES_ENV, postgres_url)
        yield


def pair(name: str, **options: object) -> dict:
    return {
        "name": name,
        "source": {"source": ["hashed_pg", "lines_source"]},
        "target": {"source": ["hashed_pg", "lines_target"]},
        "key": ["order_id", "line"],
        "algorithm": "hashdiff",
        **options,
    }


def test_a_compound_keys_first_segment_pass_is_summed_from_the_blocks(
    scratch, spark, lines_drifted
):
    by_blocks, by_keys = pair("by_blocks"), pair("by_keys", bisection_factor=10)
    logged: list[str] = []
    assert reconcile(scratch, [by_blocks, by_keys], logged).success
    summaries, differences = by_pair(
        spark,
        scratch.schema,
        lambda row: tuple(sorted((k, v) for k, v in row.asDict().items() if k != "pair_name")),
        set,
    )
    changed, deleted, added = ROWS // 200, ROWS // 400, ROWS // 400
    for name in ("by_blocks", "by_keys"):
        found = summaries[name]
        assert (found["source_rows"], found["target_rows"]) == (ROWS, ROWS - deleted + added)
        assert found["differing_rows"] == changed + deleted + added
    assert differences["by_blocks"] == differences["by_keys"]
    assert len(differences["by_blocks"]) >= changed + deleted + added

    def lines(name: str, text: str) -> list[str]:
        return [line for line in logged if f"'{name}'" in line and text in line]

    summed = "checksums at depth 3 summed from its first pass's blocks, no query"
    # One per side; past the first segment pass, cells smaller than a block are asked.
    assert len(lines("by_blocks", summed)) == 2
    assert len(lines("by_blocks", "blocks, no query")) == 2
    assert lines("by_blocks", "hashdiff pass 2, depth 3 (")
    assert not lines("by_keys", "summed from its first pass's blocks")
