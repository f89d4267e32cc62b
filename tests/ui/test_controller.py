"""RunController against the real AgentCore on fake tools: gates, events as signals, stop, close."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from executor.gates.approval import ApprovalPolicy
from executor.gates.confirm import ConfirmRequest
from executor.models import RunBundleV1, RunStatus, StepRunV1, StepStatus
from executor.run.service import AgentCore
from tests.support.conductor_harness import make_plan
from tests.support.fake_tools import FakeTool
from tests.support.window import next_emit, research_then_act
from ui.controller import ControllerBusy, RunController


async def test_gate_is_asked_and_approving_finishes_success(core: AgentCore) -> None:
    controller = RunController(core)
    asked = next_emit(controller.gate_requested)
    finished = next_emit(controller.run_finished)
    controller.run_plan(research_then_act(), safe_mode=True)
    (request,) = await asyncio.wait_for(asked, 10)
    assert isinstance(request, ConfirmRequest)
    assert (request.decision.gate_id, request.step_id) == ("gate_action", "a1")
    assert request.decision.blocked_actions == ["submit", "purchase", "delete"]  # the task asked for neither
    assert controller.gate_pending
    controller.approve()
    (bundle,) = await asyncio.wait_for(finished, 10)
    assert isinstance(bundle, RunBundleV1)
    assert bundle.run_status is RunStatus.SUCCESS
    await controller.wait_idle()
    assert not controller.busy


async def test_denying_ends_blocked_policy(core: AgentCore) -> None:
    controller = RunController(core)
    asked = next_emit(controller.gate_requested)
    finished = next_emit(controller.run_finished)
    controller.run_plan(research_then_act())
    await asyncio.wait_for(asked, 10)
    controller.deny()
    (bundle,) = await asyncio.wait_for(finished, 10)
    assert bundle.run_status is RunStatus.BLOCKED_POLICY
    assert {r.step_id: r.status for r in bundle.step_runs}["a1"] is StepStatus.BLOCKED_GATE


async def test_every_step_is_reported_before_run_finished(core: AgentCore) -> None:
    controller = RunController(core)
    seen: list[str] = []
    controller.step_begun.connect(lambda e: seen.append(f"start {e.step_id}"))
    controller.step_recorded.connect(lambda r: seen.append(f"end {r.step_id} {r.status}"))
    controller.run_finished.connect(lambda b: seen.append(f"finished {b.run_status}"))
    budgets: list[int] = []
    controller.budget_updated.connect(lambda s: budgets.append(s.tool_calls_used))
    finished = next_emit(controller.run_finished)
    controller.run_plan(
        make_plan(
            "A",
            [
                {"step_id": "r1", "type": "WEB_SEARCH"},
                {"step_id": "s1", "type": "SUMMARIZE", "depends_on": ["r1"]},
            ],
        )
    )
    await asyncio.wait_for(finished, 10)
    assert seen == ["start r1", "end r1 SUCCESS", "start s1", "end s1 SUCCESS", "finished SUCCESS"]
    assert budgets == [1, 2]


async def test_closing_at_a_gate_pauses_and_the_run_resumes(core: AgentCore) -> None:
    controller = RunController(core)
    asked = next_emit(controller.gate_requested)
    controller.run_plan(research_then_act())
    (request,) = await asyncio.wait_for(asked, 10)
    closed = next_emit(controller.gate_closed)
    await asyncio.wait_for(controller.aclose(), 10)
    assert (await closed) == ("pause",)
    (summary,) = core.history()
    assert summary.run_id == request.run_id
    assert summary.status == RunStatus.NEEDS_CONFIRMATION
    bundle = await core.resume(request.run_id, approve_pending=True)
    assert bundle.run_status is RunStatus.SUCCESS


async def test_stop_cancels_a_hanging_step_cleanly(make_core: Callable[..., AgentCore]) -> None:
    core = make_core(web_search=FakeTool("web_search", hang=True))
    controller = RunController(core)
    started = next_emit(controller.step_begun)
    cancelled = next_emit(controller.run_cancelled)
    controller.run_plan(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]))
    (event,) = await asyncio.wait_for(started, 10)
    controller.stop()
    (run_id,) = await asyncio.wait_for(cancelled, 10)
    assert run_id == event.run_id
    await controller.wait_idle()
    assert not controller.busy
    assert core.store.load(run_id).run_id == run_id  # the checkpoint written on cancel is readable


async def test_one_operation_at_a_time(make_core: Callable[..., AgentCore]) -> None:
    core = make_core(web_search=FakeTool("web_search", hang=True))
    controller = RunController(core)
    controller.run_plan(make_plan("A", [{"step_id": "r1", "type": "WEB_SEARCH"}]))
    with pytest.raises(ControllerBusy):
        controller.plan_task("anything")
    await controller.aclose()


async def test_plan_task_emits_the_plan(core: AgentCore) -> None:
    controller = RunController(core)
    ready = next_emit(controller.plan_ready)
    controller.plan_task(
        "Research the datafeed packages and compare their prices, with sources", planner="rules"
    )
    (result,) = await asyncio.wait_for(ready, 10)
    assert result.plan.mode.value == "A"
    assert result.planner_used == "rules"


async def test_a_failing_core_call_is_reported_not_lost(core: AgentCore) -> None:
    controller = RunController(core)
    failed = next_emit(controller.failed)
    controller.resume_run("run_does_not_exist")
    (message,) = await asyncio.wait_for(failed, 10)
    assert "run_does_not_exist" in message


async def test_resume_asks_the_gate_again(core: AgentCore) -> None:
    controller = RunController(core)
    asked = next_emit(controller.gate_requested)
    controller.run_plan(research_then_act())
    (first,) = await asyncio.wait_for(asked, 10)
    await controller.aclose()
    loaded = next_emit(controller.plan_loaded)
    asked_again = next_emit(controller.gate_requested)
    controller.resume_run(first.run_id)
    (plan,) = await asyncio.wait_for(loaded, 10)
    assert [s.step_id for s in plan.steps] == ["r1", "c1", "a1"]
    (again,) = await asyncio.wait_for(asked_again, 10)
    assert again.step_id == "a1"
    finished = next_emit(controller.run_finished)
    controller.approve()
    (bundle,) = await asyncio.wait_for(finished, 10)
    assert bundle.run_status is RunStatus.SUCCESS
    assert isinstance(bundle.step_runs[0], StepRunV1)


async def test_the_gate_question_comes_after_every_earlier_event(core: AgentCore) -> None:
    controller = RunController(core)
    order: list[str] = []
    controller.step_recorded.connect(lambda r: order.append(f"end {r.step_id}"))
    controller.gate_asked.connect(lambda e: order.append("saved"))
    controller.gate_requested.connect(lambda r: order.append("asked"))
    asked = next_emit(controller.gate_requested)
    controller.run_plan(research_then_act())
    await asyncio.wait_for(asked, 10)
    assert order == ["end r1", "end c1", "saved", "asked"]
    await controller.aclose()


async def test_idle_means_a_new_run_can_start_at_once(core: AgentCore) -> None:
    controller = RunController(core)
    busy: list[bool] = []
    controller.busy_changed.connect(busy.append)
    task = "Research the datafeed packages and compare their prices, with sources"
    for _ in range(2):
        ready = next_emit(controller.plan_ready)
        finished = next_emit(controller.run_finished)
        controller.plan_and_run(
            task, planner="rules", adjust=lambda p: p.model_copy(update={"reason_codes": ["X"]})
        )
        (result,) = await asyncio.wait_for(ready, 10)
        (bundle,) = await asyncio.wait_for(finished, 10)
        assert bundle.plan_id == result.plan.plan_id
        await controller.wait_idle()
        assert not controller.busy and busy[-1] is False
    assert busy == [True, False, True, False]
    assert core.store.load_plan(bundle.run_id).reason_codes == ["X"]  # the adjusted plan ran


async def test_a_run_asked_for_before_the_core_is_built_waits_for_it(core: AgentCore) -> None:
    """The window shows before the core exists (cold start): Run then waits instead of failing."""
    controller = RunController()
    assert not controller.core_is_ready
    assert controller.history() == []
    ready = next_emit(controller.core_ready)
    asked = next_emit(controller.gate_requested)
    controller.run_plan(research_then_act())
    assert controller.busy
    assert not asked.done()
    controller.set_core(core)
    await asyncio.wait_for(ready, 10)
    await asyncio.wait_for(asked, 10)
    controller.approve()
    await controller.wait_idle()
    assert [str(run.status) for run in controller.history()] == ["SUCCESS"]


async def test_the_window_says_starting_until_the_core_is_ready_then_lists_history(core: AgentCore) -> None:
    from PySide6.QtWidgets import QApplication

    from tests.support.window import DEFAULT_SETTINGS
    from ui.main_window import MainWindow

    finished = RunController(core)
    done = next_emit(finished.run_finished)
    finished.run_plan(research_then_act(), approval_policy=ApprovalPolicy.ALL)
    await asyncio.wait_for(done, 10)
    await finished.wait_idle()
    controller = RunController()
    window = MainWindow(controller, DEFAULT_SETTINGS)
    assert window.statusBar().currentMessage() == "Starting…"
    assert window.history_panel.table.rowCount() == 0
    controller.set_core(core)
    assert window.statusBar().currentMessage().startswith("Ready.")
    assert window.history_panel.table.rowCount() == 1
    window.close()
    QApplication.processEvents()
