"""Receipts viewer on a run folder written by the real JsonlRecorder."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from common.secrecy import REDACTED
from receipts import Capture, JsonlRecorder, RunFolder
from receipts.verify import verify
from tests.support.receipt_forgery import swap_file_and_revouch
from tests.support.window import next_emit, png_bytes, record, record_run
from ui.open_outside import Opener
from ui.receipts_model import COLUMNS
from ui.receipts_viewer import ReceiptsViewer


def cell(viewer: ReceiptsViewer, row: int, column: str) -> str:
    return str(viewer.model.index(row, COLUMNS.index(column)).data())


async def test_loads_actions_with_redacted_values_and_screenshots(qtbot: QtBot, tmp_path: Path) -> None:
    run_dir = await record_run(tmp_path / "runs")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(run_dir)
    assert viewer.model.rowCount() == 2
    assert [cell(viewer, r, "Action") for r in range(2)] == ["Open", "Type"]  # kinds in the tooltips
    assert cell(viewer, 1, "Target") == 'label "Password"'
    assert cell(viewer, 1, "Value") == REDACTED
    assert cell(viewer, 0, "URL") == "http://127.0.0.1:8000/signup"
    assert cell(viewer, 1, "DOM hash") == "c" * 10
    assert cell(viewer, 0, "Outcome") == "Done"
    # the first row is selected on load: both screenshots side by side
    assert viewer.before.has_image and viewer.after.has_image
    viewer.table.selectRow(1)
    assert "record 3" in viewer.after_caption.text()
    assert "= previous after" in viewer.before_caption.text()
    assert "hunter2" not in (run_dir / "receipts.jsonl").read_text()


async def test_verify_ok_then_detects_an_edit(qtbot: QtBot, tmp_path: Path) -> None:
    run_dir = await record_run(tmp_path / "runs")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(run_dir)
    verified = next_emit(viewer.verified)
    viewer.verify_button.click()  # the button runs verification in a task the viewer owns
    (check,) = await asyncio.wait_for(verified, 10)
    assert check.ok and check.chain.files_checked == 4  # the second before-shot reuses the first after-shot
    assert viewer.verify_label.text().startswith("Verify OK: complete, signed and untouched: 4 records")
    assert "; run “Done”;" in viewer.verify_label.text()  # the status code only in the tooltip
    assert "SUCCESS" in viewer.verify_label.toolTip()
    receipts = run_dir / "receipts.jsonl"
    receipts.write_text(receipts.read_text().replace("navigate", "navigatf", 1))
    check = await viewer.verify_run()
    assert not check.ok
    assert viewer.verify_label.text().startswith("Verify FAILED: ")
    await viewer.aclose()


async def test_verify_says_what_the_command_says_for_a_consistent_forgery(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """A screenshot swapped and re-vouched for in a rewritten chain: the signed head catches it, and
    the window must not say OK where `waypost receipts verify` says FAILED."""
    run_dir = await record_run(tmp_path / "runs")
    swap_file_and_revouch(run_dir, "shots/000001-after.png", png_bytes("#ff00ff"))
    assert verify(run_dir).ok  # the chain alone, what this button once checked, passes it
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(run_dir)
    check = await viewer.verify_run()
    assert not check.ok
    assert viewer.verify_label.text().startswith("Verify FAILED: ")
    await viewer.aclose()


async def test_verify_says_unsigned_for_a_run_no_install_signed(qtbot: QtBot, tmp_path: Path) -> None:
    run_dir = await record_run(tmp_path / "runs")
    (run_dir / "receipts.dsse.json").unlink()
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(run_dir)
    check = await viewer.verify_run()
    assert not check.ok and viewer.verify_label.text().startswith("Verify UNSIGNED: ")
    await viewer.aclose()


async def test_export_writes_the_html_report_and_opens_it(qtbot: QtBot, tmp_path: Path) -> None:
    run_dir = await record_run(tmp_path / "runs")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    opened: list[QUrl] = []
    viewer.open_url = lambda url: record(opened, url)
    await viewer.load(run_dir)
    path = await viewer.export()
    assert path == run_dir / "report.html" and path.read_text().startswith("<!")
    assert opened == [QUrl.fromLocalFile(str(path))]
    viewer.folder_button.click()
    assert opened[-1] == QUrl.fromLocalFile(str(run_dir))


async def test_a_missing_folder_loads_empty_with_buttons_off(qtbot: QtBot, tmp_path: Path) -> None:
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(tmp_path / "nothing")
    assert viewer.model.rowCount() == 0
    assert not viewer.verify_button.isEnabled()
    assert not viewer.before.has_image


async def test_open_run_folder_says_so_when_nothing_can_open_it(qtbot: QtBot, tmp_path: Path) -> None:
    run_dir = await record_run(tmp_path / "runs")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    viewer.show()
    viewer.open_url = lambda _url: False  # no file manager on this desktop
    await viewer.load(run_dir)
    viewer.folder_button.click()
    note = viewer.open_note
    assert note.isVisible() and str(run_dir) in note.label.text()
    note.copy_button.click()
    assert QGuiApplication.clipboard().text() == str(run_dir)
    await viewer.aclose()


async def test_an_opener_that_fails_after_starting_is_reported_with_the_path(
    qtbot: QtBot, tmp_path: Path
) -> None:
    """xdg-open exiting 3 (no program for it) used to pass unnoticed: Qt only reports the start."""
    opener_script = tmp_path / "xdg-open"
    opener_script.write_text("#!/bin/sh\nexit 3\n")
    opener_script.chmod(0o755)
    run_dir = await record_run(tmp_path / "runs")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    viewer.show()
    failing = Opener(viewer, command=str(opener_script))
    failing.use_qt = False  # as on Linux, whatever this test runs on
    failing.failed.connect(viewer.open_note.show_failure)
    viewer.open_url = failing.open
    await viewer.load(run_dir)
    with qtbot.waitSignal(failing.failed, timeout=10_000) as failed:
        viewer.folder_button.click()
    assert failed.args == [str(run_dir), "no program on this computer opens it"]
    assert viewer.open_note.isVisible()
    assert "no program on this computer opens it" in viewer.open_note.label.text()
    await viewer.aclose()


async def test_a_target_reads_as_the_elements_name_not_its_index(qtbot: QtBot, tmp_path: Path) -> None:
    folder = RunFolder.for_run(tmp_path / "runs", "run_named").create()
    recorder = await JsonlRecorder.open(folder)
    await recorder.record_action(
        action={"kind": "fill", "target": {"index": 2}, "value": "a@b.co"}, outcome={"status": "ok"},
        target_resolved={"description": "index 2: input", "role": "textbox", "name": "Email", "index": 2},
    )  # fmt: skip
    await recorder.finish("SUCCESS", reason="done")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(folder.root)
    assert cell(viewer, 0, "Target") == "“Email” (textbox)"  # it read "element #2"


async def test_research_reads_are_listed_as_receipt_entries(qtbot: QtBot, tmp_path: Path) -> None:
    folder = RunFolder.for_run(tmp_path / "runs", "run_research").create()
    recorder = await JsonlRecorder.open(folder)
    for n in (1, 2):
        await recorder.record_evidence(
            url=f"http://127.0.0.1:8765/page{n}.html", content=f"page {n}", title=f"Page {n}",
            snippet=f"prices on page {n}", step_id="r1",
        )  # fmt: skip
    await recorder.finish("SUCCESS", reason="answered")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(folder.root)
    assert "0 actions, 2 pages read" in viewer.title.text()
    model = viewer.model
    assert [model.index(r, 1).data() for r in range(model.rowCount())] == ["Read page", "Read page"]
    assert model.index(0, 5).data() == "http://127.0.0.1:8765/page1.html"
    viewer.table.selectRow(1)
    assert not viewer.before.has_image and not viewer.after.has_image
    await viewer.aclose()


async def test_an_after_that_is_the_before_file_shows_both_and_verifies(qtbot: QtBot, tmp_path: Path) -> None:
    folder = RunFolder.for_run(tmp_path / "runs", "run_same").create()
    recorder = await JsonlRecorder.open(folder)
    url, view = "http://127.0.0.1:8000/a", "0,0,1280,800,1 focus -"
    page = Capture(url=url, dom_hash="d" * 64, screenshot=png_bytes(), view=view)
    await recorder.record_action(action={"kind": "wait", "text": "Ready"}, outcome={"status": "ok"},
                                 before=page, after=page)  # fmt: skip
    await recorder.finish("SUCCESS")
    viewer = ReceiptsViewer()
    qtbot.addWidget(viewer)
    await viewer.load(folder.root)
    assert viewer.before.has_image and viewer.after.has_image  # one file, shown on both sides
    assert "= before" in viewer.after_caption.text()
    check = await viewer.verify_run()
    assert check.chain.ok and check.chain.files_checked == 2  # the record names the file twice
