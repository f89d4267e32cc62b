"""One leg of a run (start or resume, up to its end or a checkpoint): its state and its collaborators.

The conductor's loop reads top to bottom because everything a leg accumulates and every way a leg
ends (concluded, ended resumable with a checkpoint, failed) lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from executor.gates.desk import GateDesk
from executor.gates.gatekeeper import Gatekeeper
from executor.journal.run_journal import RunJournal, StepPhase, StepRecorded
from executor.models import (
    CheckpointV1,
    ExecMode,
    PendingUserInput,
    RunBundleV1,
    RunStatus,
    StepRunV1,
    StepStatus,
)
from executor.run.budget import BudgetEnforcer
from executor.run.dispatcher import StepDispatcher
from executor.run.output import OutputFormatter
from executor.run.resources import RunResources
from executor.run.scheduler import StepScheduler
from executor.tools.answer import AnswerAssembler
from executor.tools.evidence import EvidenceLedger
from planner.asks import meaningful_unread
from planner.model_words import run_sentence
from planner.models import ExecutionPlan


@dataclass(kw_only=True)
class RunState:
    """Everything one leg of a run accumulates; the journal's store holds the durable copy."""

    run_id: str
    plan: ExecutionPlan
    exec_mode: ExecMode
    started_at: datetime
    step_runs: dict[str, StepRunV1] = field(default_factory=dict)
    #: step_id -> outputs of finished steps, kept alongside step_runs so tools read it in O(1).
    outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    actions: list[str] = field(default_factory=list)
    act_actions: list[str] = field(default_factory=list)
    last_url: str | None = None
    run_dir: str | None = None
    resources: RunResources | None = None
    #: Something outside the run stopped this leg (its browser died): the run's status says FAILED,
    #: but its receipts are sealed INTERRUPTED, for the run can be resumed in a new browser.
    interrupted: bool = False
    #: Which leg of the run this is (1: its start, 2: its first resume, ...), from the run store.
    leg: int | None = None

    def restore(self, checkpoint: CheckpointV1) -> None:
        """Takes back what earlier legs did, so finished steps are never run again."""
        self.step_runs = dict(checkpoint.step_runs)
        self.outputs = {sid: run.outputs for sid, run in checkpoint.step_runs.items()}
        self.actions = list(checkpoint.actions_taken)
        acting = {s.step_id for s in self.plan.steps if s.is_action}
        self.act_actions = [
            action
            for sid, run in checkpoint.step_runs.items()
            if sid in acting and run.status is StepStatus.SUCCESS
            for action in run.actions
        ]
        self.last_url = checkpoint.last_url

    def took(self, step_run: StepRunV1, *, acting: bool) -> None:
        self.step_runs[step_run.step_id] = step_run
        self.outputs[step_run.step_id] = step_run.outputs
        self.actions.extend(step_run.actions)
        if acting and step_run.status is StepStatus.SUCCESS:
            self.act_actions.extend(step_run.actions)
        self.last_url = step_run.outputs.get("final_url", self.last_url)


