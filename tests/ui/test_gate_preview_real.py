"""The gate's preview on a real Chromium: the run's own page at the moment of asking, or no page yet.

Two runs of the prefill example in one window: the second run's gate must not show the first run's
filled form (the Live view still holds it), and whatever it shows was taken for this run, before the
answer.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.demo.server import DemoSite
from executor.gate_preview import read_gate_preview
from executor.models import RunStatus
from executor.service import AgentCore
from tests.ui.conftest import next_emit, open_window, prefill_task
from ui.main_window import MainWindow

pytestmark = pytest.mark.browser


async def run_to_gate_and_approve(window: MainWindow, task: str) -> tuple[str, RunStatus]:
    asked = next_emit(window.controller.gate_requested)
    finished = next_emit(window.controller.run_finished)
    started = datetime.now(UTC)
    window.controller.plan_and_run(task, planner="rules", safe_mode=True)
    (request,) = await asyncio.wait_for(asked, 60)
    dialog = window.gate_dialog
    assert dialog is not None
    # What the core captured for this very question (None: this run had no page when it asked).
    preview = read_gate_preview(request.screenshot_path, request.run_id)
    if dialog.screenshot.has_image:
        assert preview is not None, "the dialog shows a picture this run never took"
        assert started <= preview.taken_at <= datetime.now(UTC)
        assert Path(preview.screenshot_path).is_relative_to(window.controller.run_dir(request.run_id))
        assert preview.url in dialog.page_label.text()
    dialog.approve_button.click()
    (bundle,) = await asyncio.wait_for(finished, 120)
    await window.controller.wait_idle()
    return request.run_id, bundle.run_status


async def test_second_runs_gate_never_shows_the_first_runs_filled_form(
    qtbot: QtBot, demo_core: AgentCore, demo_site: DemoSite
) -> None:
    async with open_window(demo_core) as window:
        first, status = await run_to_gate_and_approve(window, prefill_task(demo_site))
        assert status is RunStatus.SUCCESS
        assert window.live_view.latest_screenshot  # the first run's filled form is on the Live view
        second, status = await run_to_gate_and_approve(window, prefill_task(demo_site))
        assert second != first and status is RunStatus.SUCCESS
    assert demo_site.posts("/signup") == 0
