"""Builders for executor tests: plans from compact specs, a conductor on a real SQLite store and fake
tools."""

from __future__ import annotations

from typing import Any

from executor.gates.confirm import ConfirmHandler
from executor.journal.events import EventBus
from executor.run.conductor import RunConductor
from executor.store.checkpoint_store import CheckpointStore
from executor.tools.retry import MODE_RETRY_POLICIES
from planner.models import ExecutionPlan
from tests.support.fake_tools import FakeTool

#: The modes' own attempt counts, without the backoff waits.
NO_WAIT_RETRY = {mode: p.model_copy(update={"base_delay_s": 0.0}) for mode, p in MODE_RETRY_POLICIES.items()}
UNLIMITED_RATE = (1e9, 1_000_000)


def make_plan(mode: str, steps: list[dict[str, Any]], **extra: Any) -> ExecutionPlan:
    """`steps` as compact dicts: {"step_id": "r1", "type": "WEB_SEARCH", "depends_on": [...]}."""
    return ExecutionPlan.model_validate({"mode": mode, "steps": steps, **extra})


class Harness:
    """A conductor wired to fake tools, a real SQLite store and an event bus that keeps history."""

    def __init__(self, store: CheckpointStore, tools: dict[str, FakeTool]) -> None:
        self.store = store
        self.tools = tools
        self.bus = EventBus()
        self.bus.keep_history = True

    def conductor(self, confirm: ConfirmHandler | None = None) -> RunConductor:
        return RunConductor(
            tools=self.tools,
            store=self.store,
            events=self.bus,
            confirm=confirm,
            retry_policies=NO_WAIT_RETRY,
            rate_overrides=dict.fromkeys(self.tools, UNLIMITED_RATE),
        )

    def called_steps(self) -> list[str]:
        return [step_id for tool in self.tools.values() for step_id, _ in tool.calls]

    def started_order(self) -> list[str]:
        return [e.step_id for e in self.bus.history if e.kind == "step_begun"]
