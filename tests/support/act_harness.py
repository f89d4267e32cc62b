"""Full runs through RunConductor on a shared Chromium: the act harness (real run folder, real SQLite
store, a driver per run), a scripted gate answer and plan builders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Browser

from browser.driver import BrowserDriver, PlaywrightDriver
from executor.act import act_runners
from executor.gates.approval import ApprovalPolicy
from executor.gates.confirm import ConfirmAnswer, ConfirmRequest
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
from receipts.models import ActionRecord, NoteRecord
from receipts.report import read_records
from receipts.verify import verify


class Answer:
    """A ConfirmHandler with a fixed answer per gate kind prefix; records every request."""

    def __init__(self, default: ConfirmAnswer = ConfirmAnswer.APPROVE, **by_kind: ConfirmAnswer) -> None:
        self.default = default
        self.by_kind = by_kind
        self.requests: list[ConfirmRequest] = []

    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer:
        self.requests.append(request)
        return self.by_kind.get(request.decision.gate_kind, self.default)


@dataclass
class ActHarness:
    browser: Browser
    runs_dir: Path
    store: CheckpointStore
    secrets: dict[str, str] = field(default_factory=dict)
    bus: EventBus = field(default_factory=EventBus)
    drivers: list[BrowserDriver] = field(default_factory=list)

    def resources(self, run_id: str, run_dir: Path) -> RunResources:
        async def on_shared_browser(res: RunResources) -> BrowserDriver:
            driver = await PlaywrightDriver.on_browser(
                self.browser, policy=res.policy, secrets=res.vault, downloads_dir=res.run_dir / "downloads"
            )
            self.drivers.append(driver)
            return driver

        return RunResources(
            run_id=run_id,
            run_dir=run_dir,
            secrets=self.secrets,
            driver_factory=on_shared_browser,
            fsync=False,
        )

    def conductor(
        self, *, cognition: Cognition | None = None, memory: MemoryStore | None = None, confirm: Any = None
    ) -> RunConductor:
        self.bus.keep_history = True
        return RunConductor(
            tools={},
            store=self.store,
            registry=RunnerRegistry(act_runners(cognition=cognition, memory=memory)),
            events=self.bus,
            confirm=confirm,
            resources=self.resources,
        )

    async def run(
        self,
        plan: ExecutionPlan,
        *,
        confirm: Any = None,
        cognition: Cognition | None = None,
        memory: MemoryStore | None = None,
        policy: ApprovalPolicy = ApprovalPolicy.ASK,
        **runtime: Any,
    ) -> RunBundleV1:
        conductor = self.conductor(cognition=cognition, memory=memory, confirm=confirm)
        ctx = RuntimeCtxV1(runs_dir=str(self.runs_dir), approval_policy=policy, **runtime)
        bundle = await conductor.run(plan, ctx)
        report = verify(self.runs_dir / bundle.run_id)
        assert report.ok, report.summary()  # every run's receipts verify
        return bundle

    def actions(self, bundle: RunBundleV1) -> list[ActionRecord]:
        records = read_records(RunFolder(self.runs_dir / bundle.run_id))
        return [r for _, r in records if isinstance(r, ActionRecord)]

    def notes(self, bundle: RunBundleV1) -> list[str]:
        records = read_records(RunFolder(self.runs_dir / bundle.run_id))
        return [r.text for _, r in records if isinstance(r, NoteRecord)]


def harness_on(browser: Browser, tmp_path: Path) -> ActHarness:
    """An act harness on `browser` with a real run store under tmp_path/runs."""
    store = CheckpointStore(tmp_path / "runs" / "waypost.sqlite3")
    return ActHarness(browser=browser, runs_dir=tmp_path / "runs", store=store)


def act_plan(
    steps: list[dict[str, Any]],
    *,
    gates: list[dict[str, Any]] | None = None,
    no_submit: bool = False,
    mode: str = "B",
    **extra: Any,
) -> ExecutionPlan:
    """A plan of act steps; each step gets the action gate unless it names its own."""
    gates = gates or [
        {
            "gate_id": "gate_action",
            "kind": "action",
            "reason": "act on the page",
            "blocked_actions": ["submit", "purchase", "delete"] if no_submit else ["purchase", "delete"],
        }
    ]
    for step in steps:
        step.setdefault("policy_gate_id", gates[0]["gate_id"])
    task: Mapping[str, Any] = {"user_query": "act", "constraints": {"no_submit": no_submit}}
    return ExecutionPlan.model_validate(
        {"mode": mode, "steps": steps, "policy_gates": gates, "task": task, **extra}
    )


def worded(plan: ExecutionPlan, user_query: str) -> ExecutionPlan:
    """The plan with its task's words replaced: what stays blocked is read from them (a delete or a
    purchase the words never ask for is blocked on every gate: planner/gates.task_floor)."""
    assert plan.task is not None
    return plan.model_copy(update={"task": plan.task.model_copy(update={"user_query": user_query})})
