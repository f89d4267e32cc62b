"""Step and Live views follow the run's events and are right after stop, abort, finish and a new run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from executor.journal.events import ActionRecorded
from executor.models import RunStatus, StepRunV1, StepStatus
from executor.run.service import AgentCore
from planner.models import Budget
from tests.support.conductor_harness import make_plan
from tests.support.fake_tools import FakeTool
from tests.support.window import next_emit, open_window, png_bytes
from ui.plan_view import PlanView


def hanging_plan(**budget: int) -> object:
    plan = make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH", "name": "Search"}])
    if budget:
        plan = plan.model_copy(update={"budget": Budget(**{**plan.budget.model_dump(), **budget})})
    return plan


async def test_stop_leaves_no_step_running(qtbot: QtBot, make_core: Callable[..., AgentCore]) -> None:
    core = make_core(web_search=FakeTool("web_search", hang=True))
    async with open_window(core) as window:
        started = next_emit(window.controller.step_begun)
        cancelled = next_emit(window.controller.run_cancelled)
        window.controller.run_plan(hanging_plan(), safe_mode=True)  # type: ignore[arg-type]
        await asyncio.wait_for(started, 10)
        assert window.plan_view.model.status_of("r1") == StepStatus.RUNNING
        window.live_view.stop_button.click()
        await asyncio.wait_for(cancelled, 10)
        assert window.plan_view.model.status_of("r1") == "STOPPED"
        assert "Stopped" in window.live_view.action_label.text()


async def test_an_aborted_run_leaves_no_step_running(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    core = make_core(web_search=FakeTool("web_search", hang=True))
    async with open_window(core) as window:
        finished = next_emit(window.controller.run_finished)
        window.controller.run_plan(hanging_plan(max_time_ms=300), safe_mode=True)  # type: ignore[arg-type]
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.run_status is RunStatus.ABORTED_BUDGET
        assert window.plan_view.model.status_of("r1") != StepStatus.RUNNING
        assert window.answer_panel.status_label.text() == "<b>Stopped: over its budget</b>"


async def test_a_new_run_starts_with_an_empty_live_view(
    qtbot: QtBot, core: AgentCore, tmp_path: Path
) -> None:
    async with open_window(core) as window:
        shot = tmp_path / "old.png"
        shot.write_bytes(png_bytes())
        window.live_view.on_action_recorded(  # the previous run's last page
            ActionRecorded(run_id="run_old", step_id="a1", seq=1, action={"kind": "fill"}, status="ok",
                            url="http://127.0.0.1/signup", screenshot_path=str(shot))
        )  # fmt: skip
        assert window.live_view.screenshot.has_image
        started = next_emit(window.controller.run_opened)
        finished = next_emit(window.controller.run_finished)
        window.controller.run_plan(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]), safe_mode=True)
        await asyncio.wait_for(started, 10)
        view = window.live_view  # a fresh name: mypy keeps no narrowing from before the run
        assert (view.screenshot.has_image, view.latest_screenshot, view.url_label.text()) == (False, None, "")
        await asyncio.wait_for(finished, 10)


def test_an_act_step_counts_its_browser_actions(qtbot: QtBot) -> None:
    view = PlanView()
    qtbot.addWidget(view)
    view.set_plan(make_plan("B", [{"step_id": "a1", "type": "ACT", "name": "Prefill the form"}]))
    view.on_step_recorded(
        StepRunV1(
            step_id="a1",
            step_type="ACT",
            status=StepStatus.SUCCESS,
            actions=["navigate", "fill", "fill", "fill", "click"],
        )
    )
    model = view.model
    assert model.index(0, 0).data() == "Prefill the form"  # the person's name for the step, not its id
    assert model.index(0, 4).data() == "5 actions"
    assert model.index(0, 2).data() == "Done"


async def test_the_time_bar_moves_during_a_long_step(
    qtbot: QtBot, make_core: Callable[..., AgentCore]
) -> None:
    core = make_core(web_search=FakeTool("web_search", hang=True))
    async with open_window(core) as window:
        started = next_emit(window.controller.step_begun)
        window.controller.run_plan(hanging_plan(), safe_mode=True)  # type: ignore[arg-type]
        await asyncio.wait_for(started, 10)
        (seconds,) = await asyncio.wait_for(next_emit(window.live_view.clock_ticked), 10)
        assert seconds > 0 and window.live_view.time_bar.text() == f"{seconds:.1f} s / 300.0 s"
        window.controller.stop()
        await window.controller.wait_idle()
        assert not window.live_view._clock.isActive()
