"""The window's "Waiting for you" tab: runs an assistant started over MCP that wait at a gate.

An assistant cannot approve (docs/architecture.md, "MCP server"); the person does it here. Choosing a
run resumes it through the window's own resume path, so its gate is asked in the gate dialog and
secrets it needs are asked for first. The list is read from the run store and
`executor/store/channel_runs.py`; Refresh reads it again.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from executor.store.channel_runs import waiting_channel_runs
from executor.store.rows import RunSummary
from ui.controller import RunController

EMPTY = "No assistant run is waiting for you."


def waiting_text(run: RunSummary) -> str:
    """Two lines: the task, then the gate in the run's own words."""
    gate = run.pending.message if run.pending and run.pending.message else "a confirmation"
    step = f" (step '{run.pending.step_name}')" if run.pending and run.pending.step_name else ""
    return f"{run.task}\n    waits for: {gate}{step}"


class WaitingRunsView(QWidget):
    #: The person chose a run to look at and answer (run_id).
    resume_requested = Signal(str)
    #: The person asked to read the list again.
    refresh_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = QLabel(
            "Runs an assistant started over MCP stop at every gate. Open one to see the question "
            "and approve or decline it; the assistant cannot."
        )
        self.note.setWordWrap(True)
        self.runs = QListWidget()
        self.open_button = QPushButton("&Open the question…")
        self.refresh_button = QPushButton("Refresh")
        buttons = QHBoxLayout()
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.runs, 1)
        layout.addLayout(buttons)
        self.open_button.clicked.connect(self._on_open)
        self.runs.itemActivated.connect(lambda _item: self._on_open())
        self.refresh_button.clicked.connect(self.refresh_requested)
        self.set_runs([])

    @classmethod
    def into(
        cls, tabs: QTabWidget, on_open: Callable[[str], None], on_refresh: Callable[[], None]
    ) -> WaitingRunsView:
        """The tab, added to the window's tabs and wired to its resume path and its refresh."""
        view = cls()
        tabs.addTab(view, "&Waiting for you")
        view.resume_requested.connect(on_open)
        view.refresh_requested.connect(on_refresh)
        return view

    def show_waiting(self, controller: RunController) -> None:
        """Reads the list again (empty while the core is still being built)."""
        if not controller.core_is_ready:
            self.set_runs([])
            return
        self.set_runs(waiting_channel_runs(controller.core.runs_dir, controller.history()))

    def set_runs(self, runs: list[RunSummary]) -> None:
        self.runs.clear()
        for run in runs:
            item = QListWidgetItem(waiting_text(run))
            item.setData(Qt.ItemDataRole.UserRole, run.run_id)
            item.setToolTip(run.run_id)
            self.runs.addItem(item)
        if not runs:
            placeholder = QListWidgetItem(EMPTY)
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.runs.addItem(placeholder)
        else:
            self.runs.setCurrentRow(0)
        self.open_button.setEnabled(bool(runs))

    @Slot()
    def _on_open(self) -> None:
        item = self.runs.currentItem()
        run_id = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        if isinstance(run_id, str):
            self.resume_requested.emit(run_id)
