"""The bridge on the real core with a real Chromium and the bundled demo site (flow B: prefill)."""

from __future__ import annotations

import asyncio

import pytest

from app.demo.server import DemoSite
from executor.journal.events import ActionRecorded
from executor.models import RunStatus
from executor.run.service import AgentCore
from receipts.layout import RunFolder
from receipts.models import ActionRecord
from receipts.report import read_records
from tests.support.window import next_emit, prefill_task
from ui.controller import RunController

pytestmark = pytest.mark.browser


def fills(core: AgentCore, run_id: str) -> list[str]:
    records = [r for _, r in read_records(RunFolder(core.run_dir(run_id)))]
    return [str(r.value) for r in records if isinstance(r, ActionRecord) and r.action.get("kind") == "fill"]


async def test_approving_prefills_the_form_and_submits_nothing(
    demo_core: AgentCore, demo_site: DemoSite
) -> None:
    controller = RunController(demo_core)
    shots: list[ActionRecorded] = []
    controller.action_recorded.connect(shots.append)
    asked = next_emit(controller.gate_requested)
    finished = next_emit(controller.run_finished)
    controller.plan_and_run(prefill_task(demo_site), planner="rules")
    (request,) = await asyncio.wait_for(asked, 60)
    assert request.decision.blocked_actions[:1] == ["submit"]
    controller.approve()
    (bundle,) = await asyncio.wait_for(finished, 120)
    await controller.wait_idle()
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert fills(demo_core, bundle.run_id) == ["Alice Nguyen", "alice@example.com", "Acme"]
    assert any(e.screenshot_path for e in shots)  # the live view gets real page pictures
    assert demo_site.posts("/signup") == 0


async def test_denying_touches_nothing(demo_core: AgentCore, demo_site: DemoSite) -> None:
    controller = RunController(demo_core)
    asked = next_emit(controller.gate_requested)
    finished = next_emit(controller.run_finished)
    controller.plan_and_run(prefill_task(demo_site), planner="rules")
    await asyncio.wait_for(asked, 60)
    controller.deny()
    (bundle,) = await asyncio.wait_for(finished, 60)
    await controller.wait_idle()
    assert bundle.run_status is RunStatus.BLOCKED_POLICY
    assert fills(demo_core, bundle.run_id) == []


async def test_closing_at_the_gate_leaves_a_run_that_resumes(
    demo_core: AgentCore, demo_site: DemoSite
) -> None:
    controller = RunController(demo_core)
    asked = next_emit(controller.gate_requested)
    controller.plan_and_run(prefill_task(demo_site), planner="rules")
    (request,) = await asyncio.wait_for(asked, 60)
    await asyncio.wait_for(controller.aclose(), 30)
    (summary,) = demo_core.history()
    assert (summary.run_id, summary.status) == (request.run_id, "NEEDS_CONFIRMATION")
    bundle = await demo_core.resume(request.run_id, approve_pending=True)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert fills(demo_core, bundle.run_id) == ["Alice Nguyen", "alice@example.com", "Acme"]
    assert demo_site.posts() == 0


async def test_replay_asks_the_same_gate_and_a_deny_refills_nothing(
    demo_core: AgentCore, demo_site: DemoSite
) -> None:
    controller = RunController(demo_core)
    asked = next_emit(controller.gate_requested)
    finished = next_emit(controller.run_finished)
    controller.plan_and_run(prefill_task(demo_site), planner="rules")
    (original,) = await asyncio.wait_for(asked, 60)
    controller.approve()
    (bundle,) = await asyncio.wait_for(finished, 120)
    await controller.wait_idle()
    assert fills(demo_core, bundle.run_id) == ["Alice Nguyen", "alice@example.com", "Acme"]
    asked = next_emit(controller.gate_requested)
    replayed = next_emit(controller.replay_finished)
    controller.replay_run(bundle.run_id)
    (request,) = await asyncio.wait_for(asked, 60)  # the replay asks before touching the form
    assert request.decision.gate_id == original.decision.gate_id
    assert request.step_id == original.step_id
    controller.deny()
    (report,) = await asyncio.wait_for(replayed, 120)
    await controller.wait_idle()
    assert fills(demo_core, report.replay_run) == []
    assert any(step.note == "declined at the gate in this replay" for step in report.steps)
    assert demo_site.posts("/signup") == 0
