"""Spreads runs over browser endpoints: at most `limit` runs on each, the least busy first.

An endpoint that died takes no more runs; a run moved off a dead endpoint prefers another one.
Without endpoints there is one local slot: each run launches its own Chromium here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass


class NoEndpointLeft(RuntimeError):
    """Every browser endpoint of the batch has died."""


@dataclass
class Slot:
    url: str | None  # None: a browser launched on this machine
    limit: int
    active: int = 0
    served: int = 0
    dead: bool = False

    @property
    def label(self) -> str:
        return self.url or "local"


class EndpointPool:
    def __init__(self, urls: list[str], limit_each: int) -> None:
        self.slots = [Slot(url, limit_each) for url in urls] or [Slot(None, limit_each)]
        self._changed = asyncio.Condition()

    def _pick(self, avoid: Slot | None) -> Slot | None:
        free = [s for s in self.slots if not s.dead and s.active < s.limit]
        if not free:
            return None
        return min(free, key=lambda s: (s is avoid, s.active, s.served))

    async def acquire(self, avoid: Slot | None = None) -> Slot:
        """A slot with room (waiting for one), or NoEndpointLeft when every endpoint is dead."""
        async with self._changed:
            while True:
                if all(s.dead for s in self.slots):
                    raise NoEndpointLeft("every browser endpoint of this batch stopped answering")
                slot = self._pick(avoid)
                if slot is not None:
                    slot.active += 1
                    slot.served += 1
                    return slot
                await self._changed.wait()

    async def release(self, slot: Slot) -> None:
        async with self._changed:
            slot.active -= 1
            self._changed.notify_all()

    async def mark_dead(self, slot: Slot) -> None:
        async with self._changed:
            slot.dead = True
            self._changed.notify_all()
