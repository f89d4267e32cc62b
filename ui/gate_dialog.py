"""Gate dialog: the question a run asks before a risky step, with what it is about to touch.

The picture is the page the step will act on, each element it will touch boxed and numbered; the list
beside it says what happens to each (the values to type, secrets masked). Gate ids, step ids and
types stay in the heading's tooltip; the visible words are a person's.

Window-modal and opened with open(), never exec(): a nested event loop would freeze the asyncio
tasks on the qasync loop. Deny is the default button, so a stray Enter never approves anything;
Escape or the close box asks "Decline this step?" first, since declining ends the run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QCloseEvent, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from executor.gates.confirm import ConfirmRequest
from executor.gates.preview import GatePreview, read_gate_preview
from ui.gate_picture import MarkedScreenshot, mark_line, shown_value
from ui.icons import icon
from ui.words import blocked_words

NO_PAGE = "No page to show: this run has no page open and none recorded."
#: Narrower than this, the list goes under the picture instead of beside it.
SIDE_BY_SIDE_MIN = 720


def _action_line(action: dict[str, Any]) -> str:
    kind = str(action.get("kind", "action"))
    target = action.get("target")
    name = ""
    if isinstance(target, dict) and target:
        name = str(
            target.get("name") or target.get("label") or target.get("text") or next(iter(target.values()))
        )
    value = action.get("value")
    if kind == "navigate":
        return f"Open {action.get('url', '')}"
    verb = {"fill": "Type into", "click": "Click", "select": "Choose in", "check": "Tick"}.get(
        kind, kind.capitalize()
    )
    line = f"{verb} “{name}”" if name else verb
    return f"{line}: {shown_value(str(value))}" if value is not None else line


def describe_target(request: ConfirmRequest) -> str:
    """What the step will touch, in words, when no picture marks it: the action's target, else the
    step's page, goal, actions and values (secrets masked)."""
    if request.target:
        return request.target
    inputs = request.step_inputs
    lines: list[str] = []
    actions = inputs.get("actions")
    if isinstance(inputs.get("url"), str):
        lines.append(f"Open {inputs['url']}")
    if isinstance(actions, list):
        lines.extend(_action_line(a) for a in actions if isinstance(a, dict))
    elif isinstance(inputs.get("goal"), str):
        lines.append(f"Goal: {inputs['goal']}")
    payload = inputs.get("payload")
    if isinstance(payload, dict):
        lines.extend(f"Type into “{key}”: {shown_value(str(value))}" for key, value in payload.items())
    if not lines and inputs:
        lines.append(shown_value(json.dumps(inputs, ensure_ascii=False, default=str)[:300]))
    return "\n".join(lines) or "The plan names no element: the step decides on the page."


def run_preview(request: ConfirmRequest, run_dir: str | None) -> GatePreview | None:
    """The request's own preview: taken for this run, inside this run's folder; else None.

    Nothing else is ever shown (not the Live view's latest picture, which may be another run's)."""
    preview = read_gate_preview(request.screenshot_path, request.run_id)
    if preview is None or run_dir is None:
        return None
    if not Path(preview.screenshot_path).resolve().is_relative_to(Path(run_dir).resolve()):
        return None
    return preview


def page_line(preview: GatePreview | None) -> str:
    if preview is None:
        return NO_PAGE
    local = preview.taken_at.astimezone()
    if preview.recorded:
        when = local.strftime("%H:%M:%S on %b %d")
        return f"No page is open now: this is the run's last recorded page, from {when}. {preview.url}"
    return f"The page at {local.strftime('%H:%M:%S')}, when the question was asked: {preview.url}"


