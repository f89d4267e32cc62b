"""The gate's preview on a real Chromium: the run's own page at the moment of asking, or no page yet.

Two runs of the prefill example in one window: the second run's gate must not show the first run's
filled form (the Live view still holds it), and whatever it shows was taken for this run, before the
answer.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from app.demo.server import DemoSite
from executor.gates.preview import read_gate_preview
from executor.models import RunStatus
from executor.run.service import AgentCore
from tests.support.window import next_emit, open_window, prefill_task
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


def _ask(window: MainWindow, task: str) -> asyncio.Future[tuple[Any, ...]]:
    asked = next_emit(window.controller.gate_requested)
    window.controller.plan_and_run(task, planner="rules", safe_mode=True)
    return asked


async def _deny(window: MainWindow) -> None:
    finished = next_emit(window.controller.run_finished)
    assert window.gate_dialog is not None
    window.gate_dialog.deny_button.click()
    await asyncio.wait_for(finished, 60)
    await window.controller.wait_idle()


def _marked(window: MainWindow) -> list[tuple[str, str | None, bool]]:
    dialog = window.gate_dialog
    assert dialog is not None and dialog.preview is not None
    return [(m.label, m.value, m.box is not None) for m in dialog.preview.marks]


async def test_the_gate_marks_the_fields_it_will_fill_with_their_values(
    qtbot: QtBot, demo_core: AgentCore, demo_site: DemoSite
) -> None:
    """Before, the first gate of a prefill run showed no page at all (the browser had not started)."""
    async with open_window(demo_core) as window:
        await asyncio.wait_for(_ask(window, prefill_task(demo_site)), 60)
        dialog = window.gate_dialog
        assert dialog is not None and dialog.screenshot.has_image
        assert dialog.preview is not None and dialog.preview.url.endswith("/signup.html")
        assert _marked(window) == [
            ("Full name", "Alice Nguyen", True),
            ("Email", "alice@example.com", True),
            ("Company", "Acme", True),
        ]
        assert "1. Type into “Full name”: Alice Nguyen" in dialog.touch_label.text()
        assert dialog.screenshot.mark_centre(1) is not None
        await _deny(window)
    assert demo_site.posts("/signup") == 0


async def test_a_research_then_act_gate_shows_the_form_it_will_fill(
    qtbot: QtBot, demo_core: AgentCore, demo_site: DemoSite
) -> None:
    """Before, it showed the last page research read (or about:blank), not the form."""
    from app.demo.flows import FLOWS

    (flow,) = [f for f in FLOWS if f.mode == "C"]
    async with open_window(demo_core) as window:
        await asyncio.wait_for(_ask(window, flow.task(demo_site.base_url)), 120)
        dialog = window.gate_dialog
        assert dialog is not None and dialog.preview is not None
        assert dialog.preview.url.endswith("/signup.html"), dialog.preview.url
        labels = [label for label, _, boxed in _marked(window) if boxed]
        assert labels[:3] == ["Full name", "Email", "Company"]
        await _deny(window)


async def test_a_gate_resumed_in_a_new_process_shows_the_page(
    qtbot: QtBot, demo_core: AgentCore, demo_site: DemoSite, tmp_path: Path
) -> None:
    """Before, the resumed gate said "No page yet" although the run had opened its page."""
    from app.settings import Settings
    from app.wiring import build_core

    async with open_window(demo_core) as window:
        (request,) = await asyncio.wait_for(_ask(window, prefill_task(demo_site)), 60)
    settings = Settings(runs_dir=tmp_path / "runs", search_url=demo_site.search_template, planner="rules")
    later = build_core(settings)  # as after a restart: a new core, no browser open
    try:
        async with open_window(later) as window:
            asked = next_emit(window.controller.gate_requested)
            window.controller.resume_run(request.run_id)
            await asyncio.wait_for(asked, 60)
            dialog = window.gate_dialog
            assert dialog is not None and dialog.screenshot.has_image
            assert dialog.preview is not None and dialog.preview.url.endswith("/signup.html")
            await _deny(window)
    finally:
        later.store.close()
