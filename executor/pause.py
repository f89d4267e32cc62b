"""Pause between steps: the run holds at a safe point, its browser and state kept, until resumed.

The person's window (the ConfirmHandler) may also offer `hold_requested` and `hold()`; the conductor
calls `hold_point` before each step. Time held is the person's, not the agent's: it is kept out of
the time budget like a gate's question.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from executor.budget import BudgetEnforcer


@runtime_checkable
class Holder(Protocol):
    @property
    def hold_requested(self) -> bool: ...

    async def hold(self) -> None: ...


async def hold_point(handler: object, budget: BudgetEnforcer) -> None:
    """Waits here while the person has paused the run (a no-op for handlers that cannot pause)."""
    if isinstance(handler, Holder) and handler.hold_requested:
        with budget.person_waiting():
            await handler.hold()
