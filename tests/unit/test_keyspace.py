import pytest
from hypothesis import given
from hypothesis import strategies as st

from parity.values.keyspace import (
    EXACT_PRODUCT_LIMIT,
    HASHED_BLOCK_BITS,
    HASHED_POSITION_BITS,
    LARGEST_CELL_NUMBER,
    KeySpace,
)

positions = st.integers(min_value=-(2**63), max_value=2**63 - 1)


@given(positions, positions, st.integers(2, 64), st.sampled_from([1, 64]), st.data())
def test_cells_nest_and_match_their_bounds(a, b, factor, align, data):
    low, high = min(a, b), max(a, b)
    space = KeySpace.spanning(low, high, factor, align)
    assert space.aligned(align) and space.low <= low
    position = data.draw(st.integers(low, high))
    deepest = space.unit_depth()
    depth = data.draw(st.integers(0, deepest))
    step = data.draw(st.integers(0, deepest - depth))
    cell = space.cell_of(position, depth + step)
    assert space.cell_of(position, depth) == cell // factor**step
    start, end = space.bounds(depth + step, cell)
    assert start <= position < end
    assert 0 <= cell < space.cells(depth + step)
    # The block of `align` positions holding this one lies inside its cell.
    block_start = position - position % align
    assert space.cell_of(block_start, depth + step) == cell
    assert space.cell_of(min(block_start + align - 1, high), depth + step) == cell


@given(positions, positions, st.integers(2, 64), st.sampled_from([1, 64]))
def test_products_stay_exact_in_decimal_38(a, b, factor, align):
    space = KeySpace.spanning(min(a, b), max(a, b), factor, align)
    assert space.width * space.cells(space.unit_depth()) < EXACT_PRODUCT_LIMIT * factor


@given(positions, positions, st.integers(2, 1 << 16), st.sampled_from([1, 64]))
def test_cell_numbers_fit_a_bigint_and_divisors_are_never_zero(a, b, factor, align):
    """Cell SQL divides by the space's scale and width: both at least 1 for any key range."""
    space = KeySpace.spanning(min(a, b), max(a, b), factor, align)
    assert space.cells(space.unit_depth()) <= LARGEST_CELL_NUMBER
    assert space.scale >= 1 and space.width >= 1


def test_unit_cells_hold_one_position_when_unscaled():
    space = KeySpace.spanning(10, 109, 4)
    depth = space.unit_depth()
    assert space.scale == 1 and space.is_unit(depth) and not space.is_unit(depth - 1)
    assert {space.cell_of(p, depth) for p in range(10, 110)} == set(
        space.cell_of(p, depth) for p in range(10, 110)
    )
    assert len({space.cell_of(p, depth) for p in range(10, 110)}) == 100


def test_single_position_space_is_already_a_unit():
    space = KeySpace.spanning(7, 7, 32)
    assert space.unit_depth() == 0 and space.cell_of(7, 0) == 0


@given(st.integers(0, 2**60 - 1), st.sampled_from([2, 16, 32, 10]), st.data())
def test_hashed_positions_shift_to_their_cells(position, factor, data):
    """The hashed space covers [0, 2**60) and stays exact; with a power-of-two factor, every
    depth short of unit cells is a shift."""
    space = KeySpace.hashed(factor)
    assert space.low == 0 and space.scale * space.width == 2**60
    assert space.width * space.cells(space.unit_depth()) < EXACT_PRODUCT_LIMIT * factor
    depth = data.draw(st.integers(0, space.unit_depth()))
    shift = space.shift(depth)
    if factor & (factor - 1) == 0 and not space.is_unit(depth):
        assert shift is not None
    if shift is not None:
        assert position >> shift == space.cell_of(position, depth)


@given(positions, positions, st.sampled_from([2, 32]), st.sampled_from([1, 64]), st.data())
def test_a_shift_where_offered_is_the_cell(a, b, factor, align, data):
    space = KeySpace.spanning(min(a, b), max(a, b), factor, align)
    depth = data.draw(st.integers(0, space.unit_depth()))
    shift = space.shift(depth)
    position = data.draw(st.integers(min(a, b), max(a, b)))
    if shift is not None:
        assert (position - space.low) >> shift == space.cell_of(position, depth)


