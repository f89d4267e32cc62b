"""Typed run events and the one async interface the CLI and the UI both consume.

The journal's bus subscriber publishes (executor/journal/views.py); consumers `subscribe()` and
iterate until the run_closed event. Publishing never awaits, so a slow consumer cannot stall a run
(its queue just grows). An event is named as the journal entry it shows (RunOpened, StepBegun,
GateAsked, ...): one name per change of a run's state (docs/architecture.md, "Run lifecycle").
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


class RunOpened(_Event):
    kind: Literal["run_opened"] = "run_opened"
    trace_id: str
    plan_id: str
    exec_mode: str
    resumed: bool = False
    run_dir: str | None = None


class StepBegun(_Event):
    kind: Literal["step_begun"] = "step_begun"
    step_id: str
    step_type: str
    name: str = ""


class StepRecorded(_Event):
    """finished: the step ran; resolved: the scheduler settled it without running (skipped, blocked)."""

    kind: Literal["step_recorded"] = "step_recorded"
    step_run: StepRunV1
    phase: Literal["finished", "resolved"] = "finished"


class ToolCalled(_Event):
    """One tool call ended (the engine's; no journal entry: the step's record carries its calls)."""

    kind: Literal["tool_called"] = "tool_called"
    step_id: str
    call: ToolCallV1


class GateAsked(_Event):
    kind: Literal["gate_asked"] = "gate_asked"
    decision: GateDecisionV1
    pending: PendingUserInput


class GateAnswered(_Event):
    kind: Literal["gate_answered"] = "gate_answered"
    decision: GateDecisionV1
    approved: bool


class EvidenceAdded(_Event):
    kind: Literal["evidence_added"] = "evidence_added"
    item: EvidenceItem


class ActionRecorded(_Event):
    """One browser action inside an ACT step, as recorded in the receipts (value already redacted)."""

    kind: Literal["action_recorded"] = "action_recorded"
    step_id: str
    seq: int
    action: dict[str, Any]
    status: str
    message: str = ""
    url: str | None = None
    screenshot_path: str | None = None
    dom_hash: str | None = None


class SourceRead(_Event):
    """A research step read a page (the window's Live view follows reads as it follows actions)."""

    kind: Literal["source_read"] = "source_read"
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


class RunClosed(_Event):
    kind: Literal["run_closed"] = "run_closed"
    bundle: RunBundleV1


RunEvent = Annotated[
    RunOpened
    | StepBegun
    | StepRecorded
    | ToolCalled
    | GateAsked
    | GateAnswered
    | EvidenceAdded
    | ActionRecorded
    | SourceRead
    | PlanRevised
    | BudgetUpdated
    | RunClosed,
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
        """Events from now on, ending after the first run_closed. Subscribe before starting the run."""
        queue: asyncio.Queue[RunEvent] = asyncio.Queue()
        self._queues.append(queue)
        return self._drain(queue)

    async def _drain(self, queue: asyncio.Queue[RunEvent]) -> AsyncIterator[RunEvent]:
        try:
            while True:
                event = await queue.get()
                yield event
                if isinstance(event, RunClosed):
                    return
        finally:
            self._queues.remove(queue)
