"""The act loop on a scripted driver: a harness with a real store and run folder, and plans of one ACT
step."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browser.driver import BrowserDriver
from executor.act import act_runners
from executor.gates.confirm import ConfirmHandler
from executor.journal.events import EventBus
from executor.models import RunBundleV1, RuntimeCtxV1
from executor.run.conductor import RunConductor
from executor.run.resources import RunResources
from executor.store.checkpoint_store import CheckpointStore
from executor.store.memory import MemoryStore
from executor.tools.registry import RunnerRegistry
from planner.decisions import Cognition
from planner.models import ExecutionPlan
from receipts.layout import RunFolder
from receipts.models import ActionRecord
from receipts.report import read_records
from receipts.verify import verify
from tests.support.fake_tools import FakeTool, fake_toolbox
from tests.unit.act._scripted import ScriptedDriver


@dataclass
class LoopHarness:
    tmp: Path
    driver: ScriptedDriver = field(default_factory=ScriptedDriver)
    tools: dict[str, FakeTool] = field(default_factory=fake_toolbox)
    bus: EventBus = field(default_factory=EventBus)

    def __post_init__(self) -> None:
        self.store = CheckpointStore(self.tmp / "runs" / "waypost.sqlite3")
        self.bus.keep_history = True

    async def run(
        self,
        plan: ExecutionPlan,
        *,
        cognition: Cognition | None = None,
        memory: MemoryStore | None = None,
        confirm: ConfirmHandler | None = None,
        **runtime: Any,
    ) -> RunBundleV1:
        async def factory(res: RunResources) -> BrowserDriver:
            return self.driver

        conductor = RunConductor(
            tools=self.tools,
            store=self.store,
            registry=RunnerRegistry(act_runners(cognition=cognition, memory=memory)),
            events=self.bus,
            confirm=confirm,
            resources=lambda run_id, run_dir: RunResources(
                run_id=run_id, run_dir=run_dir, driver_factory=factory, fsync=False
            ),
        )
        runtime.setdefault("approval_policy", "ask" if confirm is not None else "all")
        bundle = await conductor.run(plan, RuntimeCtxV1(runs_dir=str(self.tmp / "runs"), **runtime))
        assert verify(self.tmp / "runs" / bundle.run_id).ok
        return bundle

    def records(self, bundle: RunBundleV1) -> list[ActionRecord]:
        folder = RunFolder(self.tmp / "runs" / bundle.run_id)
        return [r for _, r in read_records(folder) if isinstance(r, ActionRecord)]


def plan_of(
    *steps: dict[str, Any], budget: dict[str, Any] | None = None, blocked: list[str] | None = None
) -> ExecutionPlan:
    blocked = ["purchase", "delete"] if blocked is None else blocked
    gate = {"gate_id": "gate_action", "kind": "action", "blocked_actions": blocked}
    for step in steps:
        if step["type"] != "COMPUTE":
            step.setdefault("policy_gate_id", "gate_action")
    return ExecutionPlan.model_validate(
        {"mode": "B", "steps": list(steps), "policy_gates": [gate], "budget": budget or {}}
    )
