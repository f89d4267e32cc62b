"""The window's loop leaves no Qt timer or QObject behind for another thread to destroy."""

from __future__ import annotations

import shiboken6
from PySide6.QtWidgets import QApplication

from ui.event_loop import new_event_loop


def test_close_kills_pending_timers_and_deletes_qasync_qobjects(qapp: QApplication) -> None:
    loop = new_event_loop(qapp)
    loop.call_later(60, lambda: None)  # a Qt timer still registered when the loop closes
    timer = loop._timer
    signaller = loop._QEventLoop__call_soon_signaller
    assert shiboken6.isValid(timer) and shiboken6.isValid(signaller)
    loop.close()
    # Deleted here, on the loop's thread: a later GC on a Playwright thread has nothing to destroy.
    assert not shiboken6.isValid(timer)
    assert not shiboken6.isValid(signaller)
    loop.close()  # a second close is harmless
