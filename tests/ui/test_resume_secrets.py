"""A run paused at a gate resumes after a restart: its declared secrets are asked for again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from executor.models import RunStatus
from executor.run.service import AgentCore
from planner.models import SecretRef, TaskSpecV1
from tests.support.window import next_emit, open_window, research_then_act
from ui.secrets_prompt import SecretsDialog


async def test_resume_after_restart_asks_for_the_secrets_again(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    task = TaskSpecV1(
        user_query="Sign in with password hunter2", secrets=[SecretRef(name="password", kind="password")]
    )
    plan = research_then_act().model_copy(update={"task": task})
    first = make_core()
    async with open_window(first) as window:
        asked = next_emit(window.controller.gate_requested)
        window.controller.run_plan(plan)
        await asyncio.wait_for(asked, 10)
    restarted = make_core()  # a new process: the same run store, no secrets in memory
    async with open_window(restarted) as window:
        paused = window.paused_run()
        assert paused is not None
        run_id = paused.run_id
        assert [r.name for r in window.controller.missing_secrets(run_id)] == ["password"]
    async with open_window(restarted) as window:
        assert window.offer_resume() and window.resume_offer is not None
        window.resume_offer.button(QMessageBox.StandardButton.Yes).click()
        dialog = window.secrets_dialog
        assert isinstance(dialog, SecretsDialog) and dialog.isVisible()
        assert not dialog.resume_button.isEnabled()  # nothing typed yet
        qtbot.keyClicks(dialog.fields["password"], "hunter2")
        asked = next_emit(window.controller.gate_requested)
        finished = next_emit(window.controller.run_finished)
        dialog.resume_button.click()
        await asyncio.wait_for(asked, 10)
        assert restarted.missing_secrets(run_id) == []  # handed to the resumed run
        assert window.gate_dialog is not None
        window.gate_dialog.approve_button.click()
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.SUCCESS


async def test_declining_to_enter_secrets_does_not_resume(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    task = TaskSpecV1(user_query="Sign in", secrets=[SecretRef(name="password", kind="password")])
    plan = research_then_act().model_copy(update={"task": task})
    async with open_window(make_core()) as window:
        asked = next_emit(window.controller.gate_requested)
        window.controller.run_plan(plan)
        await asyncio.wait_for(asked, 10)
    async with open_window(make_core()) as window:
        window._on_resume_requested(window.paused_run().run_id)  # type: ignore[union-attr]
        assert window.secrets_dialog is not None
        window.secrets_dialog.reject()
        assert not window.controller.busy
        assert window.task_panel.notice.text() == "Not resumed: the run needs its secrets to continue."
