"""The tool boundary: what a tool receives and returns. Real tools live with their subsystem."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import Field

from common.contracts import Contract
from executor.errors import ExecutorError
from executor.journal.events import EventSink
from executor.models import (
    EvidenceItem,
    GateDecisionV1,
    PendingUserInput,
    RuntimeCtxV1,
    ToolCallV1,
)
from executor.run.budget import BudgetEnforcer
from executor.run.resources import RunResources
from planner.models import ExecutionPlan, Step

if TYPE_CHECKING:  # the desk imports the run's store; tools only name its values
    from executor.act.intent import IntentLog
    from executor.gates.desk import ActionGate, Cleared
    from executor.journal.run_journal import Journal


class ToolOutput(Contract):
    """A tool's result. `actions` name what it did for actions_taken (default: the tool key)."""

    outputs: dict[str, Any] = Field(default_factory=dict)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    actions: list[str] | None = None
    tokens: int = Field(default=0, ge=0)
    sources: int = Field(default=0, ge=0)
    ui_actions: int = Field(default=0, ge=0)
    final_url: str | None = None


@dataclass(kw_only=True)
class ToolContext:
    """Run facts a tool may read. Page text is data: nothing here lets a tool widen its own gate."""

    run_id: str
    trace_id: str
    plan: ExecutionPlan
    step: Step
    runtime: RuntimeCtxV1
    gate: GateDecisionV1 | None
    step_outputs: Mapping[str, Mapping[str, Any]]
    evidence: Sequence[EvidenceItem]
    run_dir: str | None = None
    resources: RunResources | None = None
    tool_calls: list[ToolCallV1] = field(default_factory=list)
    #: The run's event sink (live view of actions); None outside a conductor.
    events: EventSink | None = None
    #: The run's budget, for runners that spend it as they go (one ui action at a time).
    budget: BudgetEnforcer | None = None
    #: Clears one action inside an approved step: asks a person only when no earlier answer covers it.
    clear_action: ActionClearer | None = None
    #: Where an act step saves its progress with each action in flight (executor/act/intent.py).
    intents: IntentLog | None = None
    #: The run journal, where a step records its actions and notes; None outside a conductor.
    journal: Journal | None = None

    @property
    def blocked_actions(self) -> list[str]:
        return list(self.gate.blocked_actions) if self.gate else []


class Tool(Protocol):
    """An async callable doing one kind of work. Raise RetryableToolError / FatalToolError on failure."""

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput: ...


class ActionClearer(Protocol):
    """Clears one action inside an approved step at the run's gate desk (executor/gates/desk.py): the
    desk reuses an earlier answer for (gate, step), else checkpoints the step's `progress` and asks.
    Unanswered means nobody can answer now; the runner then raises StepAwaitsPerson."""

    async def __call__(self, action: ActionGate) -> Cleared: ...


class StepAwaitsPerson(ExecutorError):
    """A runner stopped mid-step to wait for a person. The conductor saves `progress` as the step's
    outputs (status RUNNING), checkpoints with `pending` and ends the run NEEDS_CONFIRMATION (or
    NEEDS_CLARIFICATION); on resume the runner reads its progress back from ctx.step_outputs and
    continues after the actions it already did."""

    def __init__(self, pending: PendingUserInput, progress: dict[str, Any]) -> None:
        super().__init__(pending.message or "step paused")
        self.pending = pending
        self.progress = progress
