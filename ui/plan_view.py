"""Plan view: the plan's steps as a table with live status, duration and tool calls.

The model holds the plan and what the run reported per step; the view only renders it. Mode and
reason codes sit above the table so a person sees why the planner chose this shape.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from common.words import plural
from ui.theme import status_colour, tokens
from ui.words import mode_words, step_words

if TYPE_CHECKING:  # the core's types: the window paints before they load (docs/architecture.md)
    from executor.journal.events import PlanRevised, StepBegun
    from executor.models import StepRunV1
    from planner.models import ExecutionPlan, Step

#: Visible columns stay few so the step's name is readable at 800 px; its id, family, dependencies
#: and gate are in the row's tooltip.
COLUMNS = ("Step", "Kind", "Status", "Time", "Work")
STATUS_COLUMN = COLUMNS.index("Status")

#: Each step state's tone in the theme's status colours (ui/theme.py).
STATUS_TONES: dict[str, str] = {
    "PENDING": "muted",
    "RUNNING": "info",
    "SUCCESS": "ok",
    "FAILED": "bad",
    "SKIPPED": "warn",
    "BLOCKED_GATE": "bad",
    "WAITING": "warn",
    "STOPPED": "warn",
}

_Index = QModelIndex | QPersistentModelIndex


class PlanTableModel(QAbstractTableModel):
    """One row per step; `status_of(step_id)` and the cells follow the run as it goes."""

    def __init__(self) -> None:
        super().__init__()
        self._steps: list[Step] = []
        self.plan_id: str | None = None
        self._row: dict[str, int] = {}
        self._status: dict[str, str] = {}
        self._runs: dict[str, StepRunV1] = {}

    def set_plan(self, plan: ExecutionPlan | None) -> None:
        self.beginResetModel()
        self.plan_id = plan.plan_id if plan else None
        self._steps = list(plan.steps) if plan else []
        self._row = {s.step_id: i for i, s in enumerate(self._steps)}
        self._status = {s.step_id: "PENDING" for s in self._steps}
        self._runs = {}
        self.endResetModel()

    def revise(self, plan: ExecutionPlan) -> None:
        """A new version of the running plan: steps it keeps keep their status and run."""
        runs, status = self._runs, self._status
        self.set_plan(plan)
        for step_id in self._row:
            if step_id in runs:
                self._runs[step_id] = runs[step_id]
            if step_id in status:
                self._status[step_id] = status[step_id]
        if self._steps:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._steps) - 1, len(COLUMNS) - 1))

    def names(self) -> dict[str, str]:
        """Each step's id and the name its row shows."""
        return {step.step_id: self._text(step, 0) for step in self._steps}

    def status_of(self, step_id: str) -> str | None:
        return self._status.get(step_id)

    def set_status(self, step_id: str, status: str) -> None:
        if step_id in self._row:
            self._status[step_id] = status
            self._changed(step_id)

    def set_step_run(self, run: StepRunV1) -> None:
        if run.step_id in self._row:
            self._runs[run.step_id] = run
            self._status[run.step_id] = str(run.status)
            self._changed(run.step_id)

    def stop_unfinished(self) -> None:
        """The run ended (stop, abort, finish): a step still RUNNING or asking is STOPPED, not live."""
        for step_id, status in self._status.items():
            if status in ("RUNNING", "WAITING"):
                self.set_status(step_id, "STOPPED")

    def _changed(self, step_id: str) -> None:
        row = self._row[step_id]
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    # --- QAbstractTableModel -------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt's own default
        return 0 if parent.isValid() else len(self._steps)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation is Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = 0) -> Any:
        if not index.isValid():
            return None
        step = self._steps[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(step, index.column())
        if role == Qt.ItemDataRole.ForegroundRole and index.column() == STATUS_COLUMN:
            return QBrush(QColor(status_colour(STATUS_TONES.get(self._status[step.step_id], "muted"))))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(step)
        return None

    def _tooltip(self, step: Step) -> str:
        """The step's whole name first (a cell may be cut), then what went wrong, then the codes."""
        run = self._runs.get(step.step_id)
        status = self._status[step.step_id]
        lines = [step.name or step.type_name]
        if run is not None and run.error:
            lines.append(f"{step_words(status)}: {run.error}")
        after = ", ".join(step.depends_on) or "nothing"
        gate = step.policy_gate_id or "none"
        code = f" · {run.error_code}" if run is not None and run.error_code else ""
        kind = f"{step.family.value} / {step.type_name}"
        lines.append(f"{step.step_id} · {status}{code} · {kind} · after {after} · gate {gate}")
        return "\n".join(lines)

    def _text(self, step: Step, column: int) -> str:
        run = self._runs.get(step.step_id)
        values = (
            step.name or step.type_name.replace("_", " ").capitalize(),
            step.type_name.replace("_", " ").capitalize(),
            step_words(self._status[step.step_id]),
            f"{run.duration_ms / 1000:.1f} s" if run is not None else "",
            _work(run, acts=step.family.value == "ACT"),
        )
        return values[column]


#: The planner, as the plan line names it.
PLANNER_WORDS = {"rules": "the rules", "llm": "the model", "auto": "the rules or the model"}


def revision_line(event: PlanRevised) -> str:
    """The plan view's header after a replan: the version, what it replaced and why."""
    return (
        f"<b>Plan v{event.version}</b> · {plural(len(event.plan.steps), 'step')} · replaced "
        f"{event.replaced_step_id or 'a step'}<br>"
        f"<span style='color:{tokens().muted}'>{escape(event.reason)}</span>"
    )


def _work(run: StepRunV1 | None, *, acts: bool) -> str:
    """What a step did: an acting step's browser actions ("4 actions"), another's tool calls
    ("1 call"); the other count is in the row's tooltip."""
    if run is None:
        return ""
    if acts and run.actions:
        return plural(len(run.actions), "action")
    return plural(len(run.tool_calls), "call")


class PlanView(QWidget):
    """The plan table plus a line naming the mode, its exec mode, the status and the reason codes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = PlanTableModel()
        self.summary = QLabel("No plan yet: type a task and press Plan or Run.")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Plan steps")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)  # a long step name wraps (whole in its tooltip), never cut mid-word
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        # Its height is what the column has left: asked for its full height, a long plan's table
        # squeezed the task box above it (the voice row over the task's last line at 800x560).
        self.table.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.table.setMinimumHeight(3 * self.table.fontMetrics().height() + 24)  # header and two rows
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.summary)
        box.addWidget(self.table, 1)
        #: The version of the plan shown (2 and up after a replan during the run).
        self.version = 1

    def set_plan(self, plan: ExecutionPlan | None, planner_used: str | None = None) -> None:
        self.model.set_plan(plan)
        self.version = plan.version if plan else 1
        if plan is None:
            self.summary.setText("No plan yet.")
            return
        from executor.models import EXEC_MODE_FOR_PLAN  # loaded with the core that made the plan
        from planner.model_words import time_line

        by = f" · planned by {PLANNER_WORDS.get(planner_used, planner_used)}" if planner_used else ""
        reasons = ", ".join(plan.reason_codes) or "none"
        text = f"<b>{escape(mode_words(plan.mode.value))}</b>{by} · {plural(len(plan.steps), 'step')}"
        self.summary.setToolTip(
            f"Mode {plan.mode.value} ({EXEC_MODE_FOR_PLAN[plan.mode].value}) · {plan.plan_status.value}\n"
            f"Reasons: {reasons}"
        )
        if plan.clarification_question:
            text += f"<br><b>Question:</b> {plan.clarification_question}"
        text += f"<br>{escape(time_line(plan))}"  # planning's deadline and the run's budget, apart
        self.summary.setText(text)

    @Slot(object)
    def on_plan_revised(self, event: PlanRevised) -> None:
        self.model.revise(event.plan)
        self.version = event.version
        self.summary.setText(revision_line(event))

    @Slot(object)
    def on_step_begun(self, event: StepBegun) -> None:
        self.model.set_status(event.step_id, "RUNNING")

    @Slot(object)
    def on_step_recorded(self, run: StepRunV1) -> None:
        self.model.set_step_run(run)

    def mark_waiting(self, step_id: str) -> None:
        self.model.set_status(step_id, "WAITING")
