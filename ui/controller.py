"""RunController: the one bridge between the Qt window and the async AgentCore.

Widgets never call the core: they call these slots, and the controller turns every core event into a
Qt signal. It owns the asyncio task of the current plan/run/resume (never fire-and-forget), so Stop
and window close can cancel it and wait for it; the conductor checkpoints before each gate question
and on cancellation, so an interrupted run stays resumable.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal, Slot

from ui.error_words import error_code, error_words
from ui.event_pump import EventPump
from ui.site_record import SiteKeeper, recorded_site, stamp_site

if TYPE_CHECKING:  # the core is built after the window paints (docs/architecture.md, "Cold start")
    from executor.gates.approval import ApprovalPolicy
    from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
    from executor.journal.events import RunEvent
    from executor.run.service import AgentCore
    from executor.store.rows import RunSummary
    from planner.models import ExecutionPlan, SecretRef
    from planner.service import PlannerChoice, PlanResult

log = logging.getLogger(__name__)


class ControllerBusy(RuntimeError):
    """A plan, run or resume is already in progress; one at a time."""


class CoreNotReady(RuntimeError):
    """The window is up but the core is still being built; operations wait for it, lookups raise."""


class RunController(QObject):
    """Drives plan/run/resume on the qasync loop and re-emits core events as Qt signals."""

    #: A plan is ready to show (planner.service.PlanResult).
    plan_ready = Signal(object)
    #: The plan about to run, or a resumed run's plan loaded from the store (ExecutionPlan).
    plan_loaded = Signal(object)
    #: The run began or resumed (executor.journal.events.RunOpened).
    run_opened = Signal(object)
    #: A step began (executor.journal.events.StepBegun).
    step_begun = Signal(object)
    #: A step ran or was settled without running, or an earlier leg's step on resume: its status,
    #: duration and tool calls (executor.models.StepRunV1).
    step_recorded = Signal(object)
    #: One tool call ended (executor.journal.events.ToolCalled).
    tool_called = Signal(object)
    #: The run waits on a person: show the gate dialog (executor.gates.confirm.ConfirmRequest).
    gate_requested = Signal(object)
    #: The run was checkpointed at a gate before asking (executor.journal.events.GateAsked).
    gate_asked = Signal(object)
    #: The pending gate question is over, however it ended (the ConfirmAnswer value as str).
    gate_closed = Signal(str)
    #: A gate was approved or denied (executor.journal.events.GateAnswered).
    gate_answered = Signal(object)
    #: A source was added to the evidence ledger (executor.journal.events.EvidenceAdded).
    evidence_added = Signal(object)
    #: A browser action happened, with the latest screenshot (executor.journal.events.ActionRecorded).
    action_recorded = Signal(object)
    #: Research read a page, with its picture when one was taken (executor.journal.events.SourceRead).
    source_read = Signal(object)
    #: The run moved to a new plan version after a failed step (executor.journal.events.PlanRevised).
    plan_revised = Signal(object)
    #: Budget used so far (executor.models.BudgetStateV1).
    budget_updated = Signal(object)
    #: The run ended with a bundle, after every earlier event was delivered (RunBundleV1).
    run_finished = Signal(object)
    #: The run was cancelled by Stop or Pause (its run id, or "" when it had not started).
    run_cancelled = Signal(str)
    #: Planning or running raised: what happened and where to fix it, in words (ui/error_words.py);
    #: `last_error` keeps the class and message for the tooltip.
    failed = Signal(str)
    #: A plan, run or resume started (True) or ended (False).
    busy_changed = Signal(bool)
    #: The run store changed (a run started or ended): history views reload.
    history_changed = Signal()
    #: A replay ended (executor.run.replay.ReplayReport).
    replay_finished = Signal(object)
    #: Pause asked (True: the run holds before its next step, browser kept) or lifted (False).
    paused_changed = Signal(bool)
    #: The run reached its hold point and is waiting for Resume.
    held = Signal()
    #: Saved settings are now in effect: the next plan or run uses the rebuilt core.
    core_replaced = Signal()
    #: The first core is in place (the window shows before it is built): history can load.
    core_ready = Signal()

    def __init__(
        self, core: AgentCore | None = None, parent: QObject | None = None, *, site: SiteKeeper | None = None
    ) -> None:
        """Without a core the window can paint at once; give it with set_core() when built. With a
        `site`, plans record its address and a resume serves the site at the address recorded."""
        super().__init__(parent)
        self._core = core
        self.site = site
        self._core_set = asyncio.Event()
        if core is not None:
            self._core_set.set()
        self._task: asyncio.Task[None] | None = None
        self._gate: asyncio.Future[ConfirmAnswer] | None = None
        self._run_id: str | None = None
        self._pump = EventPump(self._emit)
        self._idle = asyncio.Event()
        self._idle.set()
        self._released = asyncio.Event()
        self._released.set()
        self._next_core: AgentCore | None = None
        #: A replay is going on: its gates belong to the replay, not to the plan on screen.
        self.replaying = False
        self.last_error = ""

    @property
    def busy(self) -> bool:
        """True from the start of an operation until busy_changed(False) has been emitted."""
        return not self._idle.is_set()

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The asyncio task of the current operation (for tests and shutdown)."""
        return self._task

    @property
    def current_run_id(self) -> str | None:
        return self._run_id

    @property
    def hold_requested(self) -> bool:
        """Pause was asked: the core holds before its next step (executor.run.pause.hold_point)."""
        return not self._released.is_set()

    @property
    def gate_pending(self) -> bool:
        return self._gate is not None and not self._gate.done()

    @property
    def core(self) -> AgentCore:
        if self._core is None:
            raise CoreNotReady("Waypost is still starting")
        return self._core

    @property
    def core_is_ready(self) -> bool:
        return self._core is not None

    async def _ready_core(self) -> AgentCore:
        await self._core_set.wait()
        return self.core

    def set_core(self, core: AgentCore) -> None:
        """The first core (built after the window showed) at once: operations asked for meanwhile
        proceed. A later one (saved settings) between runs: now if idle, else when this run ends."""
        if self._core is None:
            self._core = core
            self._core_set.set()
            self.core_ready.emit()
            return
        self._next_core = core
        if not self.busy:
            self._swap_core()

    replace_core = set_core

    def _swap_core(self) -> None:
        core, self._next_core = self._next_core, None
        if core is not None and core is not self._core:
            old, self._core = self.core, core
            if old.store is not core.store:
                old.store.close()
            self.core_replaced.emit()

    def history(self, limit: int = 100) -> list[RunSummary]:
        """Runs in the store, newest first; none while the core is still being built."""
        return self._core.history(limit) if self._core is not None else []

    def run_dir(self, run_id: str) -> str:
        return str(self.core.run_dir(run_id))

    # --- intents -------------------------------------------------------------------------------

    def plan_task(
        self,
        task: str,
        *,
        url: str | None = None,
        files: Sequence[str] = (),
        planner: PlannerChoice = "auto",
    ) -> None:
        """Plans without running; the result arrives as `plan_ready`."""
        self._start(self._plan(task, url, tuple(files), planner))

    def plan_and_run(
        self,
        task: str,
        *,
        url: str | None = None,
        files: Sequence[str] = (),
        planner: PlannerChoice = "auto",
        safe_mode: bool = True,
        approval_policy: ApprovalPolicy | None = None,
        adjust: Callable[[ExecutionPlan], ExecutionPlan] | None = None,
        secrets: Mapping[str, str] | None = None,
    ) -> None:
        """Plans (emitting `plan_ready`), then runs the plan, `adjust`ed first (e.g. budget caps).
        `secrets` fill the plan's {{secret:NAME}} placeholders, as `--secret NAME` does (memory only)."""
        run = self._plan_and_run(
            task, url, tuple(files), planner, safe_mode, approval_policy, adjust, secrets
        )
        self._start(run)

    def run_plan(
        self,
        plan: ExecutionPlan,
        *,
        safe_mode: bool = True,
        approval_policy: ApprovalPolicy | None = None,
        secrets: Mapping[str, str] | None = None,
    ) -> None:
        """Runs a plan; the approval policy is ASK (this window answers) unless given."""
        self._start(self._run(plan, safe_mode, approval_policy, secrets))

    def missing_secrets(self, run_id: str) -> list[SecretRef]:
        """The secrets a paused run declared that this process holds no value for (values are never
        stored, so a run from an earlier session needs them again before it can type them)."""
        names = set(self.core.missing_secrets(run_id))
        plan = self.core.store.load_plan(run_id)
        return [ref for ref in (plan.task.secrets if plan.task else []) if ref.name in names]

    def supply_secrets(self, run_id: str, values: Mapping[str, str]) -> None:
        """Hands secrets typed in the window to the core's secrets owner, in memory only."""
        self.core.supply_secrets(run_id, values)

    def resume_run(self, run_id: str, *, approve_pending: bool | None = None, safe_mode: bool = True) -> None:
        """Continues a paused or interrupted run; with approve_pending None the gate is asked again."""
        self._start(self._resume(run_id, approve_pending, safe_mode))

    def replay_run(self, run_id: str) -> None:
        """Re-runs a recorded run's actions without a model and reports drift (replay_finished)."""
        self._start(self._replay(run_id))

    @Slot()
    def approve(self) -> None:
        self._answer("approve")

    @Slot()
    def deny(self) -> None:
        self._answer("deny")

    @Slot()
    def pause(self) -> None:
        """Holds the run before its next step; the browser and everything done so far are kept.
        At a gate (only reachable without the modal dialog, e.g. by the window closing) the run
        ends NEEDS_CONFIRMATION instead, resumable from History."""
        if self.gate_pending:
            self._answer("pause")
        elif self.busy and self._released.is_set():
            self._released.clear()
            self.paused_changed.emit(True)

    @Slot()
    def resume(self) -> None:
        if not self._released.is_set():
            self._released.set()
            self.paused_changed.emit(False)

    @Slot()
    def stop(self) -> None:
        """Cancels the current operation now (a held run too); the checkpoint remains."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def shutdown(self) -> None:
        """Window closing: a pending gate pauses (resumable later), any other work is cancelled."""
        if self.gate_pending:
            self._answer("pause")
        else:
            self.stop()

    async def hold(self) -> None:
        """Called by the core at its hold point while Pause is on; returns on Resume."""
        await self._pump.catch_up()  # the window shows the finished step before "Paused"
        self.held.emit()
        await self._released.wait()

    async def wait_idle(self) -> None:
        """Returns when the current operation ended, however it ended, and busy_changed(False) went out."""
        await self._idle.wait()

    async def aclose(self) -> None:
        self.shutdown()
        await self.wait_idle()

    # --- ConfirmHandler ------------------------------------------------------------------------

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        """Asks through `gate_requested`; the answer comes from approve()/deny()/pause()."""
        from executor.gates.confirm import ConfirmAnswer

        await self._pump.catch_up()  # the window sees the steps before the gate, in order
        future: asyncio.Future[ConfirmAnswer] = asyncio.get_running_loop().create_future()
        self._gate = future
        answer = ConfirmAnswer.PAUSE
        try:
            self.gate_requested.emit(request)
            answer = await future
            return answer
        finally:
            self._gate = None
            self.gate_closed.emit(str(answer) if future.done() and not future.cancelled() else "cancelled")

    def _answer(self, answer: str) -> None:
        """`answer` is a ConfirmAnswer's name (approve, deny, pause); only a pending gate takes it."""
        if self._gate is not None and not self._gate.done():
            from executor.gates.confirm import ConfirmAnswer

            self._gate.set_result(ConfirmAnswer[answer.upper()])

    # --- the operations ------------------------------------------------------------------------

    def _start(self, coro: Coroutine[Any, Any, None]) -> None:
        if self.busy:
            coro.close()
            raise ControllerBusy("a plan or run is already in progress")
        self._run_id = None
        self._idle.clear()
        task = asyncio.get_event_loop().create_task(coro)
        self._task = task
        task.add_done_callback(self._on_task_done)
        self.busy_changed.emit(True)

    def _on_task_done(self, task: asyncio.Task[None]) -> None:
        self.resume()  # a pause ends with its run
        self._swap_core()  # settings saved during the run apply from the next one
        if task.cancelled():
            self.run_cancelled.emit(self._run_id or "")
        elif (exc := task.exception()) is not None:
            log.error("run task failed", exc_info=exc)
            self.last_error = error_code(exc)
            self.failed.emit(error_words(exc))
        self._idle.set()
        self.busy_changed.emit(False)
        self.history_changed.emit()

    async def _replay(self, run_id: str) -> None:
        core = await self._ready_core()
        self.replaying = True
        try:
            report = await core.replay(run_id, confirm=self, heal=True)
        finally:
            self.replaying = False
        self.replay_finished.emit(report)

    async def _plan(self, task: str, url: str | None, files: tuple[str, ...], planner: PlannerChoice) -> None:
        result = await (await self._ready_core()).plan(task, url=url or None, files=files, planner=planner)
        self.plan_ready.emit(self._stamped(result))

    def _stamped(self, result: PlanResult) -> PlanResult:
        return replace(result, plan=stamp_site(result.plan, self.site.base_url if self.site else None))

    async def _plan_and_run(
        self,
        task: str,
        url: str | None,
        files: tuple[str, ...],
        planner: PlannerChoice,
        safe_mode: bool,
        policy: ApprovalPolicy | None,
        adjust: Callable[[ExecutionPlan], ExecutionPlan] | None,
        secrets: Mapping[str, str] | None,
    ) -> None:
        result = self._stamped(
            await (await self._ready_core()).plan(task, url=url or None, files=files, planner=planner)
        )
        self.plan_ready.emit(result)
        await self._run(adjust(result.plan) if adjust else result.plan, safe_mode, policy, secrets)

    async def _run(
        self,
        plan: ExecutionPlan,
        safe_mode: bool,
        policy: ApprovalPolicy | None,
        secrets: Mapping[str, str] | None,
    ) -> None:
        from executor.gates.approval import ApprovalPolicy

        core = await self._ready_core()
        self.plan_loaded.emit(plan)
        bus = self._pump.new_bus()
        run = core.run(
            plan,
            safe_mode=safe_mode,
            approval_policy=policy or ApprovalPolicy.ASK,
            events=bus,
            confirm=self,
            secrets=secrets,
        )
        self.run_finished.emit(await self._pump.drive(bus, run))

    async def _resume(self, run_id: str, approve_pending: bool | None, safe_mode: bool) -> None:
        self._run_id = run_id
        await self._ready_core()
        plan = self.core.store.load_plan(run_id)
        if self.site is not None and (address := recorded_site(plan)):
            self.site.serve(address)  # SiteUnavailable says why in the window's notice
        self.plan_loaded.emit(plan)
        done = self.core.store.load(run_id)  # what earlier legs finished, as the window saw it then
        for step_run in done.step_runs.values():
            self.step_recorded.emit(step_run)
        self.budget_updated.emit(done.budget)
        bus = self._pump.new_bus()
        run = self.core.resume(
            run_id, approve_pending=approve_pending, safe_mode=safe_mode, events=bus, confirm=self
        )
        self.run_finished.emit(await self._pump.drive(bus, run))

    def _emit(self, event: RunEvent) -> None:
        if event.kind == "run_closed":
            return  # reported once the run coroutine returned (EventPump.drive)
        if event.kind == "run_opened":
            self._run_id = event.run_id
            self.history_changed.emit()
        if event.kind == "step_recorded":
            self.step_recorded.emit(event.step_run)
        elif event.kind == "budget_updated":
            self.budget_updated.emit(event.state)
        else:
            signal = {
                "run_opened": self.run_opened,
                "step_begun": self.step_begun,
                "tool_called": self.tool_called,
                "gate_asked": self.gate_asked,
                "gate_answered": self.gate_answered,
                "evidence_added": self.evidence_added,
                "action_recorded": self.action_recorded,
                "source_read": self.source_read,
                "plan_revised": self.plan_revised,
            }[event.kind]
            signal.emit(event)
