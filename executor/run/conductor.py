"""RunConductor: drives one run of a plan, step by step (docs/architecture.md, "Run lifecycle").

Each turn of the loop: settle what the scheduler resolved, check the budget, pick the next ready
step, clear it at the gate desk, dispatch it and journal the result. Every state change goes through
the run journal, so a run killed between steps resumes where it stopped, and a step that finished
(an ACT above all) is never run twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path
from types import MappingProxyType

from browser.deadline import BrowserDidNotStart, BrowserLost
from browser.discovery import ChromiumNotFound
from browser.network_policy import for_task
from common.contracts import new_id, utc_now
from common.moments import reached
from executor.errors import BudgetExceeded
from executor.gates.confirm import ConfirmHandler, HumanConfirmBroker
from executor.gates.desk import Denied, GateDesk, Unanswered
from executor.gates.gatekeeper import ApprovalBook, Gatekeeper
from executor.gates.look import StepPictures
from executor.journal.events import EventSink, NullSink
from executor.journal.intents import JournalIntents
from executor.journal.observability import bind_log_context, log
from executor.journal.run_journal import RunClosed, RunJournal, RunOpened, StepBegun, StepRecorded
from executor.journal.views import views
from executor.models import (
    EXEC_MODE_FOR_PLAN,
    CheckpointV1,
    ExecMode,
    GateDecisionV1,
    PendingUserInput,
    RunBundleV1,
    RunStatus,
    RuntimeCtxV1,
    StepRunV1,
    StepStatus,
)
from executor.run.budget import BudgetEnforcer
from executor.run.dispatcher import StepDispatcher
from executor.run.leg import RunLeg, RunState
from executor.run.output import OutputFormatter
from executor.run.pause import hold_point
from executor.run.resources import STOPPED_CAPTURE_S, ResourcesFactory
from executor.run.revision import PlanReviser
from executor.run.scheduler import StepScheduler
from executor.store.checkpoint_refs import CheckpointStoreError
from executor.store.checkpoint_store import CheckpointStore
from executor.store.disk_full import disk_full
from executor.store.disk_full import sentence as disk_sentence
from executor.tools.boundary import StepAwaitsPerson, Tool, ToolContext
from executor.tools.engine import ToolCallEngine
from executor.tools.evidence import EvidenceLedger
from executor.tools.rate_limit import RateLimitShield
from executor.tools.registry import RunnerRegistry
from executor.tools.retry import MODE_RETRY_POLICIES, RetryBackoffManager, RetryPolicy
from planner.models import ExecutionPlan, PlanStatus, Step
from planner.secrets import bind_plan, plan_urls


class ResumeMismatch(ValueError):
    """The checkpoint belongs to another plan: resuming would run the wrong steps."""


class RunConductor:
    """Builds the collaborators of one run and drives them. Reusable across runs."""

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
        reviser: PlanReviser | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock  # the run budgets' clock; tests move it instead of sleeping
        self.reviser = reviser  # critic and replan after a failed step (executor.run.revision)
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
        state = RunState(run_id=run_id, plan=plan, exec_mode=mode, started_at=utc_now(), run_dir=run_dir)
        with bind_log_context(trace_id=plan.trace_id, run_id=run_id):
            task = plan.task.user_query if plan.task else ""
            if self.resources_factory is not None and run_dir is not None:
                state.resources = self.resources_factory(run_id, Path(run_dir))
                approved = plan if checkpoint is None else self.store.load_approved_plan(run_id)
                bind_plan(state.resources.vault, approved)  # where each secret may go, before any page
                urls = plan_urls(approved) if approved is not None else []
                state.resources.policy = for_task(state.resources.policy, urls)
            resources = state.resources
            recorder = resources.recorder if resources is not None else None
            journal = RunJournal(
                run_id=run_id, store=self.store, subscribers=views(self.store, self.events, recorder)
            )
            resumed = checkpoint is not None
            opened = RunOpened(plan=plan, exec_mode=str(mode), task=task, run_dir=run_dir, resumed=resumed)
            await journal.append(opened)
            state.leg = self.store.leg(run_id)
            reached("run.opened")
            log.info("run started", extra={"exec_mode": str(mode), "resumed": resumed})
            try:
                bundle = await self._run(state, runtime, checkpoint, journal)
            except BaseException:
                if resources is not None:  # cancelled or crashed: still flush receipts, free the browser
                    meta = {"plan": plan}
                    await asyncio.shield(
                        resources.close(
                            "INTERRUPTED", "run interrupted", meta, capture_within_s=STOPPED_CAPTURE_S
                        )
                    )
                raise
            if resources is not None:
                bundle = resources.vault.redact_model(bundle)  # what a page or the model echoed
                sealed = "INTERRUPTED" if state.interrupted else str(bundle.run_status)
                ended: dict[str, object] = {"task": task, "plan": plan, "bundle": bundle}
                with _unless_disk_full("the run's receipts could not be sealed"):
                    await resources.close(sealed, bundle.reason, ended)
            with _unless_disk_full("the run's end could not be stored"):  # resumable as it stands
                await journal.append(RunClosed(bundle=bundle))
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
        self, state: RunState, runtime: RuntimeCtxV1, checkpoint: CheckpointV1 | None, journal: RunJournal
    ) -> RunBundleV1:
        """The loop: settle, check the budget, pick, clear, run; each way out is one return."""
        plan = state.plan
        fmt = OutputFormatter(plan, state.run_id, state.exec_mode, state.started_at)
        if plan.plan_status is not PlanStatus.READY:
            question = (
                plan.clarification_question or "The task is not clear enough to act on. What should be done?"
            )
            return fmt.clarify(question, reason=f"plan_status={plan.plan_status}")
        leg = self._leg(state, runtime, checkpoint, journal, fmt)
        if state.resources is not None:  # no browser call outlives the run's time budget
            state.resources.set_wall(time.monotonic() + leg.budget.remaining_s())
            leg.budget.after_wait(state.resources.extend_wall)  # a person's time is not the run's
        try:
            while True:
                await leg.record_resolved()
                exceeded = leg.budget.exceeded()
                if exceeded:
                    return await leg.end_resumable(RunStatus.ABORTED_BUDGET, exceeded, None)
                step = leg.scheduler.next_ready()
                if step is None:
                    return leg.conclude()
                await hold_point(self.confirm, leg.budget)  # Pause: hold here, browser and state kept
                cleared = await leg.desk.clear("step", step)
                if isinstance(cleared, Unanswered):
                    leg.scheduler.requeue(step)
                    why = f"gate {cleared.decision.gate_id} awaits confirmation"
                    ref = cleared.pending.checkpoint_ref
                    return leg.bundle(RunStatus.NEEDS_CONFIRMATION, why, cleared.pending, ref)
                if isinstance(cleared, Denied):
                    return await self._blocked(leg, step, cleared.decision)
                ended = await self._step(leg, runtime, step, cleared.decision)
                if ended is not None:
                    return ended
        except BudgetExceeded as exc:
            return await leg.end_resumable(RunStatus.ABORTED_BUDGET, exc.what, None)
        except BrowserLost as exc:
            state.interrupted = True
            resume = f"waypost resume {state.run_id}"
            why = f"{exc}; nothing more could be done in it (`{resume}` starts a new browser)"
            return await leg.end_resumable(RunStatus.FAILED, why, None)
        except (asyncio.CancelledError, BrowserDidNotStart, ChromiumNotFound):  # resumable once fixed
            await journal.checkpoint(None)
            raise
        except (OSError, CheckpointStoreError) as exc:
            if not disk_full(exc):
                raise
            return await _out_of_space(leg, exc)

    def _leg(
        self,
        state: RunState,
        runtime: RuntimeCtxV1,
        checkpoint: CheckpointV1 | None,
        journal: RunJournal,
        fmt: OutputFormatter,
    ) -> RunLeg:
        plan, mode = state.plan, state.exec_mode
        if checkpoint is not None:
            state.restore(checkpoint)
        prior = list(checkpoint.approvals) if checkpoint else []
        one_shot = {gate for gate, ok in runtime.confirmed_gates.items() if ok}
        given = [a if a.leg else a.model_copy(update={"leg": state.leg}) for a in runtime.approvals]
        approvals = ApprovalBook(state.run_id, [*prior, *given], one_shot)
        budget = BudgetEnforcer.for_run(plan, checkpoint.budget if checkpoint else None, clock=self.clock)
        desk = GateDesk(
            gatekeeper=Gatekeeper(plan, run_id=state.run_id, safe_mode=runtime.safe_mode, exec_mode=mode),
            approvals=approvals,
            broker=HumanConfirmBroker(runtime.approval_policy, self.confirm, budget.person_waiting),
            journal=journal,
            trace_id=plan.trace_id,
            resources=state.resources,
            facts=lambda: (budget.state(), state.last_url),
            leg=state.leg,
            show=StepPictures(self.registry, state.resources, lambda: state.outputs),
        )
        engine = ToolCallEngine(
            self.tools,
            rate=RateLimitShield(runtime.rate_profile, overrides=self.rate_overrides),
            retry=RetryBackoffManager(self.retry_policies[mode]),
            budget=budget,
            events=self.events,
        )
        return RunLeg(
            state=state,
            journal=journal,
            desk=desk,
            budget=budget,
            ledger=EvidenceLedger(
                checkpoint.evidence if checkpoint else (), min_evidence=plan.verify_criteria.min_evidence
            ),
            scheduler=StepScheduler(plan.steps, mode, state.step_runs),
            dispatcher=StepDispatcher(self.registry, engine),
            fmt=fmt,
        )

    async def _blocked(self, leg: RunLeg, step: Step, decision: GateDecisionV1) -> RunBundleV1:
        """A denied step never runs: the run ends BLOCKED_POLICY with a checkpoint."""
        leg.state.step_runs[step.step_id] = StepRunV1(
            step_id=step.step_id,
            step_type=step.type_name,
            status=StepStatus.BLOCKED_GATE,
            error=decision.reason,
            error_code="gate_denied",
            gate=decision,
        )
        pending = PendingUserInput(
            kind="BLOCKED",
            message=f"gate {decision.gate_id} {decision.reason}",
            gate_id=decision.gate_id,
            step_id=step.step_id,
            step_name=step.name or step.type_name,
            blocked_actions=decision.blocked_actions,
        )
        return await leg.end_resumable(
            RunStatus.BLOCKED_POLICY, f"gate {decision.gate_id}: {decision.reason}", pending
        )

    async def _step(
        self, leg: RunLeg, runtime: RuntimeCtxV1, step: Step, decision: GateDecisionV1
    ) -> RunBundleV1 | None:
        """Runs one cleared step; a bundle when the run ends here, None to go on."""
        try:
            step_run = await self._execute(leg, runtime, step, decision)
        except BrowserLost:
            leg.scheduler.requeue(step)  # unfinished: a resume runs it again in a new browser
            raise
        except StepAwaitsPerson as waiting:  # an action inside the step waits for a person
            leg.scheduler.requeue(step)
            status = _AWAITING_STATUS.get(waiting.pending.kind, RunStatus.NEEDS_CONFIRMATION)
            return await leg.end_resumable(
                status, f"step {step.step_id}: {waiting.pending.message}", waiting.pending
            )
        leg.scheduler.finish(step, step_run.status, step_run.error_code)
        if step_run.status is StepStatus.FAILED and not step.optional and self.reviser is not None:
            revised = await self.reviser.after_failure(leg.state, step, step_run, leg.budget, leg.journal)
            if isinstance(revised, PendingUserInput):
                return await leg.end_resumable(RunStatus.NEEDS_CLARIFICATION, revised.message, revised)
            if revised is not None:  # retry (same plan) or the next plan version
                leg.adopt(revised, safe_mode=runtime.safe_mode)
                return None
        mode = leg.state.exec_mode
        if step_run.status is StepStatus.FAILED and not step.optional:
            if mode is ExecMode.ACTION_ONLY:
                return await leg.end_resumable(
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
                return await leg.end_resumable(
                    RunStatus.NEEDS_CLARIFICATION, f"step {step.step_id} failed", pending
                )
        if mode is ExecMode.RESEARCH_ONLY and leg.ledger.enough:
            leg.scheduler.skip_gathering(f"{leg.ledger.count()} evidence items reached min_evidence")
        return None

    async def _execute(
        self, leg: RunLeg, runtime: RuntimeCtxV1, step: Step, decision: GateDecisionV1
    ) -> StepRunV1:
        state, budget = leg.state, leg.budget
        await leg.journal.append(StepBegun(step=step))
        ctx = ToolContext(
            run_id=state.run_id,
            trace_id=state.plan.trace_id,
            plan=state.plan,
            step=step,
            runtime=runtime,
            gate=decision,
            step_outputs=MappingProxyType(state.outputs),
            evidence=leg.ledger.items,
            run_dir=state.run_dir,
            resources=state.resources,
            events=self.events,
            budget=budget,
            clear_action=partial(leg.desk.clear, "action", step),
            intents=JournalIntents(leg.journal, step, budget, decision),
            journal=leg.journal,
        )
        with bind_log_context(step_id=step.step_id):
            try:
                async with budget.step_timeout():
                    step_run = await leg.dispatcher.run_step(step, ctx)
            except (
                StepAwaitsPerson
            ) as waiting:  # its progress, saved RUNNING: resume hands it back to the runner
                progress = StepRunV1(step_id=step.step_id, step_type=step.type_name,
                                     status=StepStatus.RUNNING, outputs=waiting.progress,
                                     error=waiting.pending.message, error_code="paused",
                                     gate=decision)  # fmt: skip
                await leg.record(progress)
                raise
            except TimeoutError:
                raise BudgetExceeded(
                    f"time: {state.plan.budget.max_time_ms} ms reached during {step.step_id}"
                ) from None
            for item in step_run.evidence:
                if item.step_id is None:
                    item.step_id = step.step_id
            added = leg.ledger.ingest(step_run.evidence)
            state.took(step_run, acting=step.is_action)
            finished = StepRecorded(step_run=step_run, phase="finished", budget=budget.state(),
                                    last_url=state.last_url, new_evidence=added)  # fmt: skip
            await leg.journal.append(finished)
            if step_run.status is StepStatus.FAILED:
                log.warning("step failed", extra={"error": step_run.error, "error_code": step_run.error_code})
            return step_run


async def _out_of_space(leg: RunLeg, exc: BaseException) -> RunBundleV1:
    """Ends the run FAILED with the disk's sentence; a checkpoint if it still fits (the store's live
    state resumes the run either way), receipts sealed INTERRUPTED if they still fit."""
    leg.state.interrupted = True
    reason = disk_sentence(exc, leg.state.run_id)
    log.warning("disk full", extra={"error": str(exc)})
    try:
        return await leg.end_resumable(RunStatus.FAILED, reason, None)
    except (OSError, CheckpointStoreError) as again:
        if not disk_full(again):
            raise
        return leg.bundle(RunStatus.FAILED, reason)


@contextlib.contextmanager
def _unless_disk_full(what: str) -> Iterator[None]:
    """A last write of a run that already ended for lack of space may fail too: it is logged, and
    the run's status and sentence still reach the person."""
    try:
        yield
    except (OSError, CheckpointStoreError) as exc:
        if not disk_full(exc):
            raise
        log.warning(what, extra={"error": str(exc)})


_AWAITING_STATUS = {
    "CONFIRMATION": RunStatus.NEEDS_CONFIRMATION,
    "CLARIFICATION": RunStatus.NEEDS_CLARIFICATION,
}
