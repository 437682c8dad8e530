"""How long a side waits before it retries a query that failed for a passing reason: exponential
backoff with full jitter (a random wait up to a doubling bound), so that several sessions cut
off at once do not all come back at the same instant, bounded by a count of retries and a total
time."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

# The first retry waits up to BASE_SECONDS, each next one up to twice as long, never more than
# CAP_SECONDS.
BASE_SECONDS = 0.5
CAP_SECONDS = 8.0


@dataclass(frozen=True)
class Backoff:
    # How many times a query is run again, at most (0: never).
    retries: int
    # How long after the first failure a retry may still start.
    seconds: float

    def wait(
        self,
        retry: int,
        elapsed: float,
        draw: Callable[[float, float], float] = random.uniform,
    ) -> float | None:
        """Seconds to wait before retry number ``retry`` (from 1), ``elapsed`` seconds after the
        first failure; None when the retries or the time are spent. ``draw`` picks the jitter
        between its two bounds."""
        left = self.seconds - elapsed
        if retry > self.retries or left <= 0:
            return None
        bound = min(CAP_SECONDS, BASE_SECONDS * 2 ** (retry - 1))
        return min(draw(0.0, bound), left)
