"""Live view: the latest page screenshot, the current action, budget bars, Pause and Stop.

Budget bars compare what the run used (budget_updated) with the plan's budget, so a person sees a
run approaching its limit before the core aborts it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.icons import icon
from ui.screenshot import ScreenshotLabel
from ui.theme import status_colour

if TYPE_CHECKING:  # the core's types: the window paints before they load (docs/architecture.md)
    from executor.journal.events import ActionRecorded, SourceRead, StepBegun
    from executor.models import BudgetStateV1
    from planner.models import Budget


class Limits:
    """A plan's budget limits as the bars show them (no plan yet: none)."""

    max_time_ms: float = 0
    max_tool_calls: float = 0
    max_tokens: float = 0


class Used:
    """What a run used so far, as the bars show it (nothing yet)."""

    time_ms_used: float = 0
    tool_calls_used: float = 0
    token_est_used: float = 0
    person_wait_ms: float = 0


_DONE = {
    "click": "Clicked", "fill": "Typed into", "select": "Chose in", "check": "Ticked",
    "press": "Pressed a key in", "scroll": "Scrolled", "wait": "Waited", "extract": "Read the page",
    "download": "Downloaded", "upload": "Attached a file to", "done": "Finished",
}  # fmt: skip
_NOT_DONE = {"not_found": "not found", "ambiguous": "several matched", "timeout": "timed out",
             "blocked": "blocked", "error": "failed"}  # fmt: skip


def describe_action(action: dict[str, object], status: str = "ok") -> str:
    """What an action did, in words: "Typed alice@example.com into “Email”", "Opened …"; how it
    went when it did not ("… · not found")."""
    kind = str(action.get("kind", "action"))
    target = action.get("target")
    named = ""
    if isinstance(target, dict):
        named = str(
            target.get("label") or target.get("name") or target.get("text") or target.get("placeholder") or ""
        )
    where = f"“{named}”" if named else "a field" if kind in ("fill", "select") else "an element"
    value = action.get("value")
    if kind == "navigate":
        text = f"Opened {action.get('url', '')}"
    elif kind == "fill" and value is not None:
        text = f"Typed {_shown(str(value))} into {where}"
    elif kind == "select" and value is not None:
        text = f"Chose {_shown(str(value))} in {where}"
    else:
        verb = _DONE.get(kind, kind.capitalize())
        text = f"{verb} {where}" if kind in ("click", "check", "press", "upload") else verb
    return text if status in ("ok", "success") else f"{text} · {_NOT_DONE.get(status, status)}"


def _shown(value: str) -> str:
    from common.secrecy import REDACTED  # during a run only: loaded with the core

    return "••••••" if REDACTED in value else value


