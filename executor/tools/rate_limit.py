"""RateLimitShield: a token bucket per tool key, so a run cannot hammer a site or a model endpoint."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Literal

from executor.errors import RateLimitExceeded

RateProfile = Literal["low", "med", "high"]

#: (tokens per second, burst) per tool key. "low" suits fragile sites, "high" local fixtures.
PROFILES: dict[RateProfile, tuple[float, int]] = {
    "low": (1.0, 2),
    "med": (5.0, 5),
    "high": (50.0, 50),
}


class TokenBucket:
    """Classic token bucket on an injectable monotonic clock (tests drive the clock, not sleeps)."""

    def __init__(self, rate_per_s: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        if rate_per_s <= 0 or burst < 1:
            raise ValueError("a token bucket needs rate_per_s > 0 and burst >= 1")
        self.rate = rate_per_s
        self.burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now

    def try_acquire(self) -> float:
        """Takes a token and returns 0.0, or takes nothing and returns the seconds until one is due."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / self.rate


class RateLimitShield:
    def __init__(
        self,
        profile: RateProfile = "med",
        *,
        overrides: dict[str, tuple[float, int]] | None = None,
        max_wait_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.profile = profile
        self._default = PROFILES[profile]
        self._overrides = dict(overrides or {})
        self._buckets: dict[str, TokenBucket] = {}
        self._max_wait_s = max_wait_s
        self._clock = clock
        self._sleep = sleep

    def bucket(self, tool_key: str) -> TokenBucket:
        found = self._buckets.get(tool_key)
        if found is None:
            rate, burst = self._overrides.get(tool_key, self._default)
            found = self._buckets[tool_key] = TokenBucket(rate, burst, self._clock)
        return found

    async def acquire(self, tool_key: str) -> float:
        """Waits (pacing, not synchronisation) until the key has a token; returns the seconds waited.

        Raises RateLimitExceeded when the next token is further away than the hard limit, so a run
        with a starved key ends with a clear reason instead of hanging.
        """
        bucket = self.bucket(tool_key)
        waited = 0.0
        while True:
            wait = bucket.try_acquire()
            if wait == 0.0:
                return waited
            if waited + wait > self._max_wait_s:
                raise RateLimitExceeded(
                    f"rate limit for {tool_key!r}: next call allowed in {wait:.1f}s, "
                    f"over the {self._max_wait_s}s limit"
                )
            await self._sleep(wait)
            waited += wait
