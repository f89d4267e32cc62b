"""Typed run events and the one async interface the CLI and the UI both consume.

The conductor publishes; consumers `subscribe()` and iterate until the run_finished event.
Publishing never awaits, so a slow consumer cannot stall a run (its queue just grows).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any, Literal, Protocol

from pydantic import Field

from common.contracts import Contract, utc_now
from executor.models import (
    BudgetStateV1,
    EvidenceItem,
    GateDecisionV1,
    PendingUserInput,
    RunBundleV1,
    StepRunV1,
    ToolCallV1,
)
from planner.models import ExecutionPlan


class _Event(Contract):
    run_id: str
    at: datetime = Field(default_factory=utc_now)


class RunStarted(_Event):
    kind: Literal["run_started"] = "run_started"
    trace_id: str
    plan_id: str
    exec_mode: str
    resumed: bool = False
    run_dir: str | None = None


class StepStarted(_Event):
    kind: Literal["step_started"] = "step_started"
    step_id: str
    step_type: str
    name: str = ""


class StepFinished(_Event):
    kind: Literal["step_finished"] = "step_finished"
    step_run: StepRunV1


class ToolCallFinished(_Event):
    kind: Literal["tool_call_finished"] = "tool_call_finished"
    step_id: str
    call: ToolCallV1


class GatePending(_Event):
    kind: Literal["gate_pending"] = "gate_pending"
    decision: GateDecisionV1
    pending: PendingUserInput


class GateDecided(_Event):
    kind: Literal["gate_decided"] = "gate_decided"
    decision: GateDecisionV1
    approved: bool


class EvidenceAdded(_Event):
    kind: Literal["evidence_added"] = "evidence_added"
    item: EvidenceItem


class ActionPerformed(_Event):
    """One browser action inside an ACT step, as recorded in the receipts (value already redacted)."""

    kind: Literal["action_performed"] = "action_performed"
    step_id: str
    seq: int
    action: dict[str, Any]
    status: str
    message: str = ""
    url: str | None = None
    screenshot_path: str | None = None
    dom_hash: str | None = None


class PageRead(_Event):
    """A research step read a page (the window's Live view follows reads as it follows actions)."""

    kind: Literal["page_read"] = "page_read"
    step_id: str
    url: str
    title: str = ""
    #: The page's masked picture in the run folder, when the read took one.
    screenshot_path: str | None = None


class PlanRevised(_Event):
    """The run continues on a new version of its plan (executor.run.revision): finished steps kept."""

    kind: Literal["plan_revised"] = "plan_revised"
    plan: ExecutionPlan
    version: int
    reason: str
    replaced_step_id: str | None = None


class BudgetUpdated(_Event):
    kind: Literal["budget_updated"] = "budget_updated"
    state: BudgetStateV1


class RunFinished(_Event):
    kind: Literal["run_finished"] = "run_finished"
    bundle: RunBundleV1


RunEvent = Annotated[
    RunStarted
    | StepStarted
    | StepFinished
    | ToolCallFinished
    | GatePending
    | GateDecided
    | EvidenceAdded
    | ActionPerformed
    | PageRead
    | PlanRevised
    | BudgetUpdated
    | RunFinished,
    Field(discriminator="kind"),
]


class EventSink(Protocol):
    def publish(self, event: RunEvent) -> None: ...


class NullSink:
    def publish(self, event: RunEvent) -> None:
        return None


class EventBus:
    """Fans events out to any number of subscribers, each with its own queue."""

    def __init__(self) -> None:
        self._queues: list[asyncio.Queue[RunEvent]] = []
        self.history: list[RunEvent] = []
        self.keep_history = False

    def publish(self, event: RunEvent) -> None:
        if self.keep_history:
            self.history.append(event)
        for queue in self._queues:
            queue.put_nowait(event)

    def subscribe(self) -> AsyncIterator[RunEvent]:
        """Events from now on, ending after the first run_finished. Subscribe before starting the run."""
        queue: asyncio.Queue[RunEvent] = asyncio.Queue()
        self._queues.append(queue)
        return self._drain(queue)

    async def _drain(self, queue: asyncio.Queue[RunEvent]) -> AsyncIterator[RunEvent]:
        try:
            while True:
                event = await queue.get()
                yield event
                if isinstance(event, RunFinished):
                    return
        finally:
            self._queues.remove(queue)
