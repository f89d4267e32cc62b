"""Gate dialog contents and keyboard behaviour, from a ConfirmRequest as the conductor builds it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from executor.confirm import ConfirmRequest
from executor.gate_preview import GatePreview
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


def preview_file(run_dir: Path, run_id: str, colour: str = "#3b82f6") -> str:
    """A gate screenshot with its note, as executor.gate_preview writes them."""
    shot = run_dir / "gates" / "a1-1.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.write_bytes(png_bytes(colour))
    note = GatePreview(
        run_id=run_id, url="http://127.0.0.1:8765/pricing.html", taken_at=datetime.now(UTC),
        screenshot_path=str(shot),
    )  # fmt: skip
    shot.with_suffix(".json").write_text(note.model_dump_json())
    return str(shot)


def test_dialog_shows_blocked_actions_and_screenshot_and_escape_denies(qtbot: QtBot, tmp_path: Path) -> None:
    shot = preview_file(tmp_path / "run_1", "run_1")
    dialog = GateDialog(
        request(goal="prefill").model_copy(update={"screenshot_path": shot}), str(tmp_path / "run_1")
    )
    qtbot.addWidget(dialog)
    assert dialog.blocked_label.text() == "submit, purchase"
    assert dialog.screenshot.has_image
    assert "http://127.0.0.1:8765/pricing.html" in dialog.page_label.text()
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


def test_a_preview_never_shows_another_runs_page(qtbot: QtBot, tmp_path: Path) -> None:
    """Another run's picture (by its note, or by its folder) is refused: the dialog says no page yet."""
    other = preview_file(tmp_path / "run_0", "run_0")
    for run_dir in (str(tmp_path / "run_1"), str(tmp_path / "run_0")):
        dialog = GateDialog(request().model_copy(update={"screenshot_path": other}), run_dir)
        qtbot.addWidget(dialog)
        assert not dialog.screenshot.has_image
        assert dialog.page_label.text() == "No page yet: this run has not opened a page."
    elsewhere = preview_file(tmp_path / "run_0", "run_1")  # run_1's note, but in run_0's folder
    dialog = GateDialog(request().model_copy(update={"screenshot_path": elsewhere}), str(tmp_path / "run_1"))
    qtbot.addWidget(dialog)
    assert not dialog.screenshot.has_image


def test_a_preview_never_shows_a_later_state(qtbot: QtBot, tmp_path: Path) -> None:
    """The picture is read when the gate asks; the page (or file) changing afterwards changes nothing."""
    shot = preview_file(tmp_path / "run_1", "run_1", "#3b82f6")
    dialog = GateDialog(request().model_copy(update={"screenshot_path": shot}), str(tmp_path / "run_1"))
    qtbot.addWidget(dialog)
    dialog.open()
    Path(shot).write_bytes(png_bytes("#ef4444"))  # the form filled later, written over the same file
    dialog.resize(dialog.width() + 40, dialog.height() + 40)  # a rescale re-renders the picture
    qtbot.waitUntil(lambda: dialog.screenshot.pixmap().width() > 0)
    colour = dialog.screenshot.pixmap().toImage().pixelColor(5, 5).name()
    assert colour == "#3b82f6"


def test_the_dialog_fits_the_screen_with_its_buttons_on_it(qtbot: QtBot) -> None:
    dialog = GateDialog(request(goal="prefill"), None)
    qtbot.addWidget(dialog)
    available = dialog.screen().availableGeometry()
    assert dialog.width() <= available.width() and dialog.height() <= available.height()