@given(positions, positions, st.integers(2, 64), st.sampled_from([1, 64]))
def test_widths_are_powers_of_two_so_appends_keep_the_space(a, b, factor, align):
    low, high = min(a, b), max(a, b)
    space = KeySpace.spanning(low, high, factor, align)
    assert space.width & (space.width - 1) == 0
    last = space.low + space.scale * space.width - 1
    assert last >= high
    if last <= 2**63 - 1:
        # Keys appended up to the end of the headroom: the same space, the same cells.
        assert KeySpace.spanning(low, last, factor, align) == space


def test_an_append_past_the_headroom_moves_the_space():
    space = KeySpace.spanning(1, 1000, 32)
    assert space.width == 1024
    assert KeySpace.spanning(1, 1024, 32) == space
    assert KeySpace.spanning(1, 1025, 32) != space


@given(positions, positions, st.integers(2, 64), st.sampled_from([1, 64]), st.data())
def test_a_space_that_still_spans_covers_every_key(a, b, factor, align, data):
    space = KeySpace.spanning(min(a, b), max(a, b), factor, align)
    low = data.draw(st.integers(min(a, b), 2**63 - 1))
    high = data.draw(st.integers(low, 2**63 - 1))
    if space.still_spans(low, high, factor, align):
        assert space.low <= low and high < space.low + space.scale * space.width
        fresh = KeySpace.spanning(low, high, factor, align)
        assert space.scale == fresh.scale and space.width <= 2 * fresh.width


def test_a_last_space_serves_while_oldest_keys_go_and_new_ones_come():
    """A rolling window (keys 1..1000, then 301..1020): the last run's space still spans it;
    a window shrunk to a quarter, or one moved past the headroom, gets a space of its own."""
    space = KeySpace.spanning(1, 1000, 32)
    assert space.still_spans(301, 1020, 32)
    assert KeySpace.spanning(301, 1020, 32) != space
    assert not space.still_spans(301, 400, 32)
    assert not space.still_spans(301, 1025, 32)
    assert not space.still_spans(1, 1000, 16)


HASHED_BLOCK = 1 << (HASHED_POSITION_BITS - HASHED_BLOCK_BITS)


@pytest.mark.parametrize(
    ("factor", "answered"),
    [
        # 32^3 = 2^15 cells: the default first segment pass, each cell one block.
        (32, [0, 1, 2, 3]),
        (2, list(range(HASHED_BLOCK_BITS + 1))),
        (1 << 15, [0, 1]),
        (1 << 16, [0]),
        # No count of cells past one divides 2^15 blocks evenly.
        (10, [0]),
        (48, [0]),
    ],
)
def test_hashed_blocks_answer_the_depths_whose_cells_they_fill(factor, answered):
    space = KeySpace.hashed(factor)
    holding = [d for d in range(space.unit_depth() + 1) if space.holds_blocks(HASHED_BLOCK, d)]
    assert holding == answered


@given(st.sampled_from([2, 4, 8, 32, 10, 48]), st.integers(0, 3), st.data())
def test_a_hashed_block_lies_inside_one_cell_where_the_blocks_answer(factor, depth, data):
    space = KeySpace.hashed(factor)
    block = data.draw(st.integers(0, (1 << HASHED_BLOCK_BITS) - 1))
    first, last = block * HASHED_BLOCK, (block + 1) * HASHED_BLOCK - 1
    inside = space.cell_of(first, depth) == space.cell_of(last, depth)
    assert inside or not space.holds_blocks(HASHED_BLOCK, depth)


@given(positions, positions, st.integers(2, 64), st.sampled_from([1, 32, 64]), st.integers(0, 4))
def test_an_aligned_space_holds_its_blocks_at_every_depth(a, b, factor, align, depth):
    space = KeySpace.spanning(min(a, b), max(a, b), factor, align)
    assert space.holds_blocks(align, depth)
