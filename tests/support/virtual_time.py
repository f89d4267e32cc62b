"""Clocks a test moves by hand, so time a person spends thinking costs the suite nothing.

`VirtualTimeLoop` is an asyncio loop whose `time()` jumps to the next timer when nothing else is
ready, so `asyncio.timeout` deadlines and `loop.time` clocks follow the scenario's time, not the
machine's. `ManualClock` stands still until the test moves it. `JumpClock` is a monotonic clock a
test can push forward while a real loop runs (the Qt window's loop cannot be virtual: it drives
real widgets).
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class NothingScheduled(RuntimeError):
    """The virtual loop has no timer and nothing ready: the scenario would wait forever."""


class _JumpingSelector(selectors.DefaultSelector):
    """Polls without blocking; a wait for the next timer becomes a jump of the loop's clock."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        super().__init__()
        self._loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(0)
        if ready or timeout == 0:
            return ready
        if timeout is None:
            raise NothingScheduled("nothing is scheduled on the virtual loop")
        self._loop.now += timeout
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on virtual time: `await asyncio.sleep(s)` returns at once, `s` later."""

    def __init__(self) -> None:
        self.now = 0.0
        super().__init__(_JumpingSelector(self))

    def time(self) -> float:
        return self.now


def run_virtual(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Runs `scenario()` to its end on a fresh VirtualTimeLoop."""
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        return runner.run(scenario())


def pass_time(seconds: float) -> Awaitable[None]:
    """Lets `seconds` of the virtual loop's time go by, every timer due meanwhile firing in order."""
    loop = asyncio.get_running_loop()
    if not isinstance(loop, VirtualTimeLoop):
        raise TypeError("pass_time runs on a VirtualTimeLoop only; a real loop would sleep")
    return asyncio.sleep(seconds)


class ManualClock:
    """A clock that stands still until the test moves it (`now += s`, or `await sleep(s)` where
    the code under test is handed a sleep function)."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


class JumpClock:
    """time.monotonic, plus the jumps a test makes with `advance`."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds
