"""A person thinking at the gate is not the agent working: the run keeps its time budget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from pytestqt.qtbot import QtBot

from executor.models import RunStatus
from executor.run.service import AgentCore
from planner.models import Budget
from tests.support.virtual_time import JumpClock
from tests.support.window import next_emit, open_window, research_then_act


async def test_time_at_the_gate_is_not_charged_and_the_budget_view_says_so(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    clock = JumpClock()
    core = make_core(clock=clock)
    plan = research_then_act()
    plan = plan.model_copy(update={"budget": Budget(**{**plan.budget.model_dump(), "max_time_ms": 1500})})
    async with open_window(core) as window:
        asked = next_emit(window.controller.gate_requested)
        finished = next_emit(window.controller.run_finished)
        window.controller.run_plan(plan, safe_mode=True)
        await asyncio.wait_for(asked, 10)
        clock.advance(2.0)  # the person reads the question: longer than the whole budget
        assert window.gate_dialog is not None
        window.gate_dialog.approve_button.click()
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
        assert bundle.budget_used.time_ms_used < 1500 <= bundle.budget_used.person_wait_ms
        assert window.live_view.wait_label.text().startswith("Not counted: ")
        assert "waiting for you" in window.live_view.wait_label.text()
