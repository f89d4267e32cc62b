"""RunConductor: the Stage 4 loop of seed 000 section 1.5 (budget -> pick -> gate -> dispatch -> ledger).

State is written to the checkpoint store after every step, so a run killed between steps resumes
where it stopped, and a step that finished (an ACT above all) is never run twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from executor.action_gates import ActionGateAsker, gate_screenshot, put_question, record_gate
from executor.answer import AnswerAssembler
from executor.budget import BudgetEnforcer
from executor.checkpoint_store import CheckpointStore
from executor.confirm import ConfirmHandler, HumanConfirmBroker
from executor.dispatcher import StepDispatcher
from executor.errors import BudgetExceeded
from executor.events import (
    BudgetUpdated,
    EventSink,
    EvidenceAdded,
    NullSink,
    RunFinished,
    RunStarted,
    StepFinished,
    StepStarted,
)
from executor.evidence import EvidenceLedger
from executor.gatekeeper import ApprovalBook, Gatekeeper
from executor.models import (
    EXEC_MODE_FOR_PLAN,
    Approval,
    CheckpointV1,
    ExecMode,
    GateDecisionV1,
    GateVerdict,
    PendingUserInput,
    RunBundleV1,
    RunStatus,
    RuntimeCtxV1,
    StepRunV1,
    StepStatus,
)
from executor.observability import bind_log_context, log
from executor.output import OutputFormatter
from executor.pause import hold_point
from executor.rate_limit import RateLimitShield
from executor.registry import RunnerRegistry
from executor.retry import MODE_RETRY_POLICIES, RetryBackoffManager, RetryPolicy
from executor.run_resources import ResourcesFactory, RunResources
from executor.scheduler import StepScheduler
from executor.tool_engine import ToolCallEngine
from executor.tools import StepPaused, Tool, ToolContext
from planner.models import ExecutionPlan, PlanStatus, Step, new_id, utc_now


class ResumeMismatch(ValueError):
    """The checkpoint belongs to another plan: resuming would run the wrong steps."""


@dataclass(kw_only=True)
class _RunState:
    """Everything one leg of a run accumulates; the checkpoint store holds the durable copy."""

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


class RunConductor:
    """Builds the fourteen modules for one run and drives them. Reusable across runs."""

    def __init__(
        self,
        *,
        tools: Mapping[str, Tool],
        store: CheckpointStore,
        registry: RunnerRegistry | None = None,
        events: EventSink | None = None,
        confirm: ConfirmHandler | None = None,
        retry_policies: Mapping[ExecMode, RetryPolicy] | None = None,
        rate_overrides: dict[str, tuple[float, int]] | None = None,
        resources: ResourcesFactory | None = None,
    ) -> None:
        self.tools = tools
        self.resources_factory = resources
        self.store = store
        self.registry = registry or RunnerRegistry()
        self.events: EventSink = events or NullSink()
        self.confirm = confirm
        self.retry_policies = {**MODE_RETRY_POLICIES, **(retry_policies or {})}
        self.rate_overrides = rate_overrides

    async def run(
        self, plan: ExecutionPlan, runtime: RuntimeCtxV1, exec_mode: ExecMode | None = None
    ) -> RunBundleV1:
        mode = exec_mode or EXEC_MODE_FOR_PLAN[plan.mode]
        checkpoint = self._load_checkpoint(plan, runtime)
        run_id = checkpoint.run_id if checkpoint else (runtime.run_id or new_id("run"))
        run_dir = str(Path(runtime.runs_dir) / run_id) if runtime.runs_dir else None
        state = _RunState(run_id=run_id, plan=plan, exec_mode=mode, started_at=utc_now(), run_dir=run_dir)
        with bind_log_context(trace_id=plan.trace_id, run_id=run_id):
            task = plan.task.user_query if plan.task else ""
            self.store.start_run(
                run_id=run_id,
                plan=plan,
                exec_mode=str(mode),
                task=task,
                run_dir=state.run_dir,
            )
            self.events.publish(
                RunStarted(
                    run_id=run_id,
                    trace_id=plan.trace_id,
                    plan_id=plan.plan_id,
                    exec_mode=str(mode),
                    resumed=checkpoint is not None,
                    run_dir=state.run_dir,
                )
            )
            log.info("run started", extra={"exec_mode": str(mode), "resumed": checkpoint is not None})
            resources = None
            if self.resources_factory is not None and run_dir is not None:
                resources = self.resources_factory(run_id, Path(run_dir))
            state.resources = resources
            try:
                bundle = await self._run(state, runtime, checkpoint)
            except BaseException:
                if resources is not None:  # cancelled or crashed: still flush receipts, free the browser
                    await asyncio.shield(resources.close("INTERRUPTED", "run interrupted", {"plan": plan}))
                raise
            if resources is not None:
                await resources.close(
                    str(bundle.run_status), bundle.reason, {"task": task, "plan": plan, "bundle": bundle}
                )
            self.store.finish_run(run_id, bundle)
            self.events.publish(RunFinished(run_id=run_id, bundle=bundle))
            log.info("run finished", extra={"run_status": str(bundle.run_status), "reason": bundle.reason})
            return bundle

    def _load_checkpoint(self, plan: ExecutionPlan, runtime: RuntimeCtxV1) -> CheckpointV1 | None:
        if not runtime.resume_checkpoint_ref:
            return None
        checkpoint = self.store.load(runtime.resume_checkpoint_ref)
        if checkpoint.plan_id != plan.plan_id:
            raise ResumeMismatch(
                f"checkpoint {runtime.resume_checkpoint_ref} is for plan {checkpoint.plan_id}, "
                f"not {plan.plan_id}"
            )
        return checkpoint

    async def _run(
        self, state: _RunState, runtime: RuntimeCtxV1, checkpoint: CheckpointV1 | None
    ) -> RunBundleV1:
        plan, mode = state.plan, state.exec_mode
        fmt = OutputFormatter(plan, state.run_id, mode, state.started_at)
        if plan.plan_status is not PlanStatus.READY:
            question = (
                plan.clarification_question or "The task is not clear enough to act on. What should be done?"
            )
            return fmt.clarify(question, reason=f"plan_status={plan.plan_status}")

        prior_approvals = list(checkpoint.approvals) if checkpoint else []
        approvals = ApprovalBook(
            state.run_id,
            [*prior_approvals, *runtime.approvals],
            {gate for gate, ok in runtime.confirmed_gates.items() if ok},
        )
        if checkpoint is not None:
            state.step_runs = dict(checkpoint.step_runs)
            state.outputs = {sid: run.outputs for sid, run in checkpoint.step_runs.items()}
            state.actions = list(checkpoint.actions_taken)
            acting = {s.step_id for s in plan.steps if s.is_action}
            state.act_actions = [
                action
                for sid, run in checkpoint.step_runs.items()
                if sid in acting and run.status is StepStatus.SUCCESS
                for action in run.actions
            ]
            state.last_url = checkpoint.last_url
        budget = BudgetEnforcer(plan.budget, checkpoint.budget if checkpoint else None)
        ledger = EvidenceLedger(
            checkpoint.evidence if checkpoint else (), min_evidence=plan.verify_criteria.min_evidence
        )
        scheduler = StepScheduler(plan.steps, mode, state.step_runs)
        gatekeeper = Gatekeeper(plan, run_id=state.run_id, safe_mode=runtime.safe_mode, exec_mode=mode)
        broker = HumanConfirmBroker(runtime.approval_policy, self.confirm, budget.person_waiting)
        engine = ToolCallEngine(
            self.tools,
            rate=RateLimitShield(runtime.rate_profile, overrides=self.rate_overrides),
            retry=RetryBackoffManager(self.retry_policies[mode]),
            budget=budget,
            events=self.events,
        )
        dispatcher = StepDispatcher(self.registry, engine)

        def finish(
            status: RunStatus,
            reason: str,
            pending: PendingUserInput | None = None,
            checkpoint_ref: str | None = None,
        ) -> RunBundleV1:
            answer, citations = AnswerAssembler().assemble(
                list(state.step_runs.values()), ledger.items, state.actions
            )
            return fmt.bundle(
                status,
                reason=reason,
                step_runs=list(state.step_runs.values()),
                evidence=ledger.items,
                actions=state.actions,
                act_actions=state.act_actions,
                answer=answer,
                citations=citations,
                budget=budget.state(),
                last_url=state.last_url,
                run_dir=state.run_dir,
                pending=pending,
                checkpoint_ref=checkpoint_ref,
            )

        async def pause(status: RunStatus, reason: str, pending: PendingUserInput | None) -> RunBundleV1:
            ref = self.store.save_checkpoint(state.run_id, pending)
            if pending is not None:
                pending = pending.model_copy(update={"checkpoint_ref": ref})
            return finish(status, reason, pending=pending, checkpoint_ref=ref)

        try:
            while True:
                await self._record_resolved(state, scheduler, budget, ledger)
                exceeded = budget.exceeded()
                if exceeded:
                    return await pause(RunStatus.ABORTED_BUDGET, exceeded, None)
                step = scheduler.next_ready()
                if step is None:
                    break
                await hold_point(self.confirm, budget)  # Pause: hold here, browser and state kept
                decision, approval = gatekeeper.decide(step, approvals)
                answered_now = False  # put_question records a fresh answer in the receipts itself
                if approval is not None and approval.decided_by == "confirmed_gates":
                    self.store.record_approval(approval)
                    await record_gate(state.resources, decision, "approved", approval.decided_by)
                if decision.decision is GateVerdict.NEED_CONFIRM:
                    approval, pending = await self._ask(state, step, decision, broker)
                    if approval is None:
                        scheduler.requeue(step)
                        return finish(
                            RunStatus.NEEDS_CONFIRMATION,
                            f"gate {decision.gate_id} awaits confirmation",
                            pending=pending,
                            checkpoint_ref=pending.checkpoint_ref,
                        )
                    approvals.add(approval)
                    answered_now = True
                    decision, _ = gatekeeper.decide(step, approvals)
                if decision.decision is GateVerdict.DENY:
                    blocked = StepRunV1(
                        step_id=step.step_id,
                        step_type=step.type_name,
                        status=StepStatus.BLOCKED_GATE,
                        error=decision.reason,
                        error_code="gate_denied",
                        gate=decision,
                    )
                    state.step_runs[step.step_id] = blocked
                    if not answered_now:
                        await record_gate(
                            state.resources, decision, "declined", decision.decided_by or "policy"
                        )
                    pending = PendingUserInput(
                        kind="BLOCKED",
                        message=f"gate {decision.gate_id} {decision.reason}",
                        gate_id=decision.gate_id,
                        step_id=step.step_id,
                        step_name=step.name or step.type_name,
                        blocked_actions=decision.blocked_actions,
                    )
                    return await pause(
                        RunStatus.BLOCKED_POLICY, f"gate {decision.gate_id}: {decision.reason}", pending
                    )
                asker = ActionGateAsker(
                    run_id=state.run_id,
                    trace_id=plan.trace_id,
                    step=step,
                    approvals=approvals,
                    broker=broker,
                    store=self.store,
                    events=self.events,
                    resources=state.resources,
                    budget=budget,
                    last_url=state.last_url,
                )
                try:
                    step_run = await self._execute(
                        state, runtime, step, decision, dispatcher, ledger, budget, asker
                    )
                except StepPaused as paused:  # an action inside the step waits for a person
                    scheduler.requeue(step)
                    status = _PAUSE_STATUS.get(paused.pending.kind, RunStatus.NEEDS_CONFIRMATION)
                    return await pause(
                        status, f"step {step.step_id}: {paused.pending.message}", paused.pending
                    )
                scheduler.finish(step, step_run.status, step_run.error_code)
                if step_run.status is StepStatus.FAILED and not step.optional:
                    if mode is ExecMode.ACTION_ONLY:
                        return await pause(
                            RunStatus.FAILED, f"step {step.step_id} failed: {step_run.error}", None
                        )
                    if mode is ExecMode.CLARIFY_OR_FALLBACK:
                        question = (
                            f"Step {step.name or step.step_id} could not finish ({step_run.error}). "
                            "How should I proceed?"
                        )
                        pending = PendingUserInput(
                            kind="CLARIFICATION",
                            message=step_run.error or "",
                            question=question,
                            step_id=step.step_id,
                        )
                        return await pause(
                            RunStatus.NEEDS_CLARIFICATION, f"step {step.step_id} failed", pending
                        )
                if mode is ExecMode.RESEARCH_ONLY and ledger.enough:
                    scheduler.skip_gathering(f"{ledger.count()} evidence items reached min_evidence")
        except BudgetExceeded as exc:
            return await pause(RunStatus.ABORTED_BUDGET, exc.what, None)
        except asyncio.CancelledError:
            self.store.save_checkpoint(state.run_id, None)
            raise
        return self._final(state, ledger, finish)

    async def _ask(
        self, state: _RunState, step: Step, decision: GateDecisionV1, broker: HumanConfirmBroker
    ) -> tuple[Approval | None, PendingUserInput]:
        """Checkpoints first, so a run waiting for a person survives the app being closed."""
        pending = HumanConfirmBroker.pending(decision, step, None)
        ref = self.store.save_checkpoint(state.run_id, pending)
        pending = pending.model_copy(update={"checkpoint_ref": ref})
        approval = await put_question(
            run_id=state.run_id,
            trace_id=state.plan.trace_id,
            step=step,
            decision=decision,
            pending=pending,
            broker=broker,
            store=self.store,
            events=self.events,
            resources=state.resources,
            screenshot_path=await gate_screenshot(state.resources, step.step_id),
        )
        return approval, pending

    async def _execute(
        self,
        state: _RunState,
        runtime: RuntimeCtxV1,
        step: Step,
        decision: GateDecisionV1,
        dispatcher: StepDispatcher,
        ledger: EvidenceLedger,
        budget: BudgetEnforcer,
        asker: ActionGateAsker | None = None,
    ) -> StepRunV1:
        self.events.publish(
            StepStarted(run_id=state.run_id, step_id=step.step_id, step_type=step.type_name, name=step.name)
        )
        ctx = ToolContext(
            run_id=state.run_id,
            trace_id=state.plan.trace_id,
            plan=state.plan,
            step=step,
            runtime=runtime,
            gate=decision,
            step_outputs=MappingProxyType(state.outputs),
            evidence=ledger.items,
            run_dir=state.run_dir,
            resources=state.resources,
            events=self.events,
            budget=budget,
            ask=asker,
        )
        with bind_log_context(step_id=step.step_id):
            try:
                async with budget.step_timeout():
                    step_run = await dispatcher.run_step(step, ctx)
            except StepPaused as paused:
                await self._save_progress(state, step, decision, paused, budget)
                raise
            except TimeoutError:
                raise BudgetExceeded(
                    f"time: {state.plan.budget.max_time_ms} ms reached during {step.step_id}"
                ) from None
            for item in step_run.evidence:
                if item.step_id is None:
                    item.step_id = step.step_id
            added = ledger.ingest(step_run.evidence)
            state.step_runs[step.step_id] = step_run
            state.outputs[step.step_id] = step_run.outputs
            state.actions.extend(step_run.actions)
            if step.is_action and step_run.status is StepStatus.SUCCESS:
                state.act_actions.extend(step_run.actions)
            state.last_url = step_run.outputs.get("final_url", state.last_url)
            used = budget.state()
            self.store.save_step(
                state.run_id,
                step_run,
                new_evidence=added,
                budget=used,
                last_url=state.last_url,
            )
            for item in added:
                self.events.publish(EvidenceAdded(run_id=state.run_id, item=item))
            self.events.publish(StepFinished(run_id=state.run_id, step_run=step_run))
            self.events.publish(BudgetUpdated(run_id=state.run_id, state=used))
            if step_run.status is StepStatus.FAILED:
                log.warning("step failed", extra={"error": step_run.error, "error_code": step_run.error_code})
            return step_run

    async def _save_progress(
        self,
        state: _RunState,
        step: Step,
        decision: GateDecisionV1,
        paused: StepPaused,
        budget: BudgetEnforcer,
    ) -> None:
        """The paused step's progress, saved as a RUNNING step run: resume hands it back to the runner."""
        step_run = StepRunV1(
            step_id=step.step_id,
            step_type=step.type_name,
            status=StepStatus.RUNNING,
            outputs=paused.progress,
            error=paused.pending.message,
            error_code="paused",
            gate=decision,
        )
        state.step_runs[step.step_id] = step_run
        state.outputs[step.step_id] = step_run.outputs
        self.store.save_step(
            state.run_id,
            step_run,
            new_evidence=[],
            budget=budget.state(),
            last_url=state.last_url,
        )

    async def _record_resolved(
        self, state: _RunState, scheduler: StepScheduler, budget: BudgetEnforcer, ledger: EvidenceLedger
    ) -> None:
        for resolved in scheduler.take_resolved():
            step_run = resolved.as_step_run()
            state.step_runs[step_run.step_id] = step_run
            self.store.save_step(
                state.run_id,
                step_run,
                new_evidence=[],
                budget=budget.state(),
                last_url=state.last_url,
            )
            self.events.publish(StepFinished(run_id=state.run_id, step_run=step_run))

    @staticmethod
    def _final(
        state: _RunState, ledger: EvidenceLedger, finish: Callable[[RunStatus, str], RunBundleV1]
    ) -> RunBundleV1:
        runs = state.step_runs.values()
        succeeded = sum(1 for r in runs if r.status is StepStatus.SUCCESS)
        unmet = [
            r
            for r in runs
            if r.status is StepStatus.FAILED
            or (r.status is StepStatus.SKIPPED and r.error_code != "enough_evidence")
        ]
        optional = {s.step_id for s in state.plan.steps if s.optional}
        required_unmet = [r for r in unmet if r.step_id not in optional]
        if required_unmet:
            if succeeded == 0:
                return finish(RunStatus.FAILED, _describe(required_unmet))
            return finish(RunStatus.PARTIAL, _describe(required_unmet))
        if state.plan.verify_criteria.require_citations and ledger.count() == 0:
            return finish(RunStatus.PARTIAL, "citations are required but no evidence was gathered")
        return finish(RunStatus.SUCCESS, "all steps finished")


_PAUSE_STATUS = {"CONFIRMATION": RunStatus.NEEDS_CONFIRMATION, "CLARIFICATION": RunStatus.NEEDS_CLARIFICATION}


def _describe(runs: list[StepRunV1]) -> str:
    head = "; ".join(f"{r.step_id} {r.status.lower()} ({r.error_code or 'error'})" for r in runs[:5])
    more = f" and {len(runs) - 5} more" if len(runs) > 5 else ""
    return f"unfinished steps: {head}{more}"
