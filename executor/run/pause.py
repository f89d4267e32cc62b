"""Pause between steps: the run holds at a safe point, its browser and state kept, until resumed.

The person's window (the ConfirmHandler) may also offer `hold_requested` and `hold()`; the conductor
calls `hold_point` before each step. Time held is the person's, not the agent's: it is kept out of
the time budget like a gate's question.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from executor.run.budget import BudgetEnforcer


async def hold_point(handler: object, budget: BudgetEnforcer) -> None:
    """Waits here while the person has paused the run (a no-op for handlers that cannot pause).

    The handler's `hold_requested` and `hold()` are looked up by name: this runs before every step,
    and an isinstance check against a runtime-checkable Protocol costs tens of microseconds."""
    if not getattr(handler, "hold_requested", False):
        return
    hold: Callable[[], Awaitable[None]] | None = getattr(handler, "hold", None)
    if callable(hold):
        with budget.person_waiting():
            await hold()
