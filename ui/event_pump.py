"""The pump between one run's event bus and the window: every event, in order, as a Qt signal.

The controller asks a gate question only once everything published before it has reached the window
(`catch_up`), so the plan rows are up to date when the dialog opens. The bus type loads with the
first run (ui/run_bus.py), after the window has painted.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from executor.journal.events import RunEvent
    from executor.models import RunBundleV1
    from ui.run_bus import CountingBus


class EventPump:
    """Drives one run at a time; `emit` is called with each of its events on the loop's thread."""

    def __init__(self, emit: Callable[[RunEvent], None]) -> None:
        self._emit = emit
        self._bus: CountingBus | None = None
        self._delivered = 0
        self._progress = asyncio.Event()

    @staticmethod
    def new_bus() -> CountingBus:
        from ui.run_bus import CountingBus

        return CountingBus()

    async def catch_up(self) -> None:
        """Waits until every event published so far was emitted (gate_pending included)."""
        while self._bus is not None and self._delivered < self._bus.published:
            self._progress.clear()
            await self._progress.wait()

    async def drive(self, bus: CountingBus, run: Coroutine[Any, Any, RunBundleV1]) -> RunBundleV1:
        """Runs the core while a pump task turns bus events into signals; the bundle once every
        event reached the window."""
        self._bus, self._delivered = bus, 0
        events = bus.subscribe()  # subscribed now, before the run publishes anything
        pump = asyncio.get_running_loop().create_task(self._pump(events))
        try:
            bundle = await run
            await pump  # ends at run_finished: every event reached the window first
        finally:
            self._bus = None
            if not pump.done():
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pump
        return bundle

    async def _pump(self, events: AsyncIterator[RunEvent]) -> None:
        async for event in events:
            self._emit(event)
            self._delivered += 1
            self._progress.set()
