"""Deadlines for browser calls: a page that never answers (a server that holds the request, a
`while(true){}` script) must not hold the run forever.

Every PlaywrightDriver call runs under `Deadlines.within`: the shorter of a per-call limit and the
time left before the run's wall (set from the run's time budget). Past it the call raises
BrowserUnresponsive, a TimeoutError, so the executor treats it like any other timeout.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

# Longer than Playwright's own navigation timeout (15 s), so its clearer errors come first.
DEFAULT_CALL_S = 20.0
MIN_CALL_S = 0.5  # past the wall a call still gets this long: enough to read a settled page


class BrowserUnresponsive(TimeoutError):
    """A browser call passed its deadline: the page or the browser stopped answering."""


class Deadlines:
    """The per-call limit and the run's wall (a `time.monotonic()` instant, or None for none)."""

    def __init__(self, call_s: float = DEFAULT_CALL_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.call_s = call_s
        self.wall: float | None = None
        self._clock = clock

    def seconds(self, limit_s: float | None = None) -> float:
        """How long the next call may take."""
        allowed = self.call_s if limit_s is None else min(self.call_s, limit_s)
        if self.wall is not None:
            allowed = min(allowed, self.wall - self._clock())
        return max(MIN_CALL_S, allowed)

    async def within(self, what: str, call: Awaitable[T], limit_s: float | None = None) -> T:
        seconds = self.seconds(limit_s)
        try:
            async with asyncio.timeout(seconds):
                return await call
        except TimeoutError as exc:
            raise BrowserUnresponsive(
                f"the page did not answer within {seconds:.1f} s ({what}); it may be stuck or still loading"
            ) from exc


class BrowserLost(Exception):
    """The browser process went away (crashed or killed) mid-run: nothing more can be done in it."""


class BrowserDidNotStart(Exception):
    """No browser could be launched or attached to: the program, display or address the settings name
    is not a Chromium that answers. The message says which setting to change (browser/launch.py)."""
