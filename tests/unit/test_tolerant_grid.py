"""The tolerance grids of the reference (parity.reference.hash_grid), the oracle every engine's
tolerant checksum text is held to: two values that hash alike are within tolerance, always, in
exact arithmetic; values drifting much less than the tolerance mostly hash alike."""

from __future__ import annotations

import datetime as dt
import math
import random
import re
from fractions import Fraction

from hypothesis import example, given, settings
from hypothesis import strategies as st

from parity.reference import canonical_text, float_label, hash_grid, tolerant_text
from tests.examples import examples

FLOAT = {"kind": "float", "bits": 64}
TOLERANCES = st.fixed_dictionaries(
    {},
    optional={
        "abs_tol": st.sampled_from([0, 1e-300, 1e-12, 0.01, 3.0, 2.0**60]),
        "rel_tol": st.sampled_from([0, 1e-15, 1e-9, 1e-3, 0.4, 0.999]),
        "rel_floor": st.sampled_from([0, 1e-6, 1.0, 1e6]),
    },
)


def hashed(profile: dict, grid: dict, value):
    return tolerant_text(grid, canonical_text(profile, value))


def within(a: float, b: float, tolerance: dict) -> bool:
    """The verdict's rule (README "Tolerance"), in exact arithmetic."""
    if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
        return a == b or (math.isnan(a) and math.isnan(b))
    delta = abs(Fraction(a) - Fraction(b))
    scale = max(abs(Fraction(a)), abs(Fraction(b)), Fraction(tolerance.get("rel_floor", 0)))
    return delta <= Fraction(tolerance.get("abs_tol", 0)) or delta <= scale * Fraction(
        tolerance.get("rel_tol", 0)
    )


def nearby(draw_value: float, how: int, amount: float) -> float:
    if how == 0:
        return draw_value * (1 + amount)
    if how == 1:
        return draw_value + amount
    return math.nextafter(draw_value, math.inf) if how == 2 else -draw_value


@settings(max_examples=examples(3000), deadline=None)
@given(
    TOLERANCES,
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 3),
    st.sampled_from([1e-15, 1e-12, 1e-9, 1e-6, 1e-3, 0.3, 2.0, -1e-9, -0.4]),
)
@example({"rel_tol": 1e-9}, 1.0, 0, 1e-9)
@example({"abs_tol": 0.01}, 0.005, 1, 0.0099)
@example({"abs_tol": 0.01, "rel_tol": 1e-9}, 8388608.0, 1, -0.0078)
def test_values_hashing_alike_are_within_tolerance(tolerance, a, how, amount):
    grid = hash_grid("float", tolerance)
    b = nearby(a, how, amount)
    if grid is None or math.isnan(b):
        return
    if hashed(FLOAT, grid, a) == hashed(FLOAT, grid, b):
        assert within(a, b, tolerance), (a, b, grid)


def test_no_tolerance_means_no_float_grid():
    assert hash_grid("float", {}) is None
    assert hash_grid("float", {"rel_tol": 1e-17}) is None  # finer than a double's spacing
    assert hash_grid("integer", {"abs_tol": 1}) is None
    assert hash_grid("decimal", {"rel_tol": 0.1}) is None


def test_labels_are_the_grid_cells():
    grid = hash_grid("float", {"abs_tol": 0.01})
    assert grid["step"] == 2.0**-7  # the largest power of two within 0.01
    assert float_label(0.0039, grid) == 0.0  # the nearest multiple of the step
    assert float_label(0.004, grid) == 2.0**-7
    relative = hash_grid("float", {"rel_tol": 1e-9})
    assert relative["dropped_bits"] == 22  # 31 bits kept: a spacing of at most 2^-30
    assert float_label(1.0 + 2.0**-40, relative) == 1.0
    for special in (math.inf, -math.inf, 0.0):
        assert float_label(special, relative) == special
    assert math.isnan(float_label(math.nan, relative))


def straddling(grid: dict, pairs) -> float:
    return sum(hashed(FLOAT, grid, a) != hashed(FLOAT, grid, b) for a, b in pairs) / len(pairs)


def test_a_drift_well_inside_the_tolerance_mostly_hashes_alike():
    rng = random.Random(7)
    values = [rng.uniform(-1e6, 1e6) for _ in range(20_000)]
    # 1e-12 relative against 1e-9: at most drift / spacing, 1e-12 * 2^31, of the values move.
    drifted = [(v, v * (1 + 1e-12)) for v in values]
    assert straddling(hash_grid("float", {"rel_tol": 1e-9}), drifted) < 0.0025
    assert (
        straddling(hash_grid("float", {"abs_tol": 0.01}), [(v, v + 1e-6) for v in values]) < 0.001
    )


TIMESTAMP = {"kind": "timestamp", "digits": 6, "rounding": "truncate"}


def loaded(micros: int, rounding: str) -> int:
    """A copy a loader cut to milliseconds: rounded half up, or truncated."""
    return (micros + (500 if rounding == "nearest" else 0)) // 1000 * 1000


@settings(max_examples=examples(2000), deadline=None)
@given(
    st.integers(-(10**16), 10**16), st.integers(-1500, 1500), st.sampled_from(["nearest", "floor"])
)
def test_timestamps_hashing_alike_are_within_tolerance(micros, drift, alignment):
    grid = hash_grid("timestamp", {"temporal_tolerance_ms": 1, "temporal_grid": alignment})
    a, b = (
        dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=m) for m in (micros, micros + drift)
    )
    if hashed(TIMESTAMP, grid, a) == hashed(TIMESTAMP, grid, b):
        assert abs(drift) <= 1000


def test_copies_cut_to_the_tolerance_hash_alike_on_the_matching_grid():
    rng = random.Random(11)
    instants = [rng.randrange(-(10**15), 10**15) for _ in range(5_000)]
    for alignment in ("nearest", "floor"):
        grid = hash_grid("timestamp", {"temporal_tolerance_ms": 1, "temporal_grid": alignment})
        for micros in instants:
            a, b = (
                dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=m)
                for m in (micros, loaded(micros, alignment))
            )
            assert hashed(TIMESTAMP, grid, a) == hashed(TIMESTAMP, grid, b)


STRING = {"kind": "string", "padded": False}
STRING_OPTIONS = ("trim", "case_insensitive", "empty_equals_null")
# Blanks, ASCII letters, and letters whose case rules depend on locale or context.
ALPHABET = " \tAaBb\u0130\u0131\u03a3\u03c3\u03c2"


def verdict_text(text: str | None, options: dict) -> str | None:
    """The verdict's normalization in Spark (src/parity/comparison/tolerance.py), in Python."""
    if text is None:
        return None
    if options.get("trim"):
        text = re.sub(r"^[ \t\n\x0b\f\r]+|[ \t\n\x0b\f\r]+$", "", text)
    if options.get("case_insensitive"):
        text = text.lower()
    return None if options.get("empty_equals_null") and text == "" else text


@settings(max_examples=examples(2000), deadline=None)
@given(
    st.fixed_dictionaries({o: st.booleans() for o in STRING_OPTIONS}),
    st.one_of(st.none(), st.text(alphabet=ALPHABET, max_size=5)),
    st.one_of(st.none(), st.text(alphabet=ALPHABET, max_size=5)),
)
def test_strings_hashing_alike_are_alike_to_the_verdict(options, a, b):
    grid = hash_grid("string", options)
    if grid is None:
        return
    if hashed(STRING, grid, a) == hashed(STRING, grid, b):
        assert verdict_text(a, options) == verdict_text(b, options)