class LiveView(QWidget):
    #: Pause asked: hold before the next step, browser and progress kept.
    pause_requested = Signal()
    #: Resume asked: a paused run continues.
    resume_requested = Signal()
    #: The time bar moved on during a step (the seconds shown).
    clock_ticked = Signal(float)
    #: Stop asked: cancel the run now.
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._budget: Budget | Limits = Limits()
        self._latest: str | None = None
        # Between the run's BudgetUpdated events the time bar moves on from the last one it got.
        self._used: BudgetStateV1 | Used = Used()
        self._used_at = time.monotonic()
        self._clock = QTimer(self)
        self._clock.setInterval(250)
        self._clock.timeout.connect(self._tick)
        self.screenshot = ScreenshotLabel("The page Waypost works on shows here while a task runs.")
        self.action_label = QLabel("Nothing running.")
        self.action_label.setWordWrap(True)
        self.action_label.setAccessibleName("Current action")
        self.url_label = QLabel("")
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.time_bar = self._bar("Time")
        self.wait_label = QLabel("")
        self.wait_label.setProperty("role", "muted")
        self.wait_label.setToolTip("Time spent answering a question is not charged to the time budget")
        self.calls_bar = self._bar("Tool calls")
        self.tokens_bar = self._bar("Tokens")
        self._paused = False
        self.pause_button = QPushButton(icon("pause"), "Pa&use")
        self.pause_button.setToolTip("Hold before the next step; the browser stays open. Resume continues.")
        self.stop_button = QPushButton(icon("stop", status_colour("bad")), "&Stop")
        self.stop_button.setToolTip("Cancel the run now (receipts and checkpoint are kept)")
        self.set_running(False)
        form = QFormLayout()
        form.addRow("Time", self.time_bar)
        form.addRow("", self.wait_label)
        form.addRow("Tool calls", self.calls_bar)
        form.addRow("Tokens", self.tokens_bar)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.pause_button)
        buttons.addWidget(self.stop_button)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.screenshot, 1)
        box.addWidget(self.action_label)
        box.addWidget(self.url_label)
        box.addLayout(form)
        box.addLayout(buttons)
        self.pause_button.clicked.connect(self._on_pause_clicked)
        self.stop_button.clicked.connect(self.stop_requested)

    @staticmethod
    def _bar(name: str) -> QProgressBar:
        bar = QProgressBar()
        bar.setAccessibleName(f"{name} budget")
        bar.setTextVisible(True)
        bar.setMaximumHeight(18)
        return bar

    def set_budget(self, budget: Budget) -> None:
        self._budget = budget
        self.on_budget_updated(Used())

    def set_running(self, running: bool) -> None:
        self.pause_button.setEnabled(running)
        self.stop_button.setEnabled(running)
        if not running:
            self.set_paused(False)
            self.set_clock_running(False)

    def set_clock_running(self, running: bool) -> None:
        """The time bar moves while a step works; it stands still while a person is asked or paused."""
        if running:
            self._used_at = time.monotonic()
            self._clock.start()
        else:
            self._clock.stop()

    def _tick(self) -> None:
        seconds = self._used.time_ms_used / 1000 + (time.monotonic() - self._used_at)
        self._fill(self.time_bar, seconds, self._budget.max_time_ms / 1000, "{:.1f} s")
        self.clock_ticked.emit(seconds)

    def reset(self) -> None:
        """A new run starts: nothing of the previous run's page, action or budget stays."""
        self._latest = None
        self.screenshot.set_image(None)
        self.action_label.setText("Starting…")
        self.url_label.setText("")
        self.on_budget_updated(Used())

    @property
    def paused(self) -> bool:
        return self._paused

    @Slot(bool)
    def set_paused(self, paused: bool) -> None:
        """Pause becomes Resume while the run holds, and back."""
        self._paused = paused
        self.pause_button.setText("&Resume" if paused else "Pa&use")
        self.pause_button.setIcon(icon("resume" if paused else "pause"))

    def _on_pause_clicked(self) -> None:
        (self.resume_requested if self._paused else self.pause_requested).emit()

    @property
    def latest_screenshot(self) -> str | None:
        """The path of the last screenshot shown, for the gate dialog."""
        return self._latest

    @Slot(object)
    def on_budget_updated(self, state: BudgetStateV1 | Used) -> None:
        self._used, self._used_at = state, time.monotonic()
        b = self._budget
        self._fill(self.time_bar, state.time_ms_used / 1000, b.max_time_ms / 1000, "{:.1f} s")
        waited = state.person_wait_ms / 1000
        self.wait_label.setText(f"Not counted: {waited:.1f} s waiting for you" if waited >= 0.1 else "")
        self._fill(self.calls_bar, state.tool_calls_used, b.max_tool_calls, "{:,.0f}")
        self._fill(self.tokens_bar, state.token_est_used, b.max_tokens, "{:,.0f}")

    @staticmethod
    def _fill(bar: QProgressBar, used: float, limit: float, fmt: str) -> None:
        bar.setRange(0, 1000)
        bar.setValue(int(min(used / limit, 1.0) * 1000) if limit > 0 else 0)
        bar.setFormat(f"{fmt.format(used)} / {fmt.format(limit)}")

    @Slot(object)
    def on_step_begun(self, event: StepBegun) -> None:
        self.action_label.setText(f"Working on: {event.name or event.step_type}")
        self.set_clock_running(True)

    @Slot(object)
    def on_action_recorded(self, event: ActionRecorded) -> None:
        self.action_label.setText(describe_action(event.action, event.status))
        self.action_label.setToolTip(f"{event.action.get('kind')}: {event.status} {event.message}".strip())
        self.url_label.setText(event.url or "")
        if event.screenshot_path and self.screenshot.set_image(event.screenshot_path):
            self._latest = event.screenshot_path

    @Slot(object)
    def on_source_read(self, event: SourceRead) -> None:
        """Research reads a page: its title, its address and (when taken) its picture."""
        self.action_label.setText(f"Reading: {event.title or event.url}")
        self.url_label.setText(event.url)
        if event.screenshot_path and self.screenshot.set_image(event.screenshot_path):
            self._latest = event.screenshot_path

    def show_paused(self, paused: bool) -> str:
        """Pause asked (or lifted): the button and the line say so; the line, for the status bar."""
        self.set_paused(paused)
        text = "Pausing after the current step…" if paused else "Resumed"
        self.set_status_text(text)
        return text

    def show_held(self) -> None:
        """The run reached its hold point: the clock stops and the line says what can be done."""
        self.set_clock_running(False)
        self.set_status_text(
            "Paused. The browser stays open; press Resume to continue or Stop to end the run."
        )

    def set_status_text(self, text: str) -> None:
        self.action_label.setText(text)
