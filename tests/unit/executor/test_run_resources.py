"""A run with resources leaves a verifiable run folder with its gate decisions and frees its browser."""

from __future__ import annotations

import json
from pathlib import Path

from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
from executor.models import Approval, RunStatus, RuntimeCtxV1
from executor.run.resources import RunResources
from executor.tools.boundary import ToolContext, ToolOutput
from receipts.layout import RunFolder
from receipts.models import GateDecisionRecord
from receipts.report import read_records
from receipts.verify import verify
from tests.support.conductor_harness import Harness, make_plan
from tests.support.fake_driver import FakeDriver


class Approve:
    def __init__(self) -> None:
        self.requests: list[ConfirmRequest] = []

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        self.requests.append(request)
        return ConfirmAnswer.APPROVE


async def test_run_folder_holds_gates_and_bundle(harness: Harness, tmp_path: Path) -> None:
    drivers: list[FakeDriver] = []

    async def open_page(args: dict[str, object], ctx: ToolContext) -> ToolOutput:
        assert ctx.resources is not None
        await ctx.resources.driver()  # the browser starts on first use
        return ToolOutput(final_url="http://127.0.0.1/page")

    async def fake_factory(resources: RunResources) -> FakeDriver:
        drivers.append(FakeDriver())
        return drivers[-1]

    harness.tools["open_url"] = open_page  # type: ignore[assignment]
    conductor = harness.conductor(confirm=(handler := Approve()))
    conductor.resources_factory = lambda run_id, run_dir: RunResources(
        run_id=run_id, run_dir=run_dir, driver_factory=fake_factory, fsync=False
    )
    plan = make_plan(
        "B",
        [{"step_id": "o1", "type": "OPEN_URL"}, {"step_id": "a1", "type": "FORM_FILL", "depends_on": ["o1"]}],
        task={"user_query": "prefill"},
    )
    bundle = await conductor.run(plan, RuntimeCtxV1(runs_dir=str(tmp_path)))
    assert bundle.run_status is RunStatus.SUCCESS
    run_dir = tmp_path / bundle.run_id
    report = verify(run_dir)
    assert report.ok, report.summary()
    gates = [r for _, r in read_records(RunFolder(run_dir)) if isinstance(r, GateDecisionRecord)]
    assert [(g.gate_id, g.step_id, g.decision, g.decided_by) for g in gates] == [
        ("gate_action", "a1", "approved", "user")
    ]
    meta = json.loads((run_dir / "run.json").read_text())
    assert meta["bundle"]["run_status"] == "SUCCESS" and meta["plan"]["plan_id"] == plan.plan_id
    (driver,) = drivers
    assert driver.closed
    (request,) = handler.requests
    assert request.screenshot_path is not None
    assert Path(request.screenshot_path).read_bytes().startswith(b"\x89PNG")  # noqa: ASYNC240


async def test_paused_then_declined_run_records_both(harness: Harness, tmp_path: Path) -> None:
    conductor = harness.conductor()
    conductor.resources_factory = lambda run_id, run_dir: RunResources(
        run_id=run_id, run_dir=run_dir, fsync=False
    )
    plan = make_plan("B", [{"step_id": "a1", "type": "FORM_FILL"}])
    paused = await conductor.run(plan, RuntimeCtxV1(runs_dir=str(tmp_path)))
    assert paused.run_status is RunStatus.NEEDS_CONFIRMATION

    declined = await conductor.run(
        plan,
        RuntimeCtxV1(
            runs_dir=str(tmp_path),
            resume_checkpoint_ref=paused.checkpoint_ref,
            approvals=[Approval(run_id=paused.run_id, gate_id="gate_action", step_id="a1", approved=False)],
        ),
    )
    assert declined.run_status is RunStatus.BLOCKED_POLICY
    run_dir = tmp_path / paused.run_id
    assert verify(run_dir).ok
    gates = [r.decision for _, r in read_records(RunFolder(run_dir)) if isinstance(r, GateDecisionRecord)]
    assert gates == ["pending", "declined"]
