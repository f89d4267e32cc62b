"""The gate desk: the one place a step or an action is cleared to run.

`clear(scope, step, action)` decides from the plan's gates and the answers already given, and when a
person must answer it checkpoints first (the app may close while they think), asks through the
HumanConfirmBroker (terminal, window or policy) and appends the answer to the run journal, which
takes it to the store, the receipts and the event bus. Nothing else in the executor builds a gate
question or records a gate answer (docs/architecture.md, "Gates").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from executor.gates.confirm import ConfirmRequest, HumanConfirmBroker
from executor.gates.gatekeeper import DEFAULT_ACTION_GATE, ApprovalBook, Gatekeeper
from executor.gates.look import ShowStep
from executor.gates.preview import take_gate_preview
from executor.journal.run_journal import GateAnswered, GateAsked, RunJournal, StepRecorded
from executor.models import (
    Approval,
    BudgetStateV1,
    GateDecisionV1,
    GateVerdict,
    PendingUserInput,
    StepRunV1,
    StepStatus,
)
from executor.run.resources import RunResources
from planner.models import Step
from receipts.models import GateDecisionRecord

Scope = Literal["step", "action"]


@dataclass(frozen=True, kw_only=True)
class ActionGate:
    """An action inside an approved step that its step's approval does not cover (a risky kind, or
    one the model is unsure of). The desk names its gate `<step gate>:<risk>:<n>`."""

    step_gate: GateDecisionV1 | None
    risk: str
    reason: str
    n: int
    #: A repeat of an action whose outcome is unknown: which sending of action n it would be
    #: repeating (docs/architecture.md, "Actions in flight"). Each one is a question of its own.
    attempt: int = 1
    target: str | None = None
    screenshot_path: str | None = None
    #: What the step has done so far, as its outputs: saved (RUNNING) with a checkpoint before a
    #: person is asked. A function, called only then: the outputs hold the step's whole history,
    #: and writing them out for every approved action would cost a long step O(actions) each.
    progress: Callable[[], dict[str, Any]] | None = None


@dataclass(frozen=True)
class Allowed:
    decision: GateDecisionV1
    approval: Approval | None = None


@dataclass(frozen=True)
class Denied:
    decision: GateDecisionV1
    by: str
    #: The leg of the run that declined (1: its start, 2: its first resume, ...).
    leg: int | None = None


@dataclass(frozen=True)
class Unanswered:
    """Nobody can answer now; pending carries the checkpoint to resume from when one was taken."""

    decision: GateDecisionV1
    pending: PendingUserInput


Cleared = Allowed | Denied | Unanswered


#: The run's budget and last page as they are now: what a progress save writes beside the step.
RunFacts = Callable[[], tuple[BudgetStateV1, str | None]]


def _no_facts() -> tuple[BudgetStateV1, str | None]:
    return BudgetStateV1(), None


class GateDesk:
    """Clears steps and actions for one leg of one run."""

    def __init__(
        self,
        *,
        gatekeeper: Gatekeeper,
        approvals: ApprovalBook,
        broker: HumanConfirmBroker,
        journal: RunJournal,
        trace_id: str,
        resources: RunResources | None = None,
        facts: RunFacts = _no_facts,
        leg: int | None = None,
        show: ShowStep | None = None,
    ) -> None:
        """`show` makes the picture a step's question shows (executor/gates/look.py StepPictures);
        without it, the run's page as it is."""
        #: This leg of the run (1: its start, 2: its first resume, ...): each answer given here says so.
        self.leg = leg
        self.show = show
        self.gatekeeper = gatekeeper
        self.approvals = approvals
        self.broker = broker
        self.journal = journal
        self.trace_id = trace_id
        self.resources = resources
        self.facts = facts

    async def clear(self, scope: Scope, step: Step, action: ActionGate | None = None) -> Cleared:
        """Allowed (run it), Denied (recorded; it never runs) or Unanswered (nobody can answer now)."""
        if scope == "action":
            if action is None:
                raise ValueError("an action-scoped gate needs the action")
            return await self._clear_action(step, action)
        return await self._clear_step(step)

    async def _clear_step(self, step: Step) -> Cleared:
        decision, approval = self.gatekeeper.decide(step, self.approvals)
        if approval is not None and approval.decided_by == "confirmed_gates":
            approval = self._stamped(approval)
            await self._answered(decision, "approved", approval.decided_by, stored=approval)
        if decision.decision is GateVerdict.NEED_CONFIRM:
            pending = HumanConfirmBroker.pending(decision, step, None)
            ref = await self.journal.checkpoint(pending)  # first: the app may close while they think
            pending = pending.model_copy(update={"checkpoint_ref": ref})
            shot = await self._picture(step)
            answer = await self._ask(step, decision, pending, target=None, screenshot_path=shot)
            if answer is None:
                return Unanswered(decision, pending)
            decision, _ = self.gatekeeper.decide(step, self.approvals)
            if decision.decision is GateVerdict.DENY:
                return Denied(decision, decision.decided_by or "user", self.leg)
        elif decision.decision is GateVerdict.DENY:
            by = decision.decided_by or "policy"
            await self._answered(decision, "declined", by)
            return Denied(decision, by, approval.leg if approval else self.leg)
        return Allowed(decision, approval)

    async def _picture(self, step: Step) -> str | None:
        """The step's page with its elements marked only when a person will look: under --approve
        all or none, or with nobody to ask, that look would open the step's page for no one, before
        the run's own records of it. Otherwise the run's page as it is."""
        if self.show is not None and self.broker.asks_a_person:
            return await self.show(step)
        return await gate_screenshot(self.resources, step.step_id)

    async def _clear_action(self, step: Step, action: ActionGate) -> Cleared:
        decision = _action_decision(self.journal.run_id, step, action)
        known = self.approvals.get(decision.gate_id, step.step_id)
        if known is not None:  # given earlier (a person's answer to the question the run paused at)
            said: Literal["approved", "declined"] = "approved" if known.approved else "declined"
            await self._answered(decision, said, known.decided_by, leg=known.leg)
            return _verdict(decision, known)
        pending = HumanConfirmBroker.pending(decision, step, None)
        broker = self.broker
        if action.progress is not None and broker.asks_a_person:
            # a person may take a while, or never come: save what the step did and checkpoint first
            ref = await self._save_progress(step, decision, pending, action.progress())
            pending = pending.model_copy(update={"checkpoint_ref": ref})
        answer = await self._ask(
            step, decision, pending, target=action.target, screenshot_path=action.screenshot_path
        )
        if answer is None:
            return Unanswered(decision, unanswered(action, step.step_id))
        return _verdict(decision, answer)

    async def _ask(
        self,
        step: Step,
        decision: GateDecisionV1,
        pending: PendingUserInput,
        *,
        target: str | None,
        screenshot_path: str | None,
    ) -> Approval | None:
        """Puts the question through the broker; None: nobody can answer now."""
        await self.journal.append(GateAsked(decision=decision, pending=pending))
        request = ConfirmRequest(
            run_id=self.journal.run_id,
            trace_id=self.trace_id,
            decision=decision,
            step_id=step.step_id,
            step_name=step.name or step.type_name,
            step_type=step.type_name,
            step_inputs=step.inputs,
            target=target,
            screenshot_path=screenshot_path,
            checkpoint_ref=pending.checkpoint_ref,
        )
        approval = await self.broker.resolve(request)
        if approval is None:
            await self._answered(decision, "pending", "nobody yet")
            return None
        approval = self._stamped(approval)
        self.approvals.add(approval)
        verdict: Literal["approved", "declined"] = "approved" if approval.approved else "declined"
        await self._answered(decision, verdict, approval.decided_by, stored=approval, asked=True)
        return approval

    async def _answered(
        self,
        decision: GateDecisionV1,
        verdict: Literal["approved", "declined", "pending"],
        by: str,
        *,
        stored: Approval | None = None,
        asked: bool = False,
        leg: int | None = None,
    ) -> None:
        """`leg`: the leg whose answer this is, when an earlier one gave it; else this leg."""
        entry = GateAnswered(
            decision=decision, verdict=verdict, by=by, approval=stored, asked=asked, leg=leg or self.leg
        )
        await self.journal.append(entry)

    def _stamped(self, approval: Approval) -> Approval:
        """The approval with the leg that gave it (this one, unless it already names one)."""
        if approval.leg is not None or self.leg is None:
            return approval
        return approval.model_copy(update={"leg": self.leg})

    async def _save_progress(
        self,
        step: Step,
        decision: GateDecisionV1,
        pending: PendingUserInput,
        progress: dict[str, Any],
    ) -> str:
        """The step's progress saved RUNNING, then a checkpoint: if the app closes while the person
        thinks, resume continues after the actions already done."""
        step_run = StepRunV1(
            step_id=step.step_id,
            step_type=step.type_name,
            status=StepStatus.RUNNING,
            outputs=progress,
            error=decision.reason,
            error_code="awaiting_confirmation",
        )
        budget, last_url = self.facts()
        await self.journal.append(
            StepRecorded(step_run=step_run, phase="progress", budget=budget, last_url=last_url)
        )
        return await self.journal.checkpoint(pending)


