"""Gate dialog contents and keyboard behaviour, from a ConfirmRequest as the conductor builds it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from executor.gates.confirm import ConfirmRequest
from executor.gates.look import last_recorded
from executor.gates.preview import GateMark, GatePreview, read_gate_preview
from executor.models import GateDecisionV1, GateVerdict
from receipts.layout import RunFolder
from receipts.models import ActionRecord
from receipts.report import read_records
from tests.support.window import png_bytes, record_run
from ui.gate_dialog import NO_PAGE, GateDialog, describe_target


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


def test_target_names_the_url_goal_and_payload_in_words() -> None:
    text = describe_target(
        request(goal="prefill signup", url="http://127.0.0.1/signup", payload={"email": "a@b.co"})
    )
    assert text.splitlines() == [
        "Open http://127.0.0.1/signup",
        "Goal: prefill signup",
        "Type into “email”: a@b.co",
    ]
    assert describe_target(request()) == "The plan names no element: the step decides on the page."
    listed = request(actions=[{"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:pw}}"}])
    assert describe_target(listed) == "Type into “Password”: •••••• (secret “pw”)"
    explicit = request().model_copy(update={"target": 'button "Next"'})
    assert describe_target(explicit) == 'button "Next"'


def preview_file(
    run_dir: Path, run_id: str, colour: str = "#3b82f6", marks: list[GateMark] | None = None, **extra: Any
) -> str:
    """A gate screenshot with its note, as executor.gates.preview writes them."""
    shot = run_dir / "gates" / "a1-1.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    shot.write_bytes(png_bytes(colour))
    note = GatePreview(
        run_id=run_id, url="http://127.0.0.1:8765/pricing.html", taken_at=datetime.now(UTC),
        screenshot_path=str(shot), marks=marks or [], viewport_width=320 if marks else None, **extra,
    )  # fmt: skip
    shot.with_suffix(".json").write_text(note.model_dump_json())
    return str(shot)


def test_dialog_shows_what_stays_blocked_and_the_screenshot(qtbot: QtBot, tmp_path: Path) -> None:
    shot = preview_file(tmp_path / "run_1", "run_1")
    dialog = GateDialog(
        request(goal="prefill").model_copy(update={"screenshot_path": shot}), str(tmp_path / "run_1")
    )
    qtbot.addWidget(dialog)
    assert (
        dialog.blocked_label.text() == "Whatever you answer, these stay blocked: sending a form and buying."
    )
    assert "gate_action" not in dialog.heading.text() and "gate_action" in dialog.heading.toolTip()
    assert dialog.screenshot.has_image
    assert "http://127.0.0.1:8765/pricing.html" in dialog.page_label.text()
    assert dialog.deny_button.isDefault()


def test_escape_asks_before_declining(qtbot: QtBot, tmp_path: Path) -> None:
    """Escape used to decline at once (and end the run); now it asks, and "Keep asking" keeps asking."""
    dialog = GateDialog(request(goal="prefill"), None)
    qtbot.addWidget(dialog)
    dialog.open()
    rejected: list[bool] = []
    dialog.rejected.connect(lambda: rejected.append(True))
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = dialog.decline_box
    assert box is not None and box.isVisible() and box.text() == "Decline this step?"
    assert rejected == [] and dialog.isVisible()
    keep = next(b for b in box.buttons() if "Keep" in b.text())
    keep.click()
    asked = box
    qtbot.waitUntil(lambda: not asked.isVisible())
    assert rejected == [] and dialog.isVisible()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    box = dialog.decline_box
    assert box is not None
    decline = next(b for b in box.buttons() if "Decline" in b.text())
    with qtbot.waitSignal(dialog.rejected, timeout=1000):
        decline.click()
    assert not dialog.isVisible()


def test_the_deny_button_declines_without_asking(qtbot: QtBot) -> None:
    dialog = GateDialog(request(), None)
    qtbot.addWidget(dialog)
    dialog.open()
    with qtbot.waitSignal(dialog.rejected, timeout=1000):
        dialog.deny_button.click()
    assert dialog.decline_box is None


def test_the_picture_marks_each_element_and_lists_its_value(qtbot: QtBot, tmp_path: Path) -> None:
    marks = [
        GateMark(n=1, kind="fill", label="Email", value="alice@example.com", box=[40, 40, 120, 30]),
        GateMark(n=2, kind="fill", label="Password", value="{{secret:pw}}", box=[40, 120, 120, 30]),
        GateMark(n=3, kind="click", label="Next", found="not_found"),
    ]
    shot = preview_file(tmp_path / "run_1", "run_1", "#ffffff", marks, note="decided again later")
    dialog = GateDialog(request().model_copy(update={"screenshot_path": shot}), str(tmp_path / "run_1"))
    qtbot.addWidget(dialog)
    dialog.open()
    qtbot.waitUntil(lambda: dialog.screenshot.pixmap().width() > 0)
    lines = dialog.touch_label.text().splitlines()
    assert lines[0] == "1. Type into “Email”: alice@example.com"
    assert lines[1] == "2. Type into “Password”: •••••• (secret “pw”)"
    assert lines[2].startswith("3. Click “Next” (not on this page yet")
    assert lines[3] == "decided again later"
    picture = dialog.screenshot.pixmap().toImage()
    scale = picture.width() / 320
    edge = picture.pixelColor(int((40 - 2) * scale), int(55 * scale))  # the box's left edge
    assert edge.name() != "#ffffff" and edge.red() > 200 and edge.blue() < 120, edge.name()
    assert picture.pixelColor(int(100 * scale), int(55 * scale)).name() == "#ffffff"  # inside: untouched


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
        assert dialog.page_label.text() == NO_PAGE
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


async def test_a_gate_with_no_page_open_shows_the_runs_last_recorded_page(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A run resumed in a new process, asked before its browser started, showed "No page yet"."""
    run_dir = await record_run(tmp_path / "runs")
    records = [r for _, r in read_records(RunFolder(run_dir)) if isinstance(r, ActionRecord)]
    shot = last_recorded(run_dir, "run_recorded", "a1")
    assert shot is not None and Path(shot).parent == run_dir / "gates"
    preview = read_gate_preview(shot, "run_recorded")
    assert preview is not None and preview.recorded and preview.taken_at == records[-1].time
    dialog = GateDialog(
        request().model_copy(update={"run_id": "run_recorded", "screenshot_path": shot}), str(run_dir)
    )
    qtbot.addWidget(dialog)
    assert dialog.screenshot.has_image
    when = records[-1].time.astimezone().strftime("%H:%M:%S")
    assert f"the run's last recorded page, from {when}" in dialog.page_label.text()
    assert last_recorded(tmp_path / "empty", "run_x", "a1") is None
