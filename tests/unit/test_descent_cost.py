"""The cost model of the drill-down: thin drift is refined, thick drift is downloaded, cells of
one row are never split, and nothing in it reads a clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parity.algorithms.descent_cost import (
    PASS_ROWS,
    child_share,
    narrows,
    pass_rows,
    refining_pays,
)


def test_one_difference_in_a_cell_leaves_one_child_of_it():
    # A few differing cells of many rows among many: each holds about one difference, in one
    # child.
    assert child_share(1_000, 1, 10_000, 32) == pytest.approx(1 / 32, rel=1e-2)


def test_all_cells_differing_are_read_as_the_least_drift_that_explains_it():
    # 61 of 61 cells of 16,384 rows differ: at least about 4.5 differences a cell, so a child
    # differs about 13% of the time; the more cells all differ, the thicker the drift must be.
    assert child_share(16_384, 61, 61, 32) == pytest.approx(0.13, abs=0.01)
    assert child_share(16_384, 100_000, 100_000, 32) > child_share(16_384, 61, 61, 32)


def test_a_cell_of_one_row_cannot_be_narrowed():
    assert child_share(1, 5, 10_000, 32) == 1.0
    assert not narrows(child_share(1, 5, 10_000, 32))


def test_nearly_every_small_cell_differing_cannot_be_narrowed():
    # Every row differs (a timestamp shifted on each): cells of 2 or 3 rows, all differing.
    assert not narrows(child_share(2, 30_000, 30_000, 32))
    assert not narrows(child_share(3, 32_768, 32_768, 32))
    # Cells of 10 rows all differing may still hold a third of rows alike: split once more.
    assert narrows(child_share(10, 32_768, 32_768, 32))
    # Nine in ten cells of 1,000 rows differing: 2.3 differences in a cell, splitting narrows.
    assert narrows(child_share(1_000, 9_000, 10_000, 32))


@given(
    st.integers(1, 10_000).flatmap(
        lambda checked: st.tuples(st.integers(1, checked), st.just(checked))
    ),
    st.sampled_from([2, 4, 32, 1024]),
    st.floats(0.0, 1e6),
)
def test_the_share_lies_between_one_child_and_all_of_them(cells, factor, rows_per_cell):
    differing, checked = cells
    share = child_share(rows_per_cell, differing, checked, factor)
    assert 1 / factor - 1e-9 <= share <= 1.0 + 1e-9


def test_a_pass_is_run_where_the_rows_it_saves_cost_more():
    # 1,624 differences over 61 cells of 16,384 rows: each cell differs, but a level down only
    # about 13% of the children do (the rounded drift of bench/tolerant_hashing.py).
    thin = child_share(16_384, 61, 61, 32)
    assert refining_pays(2 * 61 * 16_384, thin, pass_rows(0))
    # The same pass where both sides read their million rows again does not pay.
    assert not refining_pays(2 * 61 * 16_384, thin, pass_rows(2_000_000))
    # A pass saving fewer rows than it costs is not run.
    assert not refining_pays(PASS_ROWS, child_share(64, 1, 10_000, 32), pass_rows(0))
