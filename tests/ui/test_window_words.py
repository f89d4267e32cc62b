"""People's words where a person reads, and the small things that used to surprise: an error says where
to fix it, the resume offer says where a run waits, a paused run is offered, the URL belongs to its
task."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from common.words import plural
from executor.run.service import AgentCore
from executor.tools.boundary import ToolContext
from tests.support.conductor_harness import make_plan
from tests.support.fake_tools import FakeTool
from tests.support.window import DEFAULT_SETTINGS, next_emit, open_window
from ui.controller import RunController
from ui.main_window import MainWindow


def test_counts_read_as_words() -> None:
    assert (plural(1, "step"), plural(2, "step"), plural(0, "action")) == ("1 step", "2 steps", "0 actions")


async def _held_then_closed(make_core: Callable[..., AgentCore]) -> tuple[AgentCore, str]:
    """A run paused by the person (not at a gate), then the window closed: the store keeps it RUNNING."""
    windows: list[MainWindow] = []

    def pause_now(_ctx: ToolContext) -> None:  # the person clicks Pause while the search works
        windows[0].live_view.pause_button.click()

    core = make_core(web_search=FakeTool("web_search", evidence_per_call=1, on_call=pause_now))
    search = {"step_id": "r1", "type": "WEB_SEARCH", "name": "Search packages"}
    plan = make_plan("A", [search, {"step_id": "c1", "type": "COMPUTE", "depends_on": ["r1"]}])
    async with open_window(core) as window:
        windows.append(window)
        held = next_emit(window.controller.held)
        started = next_emit(window.controller.run_opened)
        window.controller.run_plan(plan)
        (event,) = await asyncio.wait_for(started, 10)
        await asyncio.wait_for(held, 10)
    return core, str(event.run_id)


async def test_a_run_paused_mid_way_is_offered_on_relaunch_and_no_says_where_it_waits(
    qtbot: QtBot, make_core: Callable[..., AgentCore], tmp_path: Path
) -> None:
    core, run_id = await _held_then_closed(make_core)
    assert [(r.run_id, r.status) for r in core.history()] == [(run_id, "RUNNING")]
    state = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    window = MainWindow(RunController(core), DEFAULT_SETTINGS, window_state=state)
    qtbot.addWidget(window)
    window.show()
    assert window.offer_resume(), "a paused run was not offered"
    box = window.resume_offer
    assert box is not None and "stopped or paused before it finished" in box.text()
    assert "waits in History" in box.informativeText()
    box.button(QMessageBox.StandardButton.No).click()
    assert window.tabs.currentWidget() is window.history_panel
    selected = window.history_panel.selected()
    assert selected is not None and selected.run_id == run_id
    assert "select it and press Resume" in window.task_panel.notice.text()
    again = MainWindow(RunController(core), DEFAULT_SETTINGS, window_state=state)
    qtbot.addWidget(again)
    assert not again.offer_resume()  # asked once: not at every launch


async def test_the_url_goes_with_its_task(qtbot: QtBot, core: AgentCore) -> None:
    """It kept its value into the next task."""
    async with open_window(core) as window:
        panel = window.task_panel
        panel.task_edit.setPlainText("Read the pricing table")
        panel.url_edit.setText("http://127.0.0.1:8765/pricing.html")
        panel.plan_button.click()  # used with this task
        await window.controller.wait_idle()
        panel.task_edit.setPlainText("Read the pricing table again")  # the same task, edited: kept
        assert panel.url_edit.text() == "http://127.0.0.1:8765/pricing.html"
        panel.task_edit.setPlainText("Open the signup page")  # another task
        assert panel.url_edit.text() == ""
        panel.url_edit.setText("http://127.0.0.1:8765/a.html")
        panel.plan_button.click()
        await window.controller.wait_idle()
        panel.task_edit.clear()  # emptied: a new task comes
        assert panel.url_edit.text() == ""
        panel.url_edit.setText("http://127.0.0.1:8765/b.html")  # typed before the task: it stays
        panel.task_edit.setPlainText("Read b")
        assert panel.url_edit.text() == "http://127.0.0.1:8765/b.html"


def test_a_citation_nothing_can_open_shows_its_address_with_copy(qtbot: QtBot) -> None:
    """Citation links failed silently when no browser would run (as root, say)."""
    from PySide6.QtGui import QGuiApplication

    from ui.answer_panel import AnswerPanel

    panel = AnswerPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.open_url = lambda _url: False
    panel.open_source("http://127.0.0.1:8765/pricing.html")
    assert (
        panel.open_note.isVisible() and "http://127.0.0.1:8765/pricing.html" in panel.open_note.label.text()
    )
    panel.open_note.copy_button.click()
    clipboard = QGuiApplication.clipboard()
    assert clipboard is not None and clipboard.text() == "http://127.0.0.1:8765/pricing.html"


async def test_a_failed_run_names_its_steps_not_their_ids(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    """The notice read "unfinished steps: stp_o1 failed: ...; stp_c1 skipped: needs 'stp_o1'"."""
    core = make_core(web_search=FakeTool("web_search", fatal=True))
    search = {"step_id": "r1", "type": "WEB_SEARCH", "name": "Search packages"}
    plan = make_plan("A", [search, {"step_id": "c1", "type": "COMPUTE", "depends_on": ["r1"]}])
    async with open_window(core) as window:
        finished = next_emit(window.controller.run_finished)
        window.controller.run_plan(plan)
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert "r1" in bundle.reason  # the core's reason keeps the ids, for the tooltip
        notice = window.task_panel.notice.text()
        assert notice.startswith("Failed: ") and "“Search packages” failed" in notice, notice
        assert "r1" not in notice and "c1" not in notice, notice
        assert "r1" in window.task_panel.notice.toolTip() or "r1" in window.statusBar().toolTip()


def test_a_replay_says_which_actions_it_left_out() -> None:
    """A sent run's replay read "Replayed 4 actions: no drift" with its Submit click silently left out."""
    from executor.run.replay import ReplayReport, ReplayStep
    from ui.words import replay_words

    filled = [ReplayStep(seq=n, kind="fill", status="ok", url_expected="u", url_actual="u") for n in (1, 2)]
    risky = "would submit; replay with include_risky to perform it"
    sent = ReplayStep(seq=3, kind="click", status="skipped", note=risky)
    report = ReplayReport(source_run="run_1", replay_run="replay_1", steps=[*filled, sent])
    assert replay_words(report) == "Replayed 2 actions: no drift; 1 action not replayed (would submit)"
    whole = ReplayReport(source_run="run_1", replay_run="replay_1", steps=filled)
    assert replay_words(whole) == "Replayed 2 actions: no drift"
