"""Opening something outside the app (a run folder, a report, a cited page), and saying so when it fails.

Qt's QDesktopServices.openUrl starts xdg-open and reports only whether it started: xdg-open ending with
code 3 (no program for that kind of file) or a browser that refuses to run (as root, say) went
unnoticed. On Linux the opener is therefore run here and watched: it counts as failed when it cannot
start, or ends with a non-zero code within FAILED_WITHIN_MS; a program still running then is taken to
have opened it (a browser stays open). Elsewhere Qt's own answer is all there is. A failure comes back
as a sentence with the path or address, which OpenNote shows with a Copy button.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, QProcess, Qt, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from ui.icons import icon

#: An opener that has not failed by then has handed the thing to a program that is showing it.
FAILED_WITHIN_MS = 5_000


def shown(url: QUrl) -> str:
    """What a person copies: the file's path, or the web address."""
    return url.toLocalFile() if url.isLocalFile() else url.toString()


class Opener(QObject):
    """Opens URLs outside the app; `failed(target, why)` when nothing could open one."""

    #: Nothing could open it: (the path or address, why, in words).
    failed = Signal(str, str)

    def __init__(self, parent: QObject | None = None, *, command: str | None = None) -> None:
        """`command`: the opener program (default: xdg-open on Linux, Qt's own elsewhere)."""
        super().__init__(parent)
        self.command = command if command is not None else (shutil.which("xdg-open") or "")
        self.use_qt = not sys.platform.startswith("linux") or not self.command
        self._running: set[QProcess] = set()

    def open(self, url: QUrl) -> bool:
        """Starts opening `url`; False (and `failed`) when it could not even start."""
        target = shown(url)
        if self.use_qt:
            if QDesktopServices.openUrl(url):
                return True
            self.failed.emit(target, "no program on this computer opens it")
            return False
        process = QProcess(self)
        self._running.add(process)
        process.finished.connect(lambda code, _status: self._ended(process, target, code))
        process.errorOccurred.connect(lambda error: self._not_started(process, target, error))
        QTimer.singleShot(FAILED_WITHIN_MS, lambda: self._settled(process))
        process.start(self.command, [url.toString()])
        return True

    def _ended(self, process: QProcess, target: str, code: int) -> None:
        if process not in self._running:
            return
        self._settled(process)
        if code != 0:
            self.failed.emit(target, _why(self.command, code))

    def _not_started(self, process: QProcess, target: str, error: QProcess.ProcessError) -> None:
        if error is QProcess.ProcessError.FailedToStart and process in self._running:
            self._settled(process)
            self.failed.emit(target, f"{self.command} could not be started")

    def _settled(self, process: QProcess) -> None:
        """Stops watching: the opener ended, or it has been showing the thing long enough."""
        self._running.discard(process)


def _why(command: str, code: int) -> str:
    """xdg-open's exit codes in words (3: no program for it; 4: the program failed)."""
    words = {3: "no program on this computer opens it", 4: "the program meant to open it failed to start"}
    return words.get(code, f"{command} ended with code {code}")


class OpenNote(QWidget):
    """ "Could not open …: <path> [Copy]", shown where the person clicked; hidden until needed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target = ""
        self.label = QLabel("")
        self.label.setObjectName("notice")
        self.label.setProperty("kind", "error")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.copy_button = QPushButton(icon("copy"), "&Copy")
        self.copy_button.setToolTip("Copy the path or address, to open it yourself")
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.label, 1)
        box.addWidget(self.copy_button)
        self.copy_button.clicked.connect(self.copy)
        self.hide()

    @Slot(str, str)
    def show_failure(self, target: str, why: str) -> None:
        self.target = target
        self.label.setText(f"Could not open it here: {why}. Copy it and open it yourself:\n{target}")
        self.show()

    @Slot()
    def copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.target)
        self.copy_button.setText("Copied")


#: How panels open URLs: the app's Opener, or a stand-in in tests.
OpenUrl = Callable[[QUrl], bool]