def action_gate_id(action: ActionGate) -> str:
    """`<step gate>:<risk>:<n>`: one question per risky action, stable across a pause and resume; a
    repeat of a later sending of action n adds which one (`...:repeat:<n>.<attempt>`)."""
    gate = action.step_gate
    attempt = f".{action.attempt}" if action.attempt > 1 else ""
    return f"{gate.gate_id if gate else DEFAULT_ACTION_GATE}:{action.risk}:{action.n}{attempt}"


def unanswered(action: ActionGate, step_id: str) -> PendingUserInput:
    """What a step paused at this action waits for: the conductor checkpoints it on the way out."""
    gate = action.step_gate
    return PendingUserInput(
        kind="CONFIRMATION",
        message=f"{action.reason}: {action.target}",
        gate_id=action_gate_id(action),
        step_id=step_id,
        blocked_actions=list(gate.blocked_actions) if gate else [],
    )


def _action_decision(run_id: str, step: Step, action: ActionGate) -> GateDecisionV1:
    gate = action.step_gate
    return GateDecisionV1(
        gate_id=action_gate_id(action),
        decision=GateVerdict.NEED_CONFIRM,
        reason=action.reason,
        step_id=step.step_id,
        run_id=run_id,
        gate_kind=action.risk,
        blocked_actions=list(gate.blocked_actions) if gate else [],
    )


