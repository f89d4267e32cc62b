"""The asyncio loop the window runs on: qasync's QEventLoop with plain threads for blocking work.

qasync's default executor is a pool of QThreads; its threads outlived test loops and a QThread
destroyed while running brought the process down. Blocking work (file and SQLite writes of
receipts and checkpoints) needs no Qt, so it gets ordinary threads.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import qasync
from PySide6.QtWidgets import QApplication


def new_event_loop(app: QApplication) -> qasync.QEventLoop:
    loop = qasync.QEventLoop(app)
    loop.set_default_executor(ThreadPoolExecutor(thread_name_prefix="waypost-io"))
    return loop
