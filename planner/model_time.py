"""How long model calls may still take here: the model's share of a run's time, a tool's timeout.

Whoever owns a time budget opens a scope with `limited(seconds_left)`, a function saying how many
seconds model calls may still use; scopes nest and the tightest one wins. `planner/llm.py` reads
`left_s()` before every call: at zero no request is sent, and a call is cut when the time runs out,
so the caller answers with its rules while the run still has time (docs/architecture.md, "Slow models").
This keeps the planner free of executor imports, like `metering.metered`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar

from common.scoped import Scoped

SecondsLeft = Callable[[], float]

_open: ContextVar[tuple[SecondsLeft, ...]] = ContextVar("waypost_model_time", default=())


def limited(seconds_left: SecondsLeft) -> Scoped[tuple[SecondsLeft, ...], None]:
    """Model calls made inside (in this task or tasks it starts) end before `seconds_left()` is 0."""
    return Scoped(_open, (*_open.get(), seconds_left), None)


def within(seconds: float) -> SecondsLeft:
    """A fixed allowance counted from now (a tool's timeout less what its rule path needs)."""
    until = time.monotonic() + seconds
    return lambda: until - time.monotonic()


def left_s() -> float | None:
    """Seconds model calls may still take in the current context; None when nothing limits them."""
    limits = _open.get()
    if not limits:
        return None
    return max(0.0, min(limit() for limit in limits))
