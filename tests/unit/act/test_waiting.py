"""While a person decides about one action, the step's progress is already checkpointed."""

from __future__ import annotations

from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
from executor.models import RunStatus, StepRunV1, StepStatus
from tests.support.loop_harness import LoopHarness, plan_of
from tests.unit.act._scripted import ScriptedDriver


class Inspector:
    """Approves everything; when asked about the submit, looks at what the store holds right then."""

    def __init__(self, loop: LoopHarness) -> None:
        self.loop = loop
        self.during: StepRunV1 | None = None
        self.request: ConfirmRequest | None = None

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        if request.decision.gate_kind == "submit":
            self.request = request
            self.during = self.loop.store.load(request.run_id).step_runs["a1"]
        return ConfirmAnswer.APPROVE


async def test_progress_is_saved_before_the_question(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver(
        [
            {"tag": "input", "role": "textbox", "name": "Email"},
            {"tag": "button", "role": "button", "name": "Create account"},
        ]
    )
    actions = [
        {"kind": "fill", "target": {"index": 0}, "value": "a@b.co"},
        {"kind": "click", "target": {"index": 1}},
    ]
    inspector = Inspector(loop)
    plan = plan_of({"step_id": "a1", "type": "ACT", "inputs": {"actions": actions}}, blocked=[])
    bundle = await loop.run(plan, confirm=inspector)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert inspector.request is not None and inspector.request.checkpoint_ref is not None
    assert inspector.request.target == "click index=1"
    during = inspector.during
    assert during is not None and during.status is StepStatus.RUNNING
    assert during.outputs["act_progress"]["done"] == 1 and during.outputs["act_progress"]["count"] == 1
    assert bundle.step_runs[0].status is StepStatus.SUCCESS
    assert [a.kind for a in loop.driver.performed] == ["fill", "click"]
