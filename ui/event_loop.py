"""The asyncio loop the window runs on: qasync's QEventLoop, made in one place for app and tests.

Blocking work (`asyncio.to_thread`) stays on qasync's own QThread executor: futures completed from
plain Python threads into the qasync loop crashed the Qt process (segfaults in processEvents), so
the core keeps its short SQLite writes on the loop thread rather than in a thread pool.

qasync's close() leaves its timer object (with Qt timers still registered) and its call-soon
signaller to the garbage collector. When a later collection runs on another thread (a Playwright or
executor thread), Qt destroys them there: "Timers cannot be stopped from another thread", then a
crash in QTimerInfoList::activateTimers. QtEventLoop.close() ends both on the loop's own thread.
"""

from __future__ import annotations

import qasync
import shiboken6
from PySide6.QtCore import QObject, QThread
from PySide6.QtWidgets import QApplication


class QtEventLoop(qasync.QEventLoop):  # type: ignore[misc]
    """qasync's loop whose close() also kills its pending Qt timers and deletes its QObjects."""

    def close(self) -> None:
        was_closed = self.is_closed()
        super().close()
        if not was_closed:
            _dispose(self._timer, self._pending_timer_ids())
            _dispose(getattr(self, "_QEventLoop__call_soon_signaller", None), [])

    def _pending_timer_ids(self) -> list[int]:
        callbacks = getattr(self._timer, "_SimpleTimer__callbacks", {})
        ids = list(callbacks)
        callbacks.clear()  # drops the handles (and the coroutines they hold) with the timers
        return ids


def _dispose(obj: QObject | None, timer_ids: list[int]) -> None:
    """Kills `timer_ids` on `obj` and deletes it now, if this thread owns it (Qt's rule for both)."""
    if obj is None or not shiboken6.isValid(obj) or obj.thread() is not QThread.currentThread():
        return
    for timer_id in timer_ids:
        obj.killTimer(timer_id)
    shiboken6.delete(obj)


def new_event_loop(app: QApplication) -> QtEventLoop:
    return QtEventLoop(app)
