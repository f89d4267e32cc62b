"""Errors and questions next to the task box; a window that fits the screen and remembers its place."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings, QSize
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.gui import window_state
from executor.run.service import AgentCore
from tests.support.window import DEFAULT_SETTINGS, next_emit, open_window
from ui.controller import RunController
from ui.main_window import MainWindow
from ui.window_rules import default_size


async def test_an_empty_task_says_so_next_to_the_task_box(qtbot: QtBot, core: AgentCore) -> None:
    async with open_window(core) as window:
        window.task_panel.run_button.click()
        notice = window.task_panel.notice
        assert notice.isVisible() and notice.text() == "Type a task first: what should Waypost do?"
        assert not window.controller.busy


async def test_a_planning_error_shows_next_to_the_task_box_says_where_to_fix_it_and_clears_the_plan(
    qtbot: QtBot, core: AgentCore
) -> None:
    async with open_window(core) as window:
        failed = next_emit(window.controller.failed)
        window.task_panel.task_edit.setPlainText("Research the datafeed packages and compare prices")
        window.task_panel.set_planner("llm")  # the Model planner, with no model configured
        window.task_panel.run_button.click()
        (message,) = await asyncio.wait_for(failed, 10)
        await window.controller.wait_idle()
        notice = window.task_panel.notice
        assert notice.isVisible() and message in notice.text()
        assert window.plan_view.model.rowCount() == 0
        # it said "Could not finish: PlannerConfigError: the llm planner needs a model…"
        assert "File › Settings › Model" in notice.text() and "Rules" in notice.text()
        assert "PlannerConfigError" not in notice.text() and "PlannerConfigError" in notice.toolTip()


def test_default_size_fits_the_available_screen() -> None:
    assert default_size(QSize(1920, 1080)) == QSize(1280, 800)
    small = default_size(QSize(1280, 800))  # a 1280x800 screen less panels: the status bar stays visible
    assert small.width() <= 1280 - 40 and small.height() <= 800 - 60
    assert default_size(QSize(1024, 600)).width() >= 800


def test_minimum_width_is_800_and_geometry_is_remembered(
    qtbot: QtBot, core: AgentCore, tmp_path: Path
) -> None:
    state = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    window = MainWindow(RunController(core), DEFAULT_SETTINGS, window_state=state)
    qtbot.addWidget(window)
    window.show()
    assert window.minimumWidth() == 800
    window.resize(800, 600)
    qtbot.waitUntil(lambda: window.width() == 800)
    window.resize(800, 650)  # the offscreen screen is 800 px wide: any height but the default
    qtbot.waitUntil(lambda: window.size() == QSize(800, 650))
    window.close()
    again = MainWindow(RunController(core), DEFAULT_SETTINGS, window_state=state)
    qtbot.addWidget(again)
    assert again.size() == QSize(800, 650)
    assert again.size() != default_size(again.screen().availableGeometry().size())


def test_the_saved_geometry_stays_out_of_the_persons_config(qapp: QApplication) -> None:
    """The real window saves its geometry when it closes; under tests that lands in a temporary
    folder (tests/ui/conftest.py), never in ~/.config."""
    path = Path(window_state().fileName())
    assert not path.is_relative_to(Path.home() / ".config"), path
    assert path.is_relative_to(tempfile.gettempdir()), path
