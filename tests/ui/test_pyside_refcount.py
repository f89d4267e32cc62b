"""Guards the PySide6 6.12.0 reference-count bug (docs/architecture.md, "Platform notes"): emits must
not eat True/None refs.

On an affected build each Signal.emit drops a reference to True and each processEvents one to
None; a few thousand later Python aborts (bool_dealloc / none_dealloc), at exit if not sooner.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QCoreApplication, QObject, Signal
from pytestqt.qtbot import QtBot

ROUNDS = 3000


class Emitter(QObject):
    #: A flag, as busy_changed carries.
    flagged = Signal(bool)
    #: Any payload, as the controller's event signals carry.
    carried = Signal(object)


def test_emitting_and_processing_events_keep_refcounts(qtbot: QtBot) -> None:
    emitter = Emitter()
    got: list[object] = []
    emitter.flagged.connect(got.append)
    emitter.carried.connect(got.append)
    before = {name: sys.getrefcount(obj) for name, obj in (("True", True), ("False", False), ("None", None))}
    for n in range(ROUNDS):
        emitter.flagged.emit(n % 2 == 0)
        emitter.carried.emit(None)
        QCoreApplication.processEvents()
    got.clear()
    after = {name: sys.getrefcount(obj) for name, obj in (("True", True), ("False", False), ("None", None))}
    drift = {name: after[name] - before[name] for name in before}
    assert all(abs(d) < ROUNDS // 10 for d in drift.values()), f"refcount drift {drift}: PySide6 bug?"
