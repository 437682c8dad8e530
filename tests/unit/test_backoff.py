"""The wait before each retry: exponential with full jitter, bounded by a count and a time."""

from __future__ import annotations

import random

from parity.sides.backoff import BASE_SECONDS, CAP_SECONDS, Backoff


def upper(low: float, high: float) -> float:
    """The jitter at its largest."""
    return high


def test_the_bound_doubles_from_the_base_up_to_the_cap():
    backoff = Backoff(retries=8, seconds=1000)
    waits = [backoff.wait(retry, 0, upper) for retry in range(1, 9)]
    assert waits == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0]
    assert (BASE_SECONDS, CAP_SECONDS) == (0.5, 8.0)


def test_no_retry_past_the_count():
    backoff = Backoff(retries=2, seconds=1000)
    assert backoff.wait(2, 0, upper) is not None
    assert backoff.wait(3, 0, upper) is None
    assert Backoff(retries=0, seconds=1000).wait(1, 0, upper) is None


def test_no_wait_ends_past_the_time():
    backoff = Backoff(retries=10, seconds=5)
    assert backoff.wait(4, 3.5, upper) == 1.5  # 4 s wanted, 1.5 s left
    assert backoff.wait(1, 5, upper) is None
    assert backoff.wait(1, 7, upper) is None


def test_full_jitter_stays_within_zero_and_the_bound():
    backoff, draws = Backoff(retries=6, seconds=1000), random.Random(18)
    for retry in range(1, 7):
        bound = min(CAP_SECONDS, BASE_SECONDS * 2 ** (retry - 1))
        waits = [backoff.wait(retry, 0, draws.uniform) for _ in range(200)]
        assert all(0 <= wait <= bound for wait in waits)
        # Spread over the whole range, not stuck at one end.
        assert min(waits) < bound / 4 and max(waits) > bound * 3 / 4


def test_a_whole_schedule_fits_its_count_and_time():
    backoff, draws = Backoff(retries=4, seconds=3), random.Random(7)
    elapsed, retries = 0.0, 0
    while (
        wait := backoff.wait(retries + 1, elapsed, upper if retries % 2 else draws.uniform)
    ) is not None:
        elapsed += wait
        retries += 1
    assert retries <= 4 and elapsed <= 3
