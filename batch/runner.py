"""BatchRunner: up to N cases at once, each a run of its own, spread over the browser endpoints.

Workers are tasks of one TaskGroup the runner owns; a case's failure (a failed run, an error while
planning, a lost browser) becomes that case's result and never stops another worker. A run whose
endpoint died is resumed once on another endpoint (its journal keeps finished steps finished).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from batch.confirm import CaseConfirm, OneAtATime
from batch.index_page import write_index
from batch.journal import BatchJournal
from batch.pool import EndpointPool, NoEndpointLeft, Slot
from batch.resources import ENDPOINT
from batch.results import BatchSummary, CaseResult
from batch.suite import SuiteCase
from batch.suite_secrets import secret_values
from browser.deadline import BrowserDidNotStart, BrowserLost
from browser.grid import BrowserError, reachable
from common.contracts import new_id
from executor.errors import ExecutorError
from executor.gates.approval import ApprovalPolicy
from executor.models import RunBundleV1, RunStatus
from executor.run.service import AgentCore, UnknownRun
from executor.store.checkpoint_refs import CheckpointStoreError
from planner.llm_settings import LLMError
from planner.service import PlannerChoice
from receipts.errors import ReceiptsError
from receipts.report import export_report

#: What one case may raise; it ends that case FAILED with the sentence, the batch goes on.
CASE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    ValueError,
    RuntimeError,
    LookupError,
    BrowserError,
    BrowserLost,
    BrowserDidNotStart,
    ExecutorError,
    CheckpointStoreError,
    ReceiptsError,
    LLMError,
)

EventKind = Literal["started", "moved", "ended"]


@dataclass(frozen=True)
class CaseEvent:
    kind: EventKind
    case: str
    endpoint: str
    result: CaseResult | None = None


Listener = Callable[[CaseEvent], None]


@dataclass(frozen=True)
class BatchOptions:
    workers: int
    approve: ApprovalPolicy
    safe_mode: bool = True
    planner: PlannerChoice = "auto"
    #: With `ask`: the person at the terminal, asked one case at a time. None: a gated case pauses.
    asker: OneAtATime | None = None


class BatchRunner:
    def __init__(
        self,
        core: AgentCore,
        journal: BatchJournal,
        pool: EndpointPool,
        options: BatchOptions,
        listener: Listener | None = None,
    ) -> None:
        self.core = core
        self.journal = journal
        self.pool = pool
        self.options = options
        self._listener = listener or (lambda event: None)
        self._results: dict[str, CaseResult] = {}

    async def run(self) -> BatchSummary:
        """Runs every case the journal has not seen end; returns the whole batch's summary."""
        started = time.monotonic()
        state = self.journal.state()
        self._results = dict(state.ended)
        queue: asyncio.Queue[tuple[SuiteCase, str | None]] = asyncio.Queue()
        for case in self.journal.cases:
            if case.name not in self._results:
                queue.put_nowait((case, state.in_flight.get(case.name)))
        async with asyncio.TaskGroup() as workers:
            for _ in range(min(self.options.workers, queue.qsize())):
                workers.create_task(self._worker(queue))
        ordered = [self._results[c.name] for c in self.journal.cases]
        summary = BatchSummary.of(self.journal.spec.batch_id, ordered, time.monotonic() - started)
        write_index(summary, self.journal.folder)
        return summary

    async def _worker(self, queue: asyncio.Queue[tuple[SuiteCase, str | None]]) -> None:
        while not queue.empty():
            case, prior = queue.get_nowait()
            result = await self._case(case, prior)
            self._results[case.name] = result
            self.journal.ended(result)
            self._listener(CaseEvent("ended", case.name, result.endpoint or "local", result))

    async def _case(self, case: SuiteCase, run_id: str | None) -> CaseResult:
        """One case to its end: a run, moved once to another endpoint if its endpoint died."""
        began = time.monotonic()
        avoid: Slot | None = None
        bundle: RunBundleV1 | None = None
        slot: Slot | None = None
        try:
            for attempt in (1, 2):
                slot = await self.pool.acquire(avoid)
                self._listener(CaseEvent("started" if attempt == 1 else "moved", case.name, slot.label))
                try:
                    bundle = await self._attempt(case, slot, run_id)
                finally:
                    await self.pool.release(slot)
                run_id = bundle.run_id
                if attempt == 2 or not await self._endpoint_died(slot, bundle):
                    break
                await self.pool.mark_dead(slot)
                avoid = slot
        except NoEndpointLeft as exc:
            return self._failed(case, run_id, began, str(exc), slot)
        except CASE_ERRORS as exc:
            return self._failed(case, run_id, began, f"{type(exc).__name__}: {exc}", slot)
        assert bundle is not None and slot is not None
        report = await self._report(bundle.run_id)
        return CaseResult(
            name=case.name,
            run_id=bundle.run_id,
            run_status=bundle.run_status,
            expected=case.expect,
            passed=bundle.run_status is case.expect,
            seconds=round(time.monotonic() - began, 3),
            endpoint=slot.url,
            reason=bundle.reason,
            answer=bundle.final_answer,
            report=report,
            attempts=2 if avoid is not None else 1,
        )

    def _failed(
        self, case: SuiteCase, run_id: str | None, began: float, why: str, slot: Slot | None
    ) -> CaseResult:
        return CaseResult(
            name=case.name,
            run_id=run_id,
            run_status=RunStatus.FAILED,
            expected=case.expect,
            passed=case.expect is RunStatus.FAILED,
            seconds=round(time.monotonic() - began, 3),
            endpoint=slot.url if slot else None,
            reason=why,
        )

    async def _attempt(self, case: SuiteCase, slot: Slot, run_id: str | None) -> RunBundleV1:
        token = ENDPOINT.set(slot.url)
        try:
            if run_id is not None:
                resumed = await self._resume(case, slot, run_id)
                if resumed is not None:
                    return resumed
            plan = case.plan
            if plan is None:
                assert case.task is not None
                plan = (await self.core.plan(case.task, url=case.url, planner=self.options.planner)).plan
            run_id = new_id("run")
            self.journal.started(case.name, run_id, slot.url)
            return await self.core.run(
                plan,
                run_id=run_id,
                safe_mode=self.options.safe_mode,
                approval_policy=self.options.approve,
                confirm=self._confirm(case),
            )
        finally:
            ENDPOINT.reset(token)

    async def _resume(self, case: SuiteCase, slot: Slot, run_id: str) -> RunBundleV1 | None:
        """Goes on with a run that was cut off (its finished steps stay finished); None when the
        store never saw it start (killed before its first record): the case starts afresh."""
        answers = {ApprovalPolicy.ALL: True, ApprovalPolicy.NONE: False}
        self.journal.started(case.name, run_id, slot.url)
        try:
            return await self.core.resume(
                run_id,
                approve_pending=answers.get(self.options.approve),
                safe_mode=self.options.safe_mode,
                approval_policy=self.options.approve,
                confirm=self._confirm(case),
                secrets=secret_values(case) or None,  # a run cut off in another process lost them
            )
        except UnknownRun:
            return None

    def _confirm(self, case: SuiteCase) -> CaseConfirm | None:
        """Who answers the case's gates under `ask`: the person (one case at a time), or nobody,
        and the case pauses with NEEDS_CONFIRMATION while the others go on."""
        if self.options.approve is not ApprovalPolicy.ASK or self.options.asker is None:
            return None
        return self.options.asker.for_case(case.name)

    async def _endpoint_died(self, slot: Slot, bundle: RunBundleV1) -> bool:
        if slot.url is None or bundle.run_status is not RunStatus.FAILED:
            return False
        return not await reachable(slot.url)

    async def _report(self, run_id: str) -> str | None:
        try:
            return str(await asyncio.to_thread(export_report, self.core.run_dir(run_id)))
        except (OSError, ReceiptsError):
            return None
