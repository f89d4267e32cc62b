"""StepAwaitsPerson through the conductor and AgentCore: progress kept, resume answers the action's gate."""

from __future__ import annotations

from pathlib import Path

from executor.gates.approval import ApprovalPolicy
from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
from executor.gates.desk import ActionGate, Allowed, Unanswered
from executor.models import PendingUserInput, RunStatus, StepStatus
from executor.run.service import AgentCore
from executor.store.checkpoint_store import CheckpointStore
from executor.tools.boundary import StepAwaitsPerson, ToolContext, ToolOutput
from executor.tools.engine import ToolCallEngine
from executor.tools.registry import RunnerRegistry
from planner.models import ExecutionPlan, Step


class TwoHalves:
    """Does half its work, asks about the second half, and remembers where it was."""

    def __init__(self) -> None:
        self.first_half = 0
        self.second_half = 0

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput:
        progress = dict(ctx.step_outputs.get(step.step_id, {}))
        if not progress.get("half_done"):
            self.first_half += 1
        question = ActionGate(step_gate=None, risk="submit", n=2, reason="send?", target="click Send")
        assert ctx.clear_action is not None
        cleared = await ctx.clear_action(question)  # gate id gate_action:submit:2
        if isinstance(cleared, Unanswered):
            pending = PendingUserInput(kind="CONFIRMATION", message="send?", gate_id=cleared.decision.gate_id,
                                       step_id=step.step_id)  # fmt: skip
            raise StepAwaitsPerson(pending, {"half_done": True})
        approved = isinstance(cleared, Allowed)
        self.second_half += approved
        return ToolOutput(outputs={"sent": approved})


async def test_pause_then_resume_with_approve_pending(tmp_path: Path) -> None:
    runner = TwoHalves()
    core = AgentCore(
        store=CheckpointStore(tmp_path / "waypost.sqlite3"),
        tools={},
        runs_dir=tmp_path,
        registry=RunnerRegistry({"ACT": runner}),
    )
    plan = ExecutionPlan.model_validate({"mode": "B", "steps": [{"step_id": "a1", "type": "ACT"}]})
    paused = await core.run(plan, safe_mode=False)
    assert paused.run_status is RunStatus.NEEDS_CONFIRMATION
    assert (
        paused.pending_user_input is not None and paused.pending_user_input.gate_id == "gate_action:submit:2"
    )
    (step,) = paused.step_runs
    assert step.status is StepStatus.RUNNING and step.outputs == {"half_done": True}

    done = await core.resume(paused.run_id, approve_pending=True, safe_mode=False)
    assert done.run_status is RunStatus.SUCCESS, done.reason
    assert (runner.first_half, runner.second_half) == (1, 1)  # nothing done twice
    assert done.step_runs[0].outputs == {"sent": True}


class AsksWithProgress:
    """Asks about one action; its progress is counted each time the desk writes it out."""

    def __init__(self) -> None:
        self.written = 0

    def progress(self) -> dict[str, object]:
        self.written += 1
        return {"half_done": True}

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput:
        question = ActionGate(step_gate=None, risk="submit", n=2, reason="send?", progress=self.progress)
        assert ctx.clear_action is not None
        cleared = await ctx.clear_action(question)
        return ToolOutput(outputs={"sent": isinstance(cleared, Allowed)})


class Approves:
    def __init__(self) -> None:
        self.checkpoints: list[str | None] = []

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        self.checkpoints.append(request.checkpoint_ref)
        return ConfirmAnswer.APPROVE


async def test_a_step_progress_is_written_out_only_when_a_person_is_asked(tmp_path: Path) -> None:
    """A long step's progress holds its whole history: under --approve all nobody will read it, so
    the desk never writes it out; when a person is asked it is saved with a checkpoint first."""
    runner = AsksWithProgress()
    core = AgentCore(store=CheckpointStore(tmp_path / "waypost.sqlite3"), tools={}, runs_dir=tmp_path,
                     registry=RunnerRegistry({"ACT": runner}))  # fmt: skip
    plan = ExecutionPlan.model_validate({"mode": "B", "steps": [{"step_id": "a1", "type": "ACT"}]})

    auto = await core.run(plan, safe_mode=False, approval_policy=ApprovalPolicy.ALL)
    assert auto.run_status is RunStatus.SUCCESS, auto.reason
    assert auto.step_runs[0].outputs == {"sent": True} and runner.written == 0

    person = Approves()
    asked = await core.run(plan, safe_mode=False, confirm=person)
    assert asked.run_status is RunStatus.SUCCESS, asked.reason
    assert runner.written == 1
    (ref,) = person.checkpoints
    assert ref is not None and ref.startswith(f"chk://{asked.run_id}/")