@dataclass(kw_only=True)
class RunLeg:
    """A leg's collaborators and its three endings: `conclude` (no step left: the status the steps
    earned), `end_resumable` (a checkpoint to resume from: a gate, a question, the budget) and
    `bundle` (the RunBundleV1 every ending returns). A person's hold between steps is not an ending:
    that is executor/run/pause.py."""

    state: RunState
    journal: RunJournal
    desk: GateDesk
    budget: BudgetEnforcer
    ledger: EvidenceLedger
    scheduler: StepScheduler
    dispatcher: StepDispatcher
    fmt: OutputFormatter

    def adopt(self, plan: ExecutionPlan, *, safe_mode: bool) -> None:
        """Runs on under a revised plan (executor.run.revision): its steps, its gates."""
        mode = self.state.exec_mode
        self.scheduler = StepScheduler(plan.steps, mode, self.state.step_runs)
        self.desk.gatekeeper = Gatekeeper(plan, run_id=self.state.run_id, safe_mode=safe_mode, exec_mode=mode)

    async def record(self, step_run: StepRunV1, phase: StepPhase = "progress") -> None:
        """A step run the scheduler settled (resolved), or the progress of a step awaiting a person."""
        self.state.step_runs[step_run.step_id] = step_run
        if phase == "progress":
            self.state.outputs[step_run.step_id] = step_run.outputs
        entry = StepRecorded(
            step_run=step_run,
            phase=phase,
            budget=self.budget.state(),
            last_url=self.state.last_url,
        )
        await self.journal.append(entry)

    async def record_resolved(self) -> None:
        for resolved in self.scheduler.take_resolved():
            await self.record(resolved.as_step_run(), "resolved")

    def bundle(
        self,
        status: RunStatus,
        reason: str,
        pending: PendingUserInput | None = None,
        checkpoint_ref: str | None = None,
        not_done: str | None = None,
    ) -> RunBundleV1:
        """The run's bundle; `not_done` opens the answer (a part of the task no step did)."""
        state, ledger = self.state, self.ledger
        runs = list(state.step_runs.values())
        blocked = pending is not None and pending.kind == "BLOCKED"  # declined: over, not waiting
        waiting = (pending.question or pending.message) if pending is not None and not blocked else None
        declined = (pending.step_name or "the step") if pending is not None and blocked else None
        optional = frozenset(s.step_id for s in state.plan.steps if s.optional)
        answer, citations = AnswerAssembler().assemble(
            runs, ledger.items, state.actions, waiting=waiting, optional=optional, declined=declined
        )
        if not_done:
            answer = f"Not done: {not_done}.\n\n{answer}"
        instead = run_sentence(state.plan, [r.outputs for r in runs])  # said once, in words
        if instead:
            answer = f"{answer}\n\n{instead}"
        return self.fmt.bundle(
            status,
            reason=reason,
            step_runs=runs,
            evidence=ledger.items,
            actions=state.actions,
            act_actions=state.act_actions,
            answer=answer,
            citations=citations,
            budget=self.budget.state(),
            last_url=state.last_url,
            run_dir=state.run_dir,
            pending=pending,
            checkpoint_ref=checkpoint_ref,
        )

    async def end_resumable(
        self, status: RunStatus, reason: str, pending: PendingUserInput | None
    ) -> RunBundleV1:
        """Ends the leg with a checkpoint to resume from."""
        ref = await self.journal.checkpoint(pending)
        if pending is not None:
            pending = pending.model_copy(update={"checkpoint_ref": ref})
        return self.bundle(status, reason, pending=pending, checkpoint_ref=ref)

    def conclude(self) -> RunBundleV1:
        """No step is left: the run's status says what the steps achieved, never more."""
        runs = self.state.step_runs.values()
        succeeded = sum(1 for r in runs if r.status is StepStatus.SUCCESS)
        unmet = [
            r
            for r in runs
            if r.status is StepStatus.FAILED
            or (r.status is StepStatus.SKIPPED and r.error_code != "enough_evidence")
        ]
        optional = {s.step_id for s in self.state.plan.steps if s.optional}
        required_unmet = [r for r in unmet if r.step_id not in optional]
        if required_unmet:
            if succeeded == 0:
                return self.bundle(RunStatus.FAILED, _describe(required_unmet))
            return self.bundle(RunStatus.PARTIAL, _describe(required_unmet))
        unsure = _unknown_outcomes(list(runs))
        if unsure:
            return self.bundle(RunStatus.PARTIAL, unsure)
        if self.state.plan.verify_criteria.require_citations and self.ledger.count() == 0:
            return self.bundle(RunStatus.PARTIAL, "citations are required but no evidence was gathered")
        unread = _unread(self.state.plan)
        if unread:  # what was asked and not understood was not done, whatever the steps found
            return self.bundle(RunStatus.PARTIAL, unread, not_done=unread)
        return self.bundle(RunStatus.SUCCESS, "all steps finished")


def _unread(plan: ExecutionPlan) -> str | None:
    """The parts of the task the rules could not read, in one sentence; an ACT step already fails on
    them (executor/act/asked.py), a reading run says so here."""
    parts = meaningful_unread(plan.task.asks) if plan.task else []
    said = "; ".join(f'"{p}"' for p in parts)
    return f"I did not do {said}: I could not tell what it asks for" if parts else None


def _unknown_outcomes(runs: list[StepRunV1]) -> str | None:
    """Actions a stopped run may have performed and nobody repeated: their effect is not known, so
    the run says so instead of claiming SUCCESS (executor/act/intent.py)."""
    found = [
        f"{r.step_id}: {item.get('action')} may or may not have happened (not repeated, "
        f"declined by {item.get('decided_by')})"
        for r in runs
        if r.status is StepStatus.SUCCESS
        for item in r.outputs.get("unknown_outcomes") or []
        if isinstance(item, dict)
    ]
    return "outcome unknown: " + "; ".join(found) if found else None


def _describe(runs: list[StepRunV1]) -> str:
    head = "; ".join(
        f"{r.step_id} {r.status.lower()}: {r.error}"
        if r.error
        else f"{r.step_id} {r.status.lower()} ({r.error_code or 'error'})"
        for r in runs[:5]
    )
    more = f" and {len(runs) - 5} more" if len(runs) > 5 else ""
    return f"unfinished steps: {head}{more}"
