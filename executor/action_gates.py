"""Per-action gates inside an approved step: the conductor's side of ToolContext.ask.

An ACT step's approval covers the step; an action in it that would submit, pay, delete, log in or
send gets its own action-scoped gate (`<step gate>:<risk>:<n>`). This asker answers such a gate the
way the conductor answers a step's gate: a stored answer for (gate, step) first (a resumed run
brings the person's answer with it), else the same HumanConfirmBroker, recorded in the run store,
the receipts chain and the event stream. None means "nobody can answer now": the step pauses.
"""

from __future__ import annotations

from typing import Any

from executor.budget import BudgetEnforcer
from executor.checkpoint_store import CheckpointStore
from executor.confirm import ConfirmRequest, HumanConfirmBroker
from executor.events import EventSink, GateDecided, GatePending
from executor.gate_preview import take_gate_preview
from executor.gatekeeper import ApprovalBook
from executor.models import (
    Approval,
    ApprovalPolicy,
    BudgetStateV1,
    GateDecisionV1,
    PendingUserInput,
    StepRunV1,
    StepStatus,
)
from executor.run_resources import RunResources
from planner.models import Step


async def record_gate(
    resources: RunResources | None, decision: GateDecisionV1, verdict: str, by: str
) -> None:
    """Every gate decision joins the receipts' hash chain, scoped to its run, gate and step."""
    if resources is None:
        return
    recorder = await resources.recorder()
    await recorder.record_gate_decision(
        gate_id=decision.gate_id,
        decision=verdict,
        step_id=decision.step_id,
        scope="step",
        decided_by=by,
        gate_kind=decision.gate_kind,
        reason=decision.reason,
        blocked_actions=decision.blocked_actions,
    )


async def gate_screenshot(resources: RunResources | None, name: str) -> str | None:
    """The page as it is now, for the person deciding; None before the run opened a browser."""
    if resources is None or not resources.browser_started:
        return None
    return await take_gate_preview(
        await resources.driver(), resources.run_id, resources.run_dir / "gates", name
    )


async def put_question(
    *,
    run_id: str,
    trace_id: str,
    step: Step,
    decision: GateDecisionV1,
    pending: PendingUserInput,
    broker: HumanConfirmBroker,
    store: CheckpointStore,
    events: EventSink,
    resources: RunResources | None,
    target: str | None = None,
    screenshot_path: str | None = None,
) -> Approval | None:
    """Asks about one gate (a step's or an action's) and records the answer everywhere it belongs:
    the run store, the receipts chain and the event stream. None: nobody can answer now."""
    events.publish(GatePending(run_id=run_id, decision=decision, pending=pending))
    request = ConfirmRequest(
        run_id=run_id,
        trace_id=trace_id,
        decision=decision,
        step_id=step.step_id,
        step_name=step.name or step.type_name,
        step_type=step.type_name,
        step_inputs=step.inputs,
        target=target,
        screenshot_path=screenshot_path,
        checkpoint_ref=pending.checkpoint_ref,
    )
    approval = await broker.resolve(request)
    if approval is None:
        await record_gate(resources, decision, "pending", "nobody yet")
        return None
    store.record_approval(approval)
    await record_gate(
        resources, decision, "approved" if approval.approved else "declined", approval.decided_by
    )
    events.publish(GateDecided(run_id=run_id, decision=decision, approved=approval.approved))
    return approval


class ActionGateAsker:
    """Implements executor.tools.ActionAsker for one step of one run."""

    def __init__(
        self,
        *,
        run_id: str,
        trace_id: str,
        step: Step,
        approvals: ApprovalBook,
        broker: HumanConfirmBroker,
        store: CheckpointStore,
        events: EventSink,
        resources: RunResources | None,
        budget: BudgetEnforcer | None = None,
        last_url: str | None = None,
    ) -> None:
        self.run_id = run_id
        self.trace_id = trace_id
        self.step = step
        self.approvals = approvals
        self.broker = broker
        self.store = store
        self.events = events
        self.resources = resources
        self.budget = budget
        self.last_url = last_url

    async def __call__(
        self,
        decision: GateDecisionV1,
        *,
        target: str | None,
        screenshot_path: str | None,
        progress: dict[str, Any] | None = None,
    ) -> Approval | None:
        known = self.approvals.get(decision.gate_id, self.step.step_id)
        if known is not None:
            verdict = "approved" if known.approved else "declined"
            await record_gate(self.resources, decision, verdict, known.decided_by)
            return known
        pending = HumanConfirmBroker.pending(decision, self.step, None)
        if (
            progress is not None
            and self.broker.policy is ApprovalPolicy.ASK
            and self.broker.handler is not None
        ):  # a person may take a while, or never come: checkpoint the progress first
            ref = await self._checkpoint(decision, pending, progress)
            pending = pending.model_copy(update={"checkpoint_ref": ref})
        approval = await put_question(
            run_id=self.run_id,
            trace_id=self.trace_id,
            step=self.step,
            decision=decision,
            pending=pending,
            broker=self.broker,
            store=self.store,
            events=self.events,
            resources=self.resources,
            target=target,
            screenshot_path=screenshot_path,
        )
        if approval is not None:
            self.approvals.add(approval)
        return approval

    async def _checkpoint(
        self, decision: GateDecisionV1, pending: PendingUserInput, progress: dict[str, Any]
    ) -> str:
        """The step's progress saved (RUNNING) with a checkpoint, before the question is put: if the app
        closes while the person thinks, `resume` continues after the actions already done."""
        step_run = StepRunV1(
            step_id=self.step.step_id,
            step_type=self.step.type_name,
            status=StepStatus.RUNNING,
            outputs=progress,
            error=decision.reason,
            error_code="awaiting_confirmation",
        )
        budget = self.budget.state() if self.budget is not None else BudgetStateV1()
        self.store.save_step(
            self.run_id,
            step_run,
            new_evidence=[],
            budget=budget,
            last_url=self.last_url,
        )
        return self.store.save_checkpoint(self.run_id, pending)