def _verdict(decision: GateDecisionV1, approval: Approval) -> Cleared:
    if approval.approved:
        return Allowed(decision, approval)
    return Denied(decision, approval.decided_by, approval.leg)


async def gate_screenshot(resources: RunResources | None, name: str) -> str | None:
    """The page as it is now, for the person deciding; None before the run opened a browser."""
    if resources is None or not resources.browser_started:
        return None
    return await take_gate_preview(
        await resources.driver(), resources.run_id, resources.run_dir / "gates", name
    )


def replay_question(
    gate: GateDecisionRecord,
    step_id: str,
    replay_run_id: str,
    *,
    step_name: str | None = None,
    screenshot_path: str | None = None,
) -> ConfirmRequest:
    """The question a replay asks again before acting where the source run was gated: replay acts on
    live pages, so it passes the same gates (executor/run/replay_gates.py asks it, once per step)."""
    decision = GateDecisionV1(
        gate_id=gate.gate_id,
        decision=GateVerdict.NEED_CONFIRM,
        reason=f"Replay acts on the live page again. {gate.reason}".strip(),
        step_id=step_id,
        run_id=replay_run_id,
        gate_kind=gate.gate_kind,
        blocked_actions=gate.blocked_actions,
    )
    return ConfirmRequest(
        run_id=replay_run_id,
        trace_id=replay_run_id,
        decision=decision,
        step_id=step_id,
        step_name=f"Replay: {step_name}" if step_name else "Replay of a recorded step",
        step_type="REPLAY",
        screenshot_path=screenshot_path,
    )
