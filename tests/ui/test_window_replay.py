"""Replay from the window, on a real Chromium and the demo site: one replay path through the core.

A replay started from History writes receipts signed by this install (it verified UNSIGNED when the
window's core passed no key), asks the original run's gate, and leaves the finished run's plan rows
as they were (its step turned "Asking you" while the replay asked).
"""

from __future__ import annotations

import asyncio

import pytest
from pytestqt.qtbot import QtBot

from app.demo.server import DemoSite
from executor.models import RunStatus
from executor.run.service import AgentCore
from receipts.attest import check_run
from tests.support.window import next_emit, open_window, prefill_task

pytestmark = pytest.mark.browser


async def test_a_window_replay_is_signed_and_leaves_the_plan_rows_alone(
    qtbot: QtBot, demo_core: AgentCore, demo_site: DemoSite
) -> None:
    async with open_window(demo_core) as window:
        controller = window.controller
        asked = next_emit(controller.gate_requested)
        finished = next_emit(controller.run_finished)
        window.task_panel.task_edit.setPlainText(prefill_task(demo_site))
        window.task_panel.run_button.click()
        (request,) = await asyncio.wait_for(asked, 60)
        assert window.gate_dialog is not None
        window.gate_dialog.approve_button.click()
        (bundle,) = await asyncio.wait_for(finished, 120)
        await controller.wait_idle()
        assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
        step = request.step_id
        assert window.plan_view.model.status_of(step) == "SUCCESS"

        window.history_panel.select_run(bundle.run_id)
        asked = next_emit(controller.gate_requested)
        replayed = next_emit(controller.replay_finished)
        window.history_panel.replay_button.click()
        (replay_request,) = await asyncio.wait_for(asked, 60)
        assert window.plan_view.model.status_of(step) == "SUCCESS", "the finished run's row changed"
        assert window.gate_dialog is not None
        assert replay_request.step_name == f"Replay: {request.step_name}"  # not "Replay of step stp_a1"
        preview = window.gate_dialog.preview  # the replay's gate marks what it will fill, as the run's did
        assert preview is not None and preview.url.endswith("/signup.html")
        assert [(m.label, m.value) for m in preview.marks] == [
            ("Full name", "Alice Nguyen"),
            ("Email", "alice@example.com"),
            ("Company", "Acme"),
        ]
        assert all(m.box is not None for m in preview.marks)
        window.gate_dialog.approve_button.click()
        (report,) = await asyncio.wait_for(replayed, 120)
        await controller.wait_idle()
        assert report.ok, report.summary()
        assert window.plan_view.model.status_of(step) == "SUCCESS"

    check = check_run(demo_core.run_dir(report.replay_run))
    assert check.ok, check.summary()
    assert demo_site.posts("/signup") == 0
