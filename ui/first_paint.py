"""Waiting for a widget's first paint, so slow start-up work runs after the person sees the window."""

from __future__ import annotations

import asyncio
import contextlib

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QWidget

#: A window that never paints (minimised at start, a platform without exposure events) must not keep
#: the core from being built: after this long the caller goes on anyway.
PAINT_WAIT_S = 2.0


class _PaintWatch(QObject):
    """Resolves a future at the watched widget's first Paint event; never consumes the event."""

    def __init__(self, done: asyncio.Future[None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._done = done

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self._done.done():
            self._done.set_result(None)
        return False


async def painted(widget: QWidget, timeout_s: float = PAINT_WAIT_S) -> bool:
    """Returns once `widget` has painted (True), or after `timeout_s` without a paint (False)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    watch = _PaintWatch(done, widget)
    widget.installEventFilter(watch)
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done, timeout_s)
    finally:
        widget.removeEventFilter(watch)
        watch.deleteLater()
    return done.done() and not done.cancelled()
