"""On start, the offer to continue a run that can be continued, and where it waits if not now.

A run waits at a gate (NEEDS_CONFIRMATION), or was paused or stopped before it finished (the store
keeps it RUNNING): the newest such run is offered once. "No" says the run waits in History (and shows
it there, selected); a run the person said No to is not offered again at later launches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ui.history_panel import RESUMABLE, RUNNING

if TYPE_CHECKING:
    from executor.store.rows import RunSummary

#: How many declined offers are remembered.
REMEMBERED = 50
WAITS_IN_HISTORY = "The run waits in History: select it and press Resume when you want to continue."


def where_it_waits(run: RunSummary) -> str:
    """ "It is waiting for your confirmation: …" or "It was stopped or paused before it finished, at …"."""
    if run.status == RUNNING:
        step = run.pending.step_name if run.pending and run.pending.step_name else ""
        return "It was stopped or paused before it finished" + (f", at “{step}”." if step else ".")
    question = run.pending.message if run.pending else "a confirmation"
    return f"It is waiting for your confirmation: {question}"


class ResumeOffer:
    """Finds the run to offer and asks, without blocking the loop (open(), never exec())."""

    def __init__(
        self,
        parent: QWidget,
        history: Callable[[], list[RunSummary]],
        state: QSettings | None,
        resume: Callable[[str], None],
        not_now: Callable[[str], None],
    ) -> None:
        self.parent, self.history, self.state = parent, history, state
        self.resume, self.not_now = resume, not_now
        self.box: QMessageBox | None = None

    def run(self) -> RunSummary | None:
        """The newest run that can be continued and was not declined before."""
        declined = self.declined()
        return next((r for r in self.history() if r.status in RESUMABLE and r.run_id not in declined), None)

    def offer(self) -> bool:
        run = self.run()
        if run is None:
            return False
        box = QMessageBox(self.parent)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Resume the run?")
        box.setText(f"{run.task}\n\n{where_it_waits(run)}")
        box.setInformativeText(
            "Resume it now? Anything it asks is asked again before it happens.\n"
            "If not, it waits in History: select it there and press Resume."
        )
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.accepted.connect(lambda: self.resume(run.run_id))
        box.rejected.connect(lambda: self._declined(run.run_id))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.box = box
        box.open()
        return True

    def _declined(self, run_id: str) -> None:
        if self.state is not None:
            self.state.setValue("resume_declined", [*self.declined(), run_id][-REMEMBERED:])
        self.not_now(run_id)

    def declined(self) -> list[str]:
        saved = self.state.value("resume_declined", []) if self.state is not None else []
        if isinstance(saved, str):
            return [saved] if saved else []
        return [str(v) for v in saved] if isinstance(saved, list) else []