class GateDialog(QDialog):
    """accepted() means Approve, rejected() means Deny (also Escape or the close box, once confirmed)."""

    def __init__(self, request: ConfirmRequest, run_dir: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.decline_box: QMessageBox | None = None
        self._settled = False
        decision = request.decision
        self.setWindowTitle(f"Approve “{request.step_name}”?")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumSize(520, 420)
        self.heading = QLabel(f"Approve “{request.step_name}”?")
        self.heading.setProperty("role", "heading")
        self.heading.setWordWrap(True)
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setToolTip(
            f"gate {decision.gate_id} ({decision.gate_kind}) · step {request.step_id} ({request.step_type})"
            f" · run {request.run_id}"
        )
        self.reason_label = self._value(decision.reason or "This step needs your confirmation.")
        self.blocked_label = self._value(blocked_words(decision.blocked_actions))
        self.blocked_label.setProperty("role", "danger")
        self.blocked_label.setToolTip("blocked: " + (", ".join(decision.blocked_actions) or "nothing"))
        self.preview = run_preview(request, run_dir)
        self.screenshot = MarkedScreenshot(NO_PAGE)
        self.screenshot.setMinimumSize(300, 160)
        # Loaded now, at the moment of asking: a later state of the page can never replace it.
        if self.preview is None or not self.screenshot.set_image(self.preview.screenshot_path):
            self.preview = None
        if self.preview is not None:
            self.screenshot.set_marks(self.preview.marks, self.preview.viewport_width)
        self.touch_title = QLabel("What it will do")
        self.touch_title.setProperty("role", "subheading")
        self.touch_label = self._value(self._touch_text())
        self.touch_label.setAccessibleName("What the step will touch")
        self.page_label = self._value(page_line(self.preview))
        self.page_label.setProperty("role", "muted")
        self.buttons = QDialogButtonBox()
        self.approve_button = QPushButton(icon("approve"), "&Approve this step")
        self.approve_button.setProperty("role", "primary")
        self.deny_button = QPushButton(icon("deny"), "&Deny")
        self.buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.addButton(self.approve_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.approve_button.setAutoDefault(False)
        self.deny_button.setAutoDefault(True)
        self.deny_button.setDefault(True)
        note = QLabel("The approval covers this one step of this run only.")
        note.setProperty("role", "muted")
        self._layout(note)
        self.approve_button.clicked.connect(self.accept)
        self.deny_button.clicked.connect(self.decline)
        self.deny_button.setFocus()
        self._fit_screen()

    def _layout(self, note: QLabel) -> None:
        side = QWidget()
        side_box = QVBoxLayout(side)
        side_box.setContentsMargins(0, 0, 0, 0)
        side_box.addWidget(self.touch_title)
        side_box.addWidget(self.touch_label)
        side_box.addStretch(1)
        side.setMinimumWidth(220)
        self.body = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.body.addWidget(self.screenshot, 3)
        self.body.addWidget(side, 2)
        box = QVBoxLayout(self)
        box.addWidget(self.heading)
        box.addWidget(self.reason_label)
        box.addWidget(self.blocked_label)
        box.addLayout(self.body, 1)
        box.addWidget(self.page_label)
        box.addWidget(note)
        box.addWidget(self.buttons)

    def _touch_text(self) -> str:
        marks = self.preview.marks if self.preview is not None else []
        lines = [mark_line(m) for m in marks] or [describe_target(self.request)]
        if self.preview is not None and self.preview.note:
            lines.append(self.preview.note)
        return "\n".join(lines)

    def _fit_screen(self) -> None:
        """900x680 where it fits; on a small screen the Approve and Deny buttons must stay on it."""
        available = self.screen().availableGeometry()
        self.resize(min(900, available.width() - 20), min(680, available.height() - 40))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        wide = self.width() >= SIDE_BY_SIDE_MIN
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.body.direction() != direction:
            self.body.setDirection(direction)

    # --- answering -----------------------------------------------------------------------------

    @Slot()
    def decline(self) -> None:
        """Deny, without asking again (the Deny button, or "Decline" in the Escape question)."""
        self._settled = True
        super().reject()

    def settle(self) -> None:
        """The question ended elsewhere (answered, or the run stopped): close without asking."""
        self._settled = True
        if self.decline_box is not None:
            self.decline_box.close()

    def reject(self) -> None:
        """Escape and the close box land here: declining ends the run, so ask first."""
        if self._settled:
            super().reject()
            return
        if self.decline_box is not None and self.decline_box.isVisible():
            return
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("Decline this step?")
        box.setText("Decline this step?")
        box.setInformativeText("Waypost will not do it, and the run ends here. Nothing on the page changes.")
        decline = box.addButton("&Decline", QMessageBox.ButtonRole.DestructiveRole)
        keep = box.addButton("&Keep asking", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)
        box.setEscapeButton(keep)
        decline.clicked.connect(self.decline)
        self.decline_box = box
        box.open()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            event.accept()
            self.reject()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._settled:
            super().closeEvent(event)
            return
        event.ignore()
        self.reject()

    @staticmethod
    def _value(text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label
