"""The Planner role: anything that turns a task (and its context) into an ExecutionPlan."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from planner.models import ContextPack, ExecutionPlan
from planner.understand import Understanding


@runtime_checkable
class Planner(Protocol):
    """Plans never have side effects; a task may come as text or already understood (secrets apart)."""

    async def plan(self, task: str | Understanding, context: ContextPack | None = None) -> ExecutionPlan: ...
