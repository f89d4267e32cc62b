"""The asyncio loop the window runs on: qasync's QEventLoop, made in one place for app and tests.

Blocking work (`asyncio.to_thread`) stays on qasync's own QThread executor: futures completed from
plain Python threads into the qasync loop crashed the Qt process (segfaults in processEvents), so
the core keeps its short SQLite writes on the loop thread rather than in a thread pool.
"""

from __future__ import annotations

import qasync
from PySide6.QtWidgets import QApplication


def new_event_loop(app: QApplication) -> qasync.QEventLoop:
    return qasync.QEventLoop(app)
