"""The cost model of the drill-down: thin drift is refined, thick drift is downloaded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parity.algorithms.descent_cost import child_share, refining_pays

pytestmark = pytest.mark.unit


def test_one_difference_in_a_cell_leaves_one_child_of_it():
    # A few differing cells among many: each holds about one difference, in one child.
    assert child_share(1, 10_000, 32) == pytest.approx(1 / 32, rel=1e-3)


def test_all_cells_differing_are_read_as_the_least_drift_that_explains_it():
    # 61 of 61 differ: at least about 4.5 differences a cell, so a child differs about 13% of
    # the time; the more cells all differ, the thicker the drift must be.
    assert child_share(61, 61, 32) == pytest.approx(0.13, abs=0.01)
    assert child_share(100_000, 100_000, 32) > child_share(61, 61, 32)


@given(
    st.integers(1, 10_000).flatmap(
        lambda checked: st.tuples(st.integers(1, checked), st.just(checked))
    ),
    st.sampled_from([2, 4, 32, 1024]),
)
def test_the_share_lies_between_one_child_and_all_of_them(cells, factor):
    differing, checked = cells
    share = child_share(differing, checked, factor)
    assert 1 / factor - 1e-9 <= share <= 1.0 + 1e-9


def test_a_pass_is_run_where_the_rows_it_saves_cost_more():
    # 1,624 differences over 61 cells of 16,384 rows: each cell differs, but a level down only
    # about half the children do (the rounded drift of bench/tolerant_hashing.py).
    thin = dict(rows=1_000_000, factor=32, pass_seconds=0.3, row_seconds=5e-6)
    assert refining_pays(differing=61, checked=61, **thin)
    # Thousands of cells all differing (thick drift): a level down still leaves a fifth of the
    # rows, not worth a pass that rescans a side.
    assert not refining_pays(1_000_000, 1_952, 1_952, 32, pass_seconds=5.0, row_seconds=5e-6)
    # A pass that costs more than moving the rows it would save is not run.
    assert not refining_pays(1_000, 1, 10_000, 32, pass_seconds=1.0, row_seconds=5e-6)
