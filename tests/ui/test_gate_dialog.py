"""Gate dialog contents and keyboard behaviour, from a ConfirmRequest as the conductor builds it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from executor.confirm import ConfirmRequest
from executor.models import GateDecisionV1, GateVerdict
from tests.ui.conftest import png_bytes
from ui.gate_dialog import GateDialog, describe_target


def request(**inputs: object) -> ConfirmRequest:
    return ConfirmRequest(
        run_id="run_1",
        trace_id="t",
        decision=GateDecisionV1(
            gate_id="gate_action",
            decision=GateVerdict.NEED_CONFIRM,
            reason="About to act on the page",
            blocked_actions=["submit", "purchase"],
        ),
        step_id="a1",
        step_name="Prefill the form (no submit)",
        step_type="ACT",
        step_inputs=dict(inputs),
    )


def test_target_names_the_url_goal_and_payload() -> None:
    text = describe_target(
        request(goal="prefill signup", url="http://127.0.0.1/signup", payload={"email": "a@b.co"})
    )
    assert text.splitlines() == ["on http://127.0.0.1/signup", "goal: prefill signup", "fill email = a@b.co"]
    assert describe_target(request()) == "not named by the plan"
    explicit = request().model_copy(update={"target": 'button "Next"'})
    assert describe_target(explicit) == 'button "Next"'


def test_dialog_shows_blocked_actions_and_screenshot_and_escape_denies(qtbot: QtBot, tmp_path: Path) -> None:
    shot = tmp_path / "page.png"
    shot.write_bytes(png_bytes())
    dialog = GateDialog(request(goal="prefill"), str(shot))
    qtbot.addWidget(dialog)
    assert dialog.blocked_label.text() == "submit, purchase"
    assert dialog.screenshot.has_image
    assert dialog.deny_button.isDefault()
    dialog.open()
    with qtbot.waitSignal(dialog.rejected, timeout=1000):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_approve_button_accepts(qtbot: QtBot) -> None:
    dialog = GateDialog(request(), None)
    qtbot.addWidget(dialog)
    assert not dialog.screenshot.has_image
    dialog.open()
    with qtbot.waitSignal(dialog.accepted, timeout=1000):
        dialog.approve_button.click()
