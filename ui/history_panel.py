"""Run history from the checkpoint store: status, time, task; open receipts, resume a paused run,
replay a recorded run without a model (QA regression check)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.history_words import distinctive, site_of, when_text
from ui.icons import icon
from ui.theme import status_colour
from ui.words import history_words

if TYPE_CHECKING:  # the core's types: the window paints before they load (docs/architecture.md)
    from executor.store.rows import RunSummary

#: The run id is in every cell's tooltip: as a column it took the task's room in a narrow window.
COLUMNS = ("Status", "When", "Site", "Task")
TASK_COLUMN = 3
#: Narrower than this, the Site column is hidden (the task's own words say more).
NARROW = 560
#: How the store says a run is going on, or (when it is not the one going on now) was interrupted.
RUNNING = "RUNNING"
#: Statuses a run can be continued from: paused at a gate, or interrupted mid-run (Stop, crash).
RESUMABLE = frozenset({"NEEDS_CONFIRMATION", RUNNING})
_TONES = {
    "SUCCESS": "ok",
    "REPLAY_OK": "ok",
    "NEEDS_CONFIRMATION": "warn",
    "NEEDS_CLARIFICATION": "warn",
    "INTERRUPTED": "warn",
    "RUNNING": "info",
    "PARTIAL": "warn",
    "FAILED": "bad",
    "BLOCKED_POLICY": "bad",
    "DECLINED": "bad",
    "ABORTED_BUDGET": "bad",
    "REPLAY_DRIFT": "bad",
    "REPLAY_NOTHING": "warn",
}
#: Modes that search the web: a run of one that names no site shows where it went this way.
_SEARCHING = {"RESEARCH_ONLY", "HYBRID", "ACTION_THEN_RESEARCH", "CLARIFY_OR_FALLBACK"}


def status_code(summary: RunSummary, active_run: str | None) -> str:
    """RUNNING in the store means interrupted unless it is the run going on right now; a blocked run
    the person declined says so."""
    if summary.status == RUNNING and summary.run_id != active_run:
        return "INTERRUPTED"
    pending = summary.pending
    if summary.status == "BLOCKED_POLICY" and pending is not None and "declined" in pending.message:
        return "DECLINED"
    return summary.status


def status_text(summary: RunSummary, active_run: str | None) -> str:
    """The status in people's words ("Waiting for you", "Stopped; can resume"); the code is in the tooltip."""
    return history_words(status_code(summary, active_run))


def site_text(summary: RunSummary) -> str:
    """The host of the page the run was given (in the task or the URL field); for a run given none
    that searched, "web search"."""
    site = site_of(summary.page or "") or site_of(summary.task)
    return site or ("web search" if summary.exec_mode in _SEARCHING else "")


