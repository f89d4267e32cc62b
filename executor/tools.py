"""The tool boundary: what a tool receives and returns. Real tools live with their subsystem."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import Field

from executor.models import EvidenceItem, GateDecisionV1, RuntimeCtxV1, ToolCallV1
from executor.run_resources import RunResources
from planner.models import Contract, ExecutionPlan, Step


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

    @property
    def blocked_actions(self) -> list[str]:
        return list(self.gate.blocked_actions) if self.gate else []


class Tool(Protocol):
    """An async callable doing one kind of work. Raise RetryableToolError / FatalToolError on failure."""

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput: ...
