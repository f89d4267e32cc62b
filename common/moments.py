"""Named moments in Waypost's own code that a fault test waits for (docs/architecture.md, "Faults
(every run ends, says why, and can be resumed)").

A fault test stops a real `waypost` process at a chosen moment (a signal while the receipts' lock is
being taken, say). Guessing that moment with a clock offset lands somewhere else on a loaded machine,
so the code names its moments instead: `reached("receipts.locked")`.

With WAYPOST_MOMENTS set to a file descriptor the process inherited (the test's pipe), each name is
written there, one a line. A name listed in WAYPOST_HOLD_AT (comma-separated) also waits, right there,
for one byte (or the end of input) on the descriptor WAYPOST_MOMENTS_GO names: the test does what it
came to do, then lets the process go on. Without WAYPOST_MOMENTS, `reached` returns at once.
"""

from __future__ import annotations

import os


def _descriptor(var: str) -> int | None:
    value = os.environ.get(var, "")
    return int(value) if value.isdigit() else None


_OUT = _descriptor("WAYPOST_MOMENTS")
_GO = _descriptor("WAYPOST_MOMENTS_GO")
_HOLD = frozenset(name for name in os.environ.get("WAYPOST_HOLD_AT", "").split(",") if name)


def reached(name: str) -> None:
    """Tells a watching test that the code is at `name`; holds there when the test asked for it."""
    if _OUT is None:
        return
    try:
        os.write(_OUT, f"{name}\n".encode())
    except OSError:
        return  # the test stopped watching
    if name in _HOLD and _GO is not None:
        try:
            os.read(_GO, 1)
        except OSError:
            return
