"""Gate dialog: the question a run asks before a risky step, with everything needed to answer it.

Window-modal and opened with open(), never exec(): a nested event loop would freeze the asyncio
tasks on the qasync loop. Deny is the default button and Escape denies, so a stray Enter or a
closed dialog never approves anything.
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from executor.confirm import ConfirmRequest
from executor.gate_preview import GatePreview, read_gate_preview
from ui.live_view import ScreenshotLabel, describe_action


def describe_target(request: ConfirmRequest) -> str:
    """The exact element the step will touch: the request's target, else the step's own actions."""
    if request.target:
        return request.target
    inputs = request.step_inputs
    lines: list[str] = []
    actions = inputs.get("actions")
    if isinstance(actions, list):
        lines.extend(describe_action(a) for a in actions if isinstance(a, dict))
    elif isinstance(inputs.get("goal"), str):
        lines.append(f"goal: {inputs['goal']}")
    payload = inputs.get("payload")
    if isinstance(payload, dict) and payload:
        lines.extend(f"fill {key} = {value}" for key, value in payload.items())
    if isinstance(inputs.get("url"), str):
        lines.insert(0, f"on {inputs['url']}")
    if not lines and inputs:
        lines.append(json.dumps(inputs, ensure_ascii=False, default=str)[:300])
    return "\n".join(lines) or "not named by the plan"


NO_PAGE = "No page yet: this run has not opened a page."


def run_preview(request: ConfirmRequest, run_dir: str | None) -> GatePreview | None:
    """The request's own preview: taken for this run, inside this run's folder; else None.

    Nothing else is ever shown (not the Live view's latest picture, which may be another run's)."""
    preview = read_gate_preview(request.screenshot_path, request.run_id)
    if preview is None or run_dir is None:
        return None
    if not Path(preview.screenshot_path).resolve().is_relative_to(Path(run_dir).resolve()):
        return None
    return preview


class GateDialog(QDialog):
    """accepted() means Approve, rejected() means Deny (also Escape and the window's close box)."""

    def __init__(self, request: ConfirmRequest, run_dir: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.request = request
        decision = request.decision
        self.setWindowTitle(f"Confirm: {request.step_name}")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumSize(560, 460)
        heading = QLabel(f"<h3>Waypost wants to continue with “{escape(request.step_name)}”</h3>")
        heading.setWordWrap(True)
        self.reason_label = self._value(decision.reason or "This step needs your confirmation.")
        self.gate_label = self._value(f"{decision.gate_id} ({decision.gate_kind})")
        self.step_label = self._value(f"{request.step_name} · {request.step_type} · {request.step_id}")
        self.target_label = self._value(describe_target(request))
        self.target_label.setStyleSheet("font-family: monospace;")
        blocked = ", ".join(decision.blocked_actions) or "nothing beyond this step"
        self.blocked_label = self._value(blocked)
        self.blocked_label.setStyleSheet("color: #b91c1c; font-weight: bold;")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("Why:", self.reason_label)
        form.addRow("Gate:", self.gate_label)
        form.addRow("Step:", self.step_label)
        form.addRow("Target:", self.target_label)
        form.addRow("Stays blocked:", self.blocked_label)
        form.addRow("Run:", self._value(request.run_id))
        self.preview = run_preview(request, run_dir)
        self.screenshot = ScreenshotLabel(NO_PAGE)
        self.screenshot.setMinimumSize(320, 140)
        # Loaded now, at the moment of asking: a later state of the page can never replace it.
        if self.preview is None or not self.screenshot.set_image(self.preview.screenshot_path):
            self.preview = None
        self.page_label = self._value(self._page_line())
        self.page_label.setStyleSheet("color: #4b5563;")
        self.buttons = QDialogButtonBox()
        self.approve_button = QPushButton("&Approve this step")
        self.deny_button = QPushButton("&Deny")
        self.buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.addButton(self.approve_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.approve_button.setAutoDefault(False)
        self.deny_button.setAutoDefault(True)
        self.deny_button.setDefault(True)
        note = QLabel("The approval covers this one step of this run only.")
        note.setStyleSheet("color: #4b5563;")
        box = QVBoxLayout(self)
        box.addWidget(heading)
        box.addLayout(form)
        box.addWidget(self.screenshot, 1)
        box.addWidget(self.page_label)
        box.addWidget(note)
        box.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.deny_button.setFocus()
        self._fit_screen()

    def _fit_screen(self) -> None:
        """780x660 where it fits; on a small screen the Approve and Deny buttons must stay on it."""
        available = self.screen().availableGeometry()
        self.resize(min(780, available.width() - 20), min(660, available.height() - 40))

    def _page_line(self) -> str:
        if self.preview is None:
            return NO_PAGE
        when = self.preview.taken_at.astimezone().strftime("%H:%M:%S")
        return f"This run's page when it asked, at {when}: {self.preview.url}"

    @staticmethod
    def _value(text: str) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return label