class HistoryPanel(QWidget):
    #: Show this run's receipts (run_id, run_dir).
    receipts_requested = Signal(str, str)
    #: Continue this paused or interrupted run (run_id).
    resume_requested = Signal(str)
    #: Replay this run's recorded actions (run id).
    replay_requested = Signal(str)
    #: Reload the list from the store.
    refresh_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runs: list[RunSummary] = []
        self._active: str | None = None
        self._busy = False
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setAccessibleName("Run history")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # the start and the end both show
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(TASK_COLUMN, QHeaderView.ResizeMode.Stretch)
        # Mnemonics unlike the task box's (&Plan, &Run) and the menus' (&File, &Examples).
        self.receipts_button = QPushButton(icon("receipts"), "Receip&ts")
        self.receipts_button.setToolTip("Open this run's receipts")
        self.resume_button = QPushButton(icon("resume"), "Resu&me")
        self.resume_button.setToolTip("Continue a run paused at a gate or interrupted")
        self.replay_button = QPushButton(icon("replay"), "Repla&y")
        self.replay_button.setEnabled(False)
        self.replay_button.setToolTip(
            "Re-run the recorded actions without a model; report where the site drifted"
        )
        self.refresh_button = QToolButton()  # an icon: four labelled buttons fit an 800 px window
        self.refresh_button.setIcon(icon("refresh"))
        self.refresh_button.setToolTip("Reload the list (F5)")
        self.refresh_button.setShortcut(QKeySequence(QKeySequence.StandardKey.Refresh))
        buttons = QHBoxLayout()
        buttons.addWidget(self.receipts_button)
        buttons.addWidget(self.resume_button)
        buttons.addWidget(self.replay_button)
        buttons.addStretch(1)
        buttons.addWidget(self.refresh_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.table, 1)
        box.addLayout(buttons)
        self.receipts_button.clicked.connect(self._on_receipts_clicked)
        self.resume_button.clicked.connect(self._on_resume_clicked)
        self.replay_button.clicked.connect(self._on_replay_clicked)
        self.refresh_button.clicked.connect(self.refresh_requested)
        self.table.itemSelectionChanged.connect(self._on_selection_changed)
        self.table.cellActivated.connect(self._on_row_activated)
        self._on_selection_changed()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Narrow (an 800 px window): the Site column goes, so the task keeps room to be read."""
        super().resizeEvent(event)
        self.table.setColumnHidden(COLUMNS.index("Site"), event.size().width() < NARROW)

    def set_runs(self, runs: list[RunSummary], active_run: str | None = None) -> None:
        selected = self.selected()
        self._runs = list(runs)
        self._active = active_run
        self.table.setRowCount(0)
        shown = distinctive([run.task for run in self._runs])
        for row, run in enumerate(self._runs):
            self.table.insertRow(row)
            code = status_code(run, active_run)
            task = shown[row] or "(no task text)"
            cells = (history_words(code), when_text(run.updated_at), site_text(run), task)
            tip = f"run {run.run_id} · {code} · {run.exec_mode}"
            waiting = run.pending.message if run.pending is not None and code in RESUMABLE else ""
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(
                    f"{run.task}\n{tip}" if column == TASK_COLUMN else f"{tip}\n{waiting}".strip()
                )
                if column == 0:
                    item.setForeground(QBrush(QColor(status_colour(_TONES.get(code, "muted")))))
                self.table.setItem(row, column, item)
            if selected is not None and run.run_id == selected.run_id:
                self.table.selectRow(row)
        self._on_selection_changed()

    def set_busy(self, busy: bool, active_run: str | None = None) -> None:
        self._busy = busy
        self._active = active_run
        self._on_selection_changed()

    def selected(self) -> RunSummary | None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        return self._runs[min(rows)] if rows else None

    def select_run(self, run_id: str) -> None:
        for row, run in enumerate(self._runs):
            if run.run_id == run_id:
                self.table.selectRow(row)

    def can_resume(self, run: RunSummary | None) -> bool:
        return run is not None and not self._busy and run.status in RESUMABLE and run.run_id != self._active

    @Slot()
    def _on_selection_changed(self) -> None:
        run = self.selected()
        self.receipts_button.setEnabled(run is not None and bool(run.run_dir))
        self.resume_button.setEnabled(self.can_resume(run))
        self.replay_button.setEnabled(self.can_replay(run))

    @Slot()
    def _on_receipts_clicked(self) -> None:
        run = self.selected()
        if run is not None and run.run_dir:
            self.receipts_requested.emit(run.run_id, run.run_dir)

    def can_replay(self, run: RunSummary | None) -> bool:
        return run is not None and not self._busy and bool(run.run_dir) and run.run_id != self._active

    @Slot()
    def _on_replay_clicked(self) -> None:
        run = self.selected()
        if self.can_replay(run) and run is not None:
            self.replay_requested.emit(run.run_id)

    @Slot()
    def _on_resume_clicked(self) -> None:
        run = self.selected()
        if self.can_resume(run) and run is not None:
            self.resume_requested.emit(run.run_id)

    @Slot(int, int)
    def _on_row_activated(self, _row: int, _column: int) -> None:
        self._on_receipts_clicked()
