"""The `waypost` pytest fixture (a pytest11 plugin): QA keeps its flows in the suites it has.

    def test_signup(waypost):
        outcome = waypost.run("Open https://shop.example/signup and ...", approve="all")
        assert outcome.status == "SUCCESS"

Each call is one real run with receipts; the report's path is recorded as a property of the test,
so JUnit output (and pytest-xdist workers) carry it. Heavy imports wait for the first run: loading
the plugin costs a test session nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

import pytest

if TYPE_CHECKING:
    from executor.models import RunBundleV1


class RunOptions(TypedDict, total=False):
    url: str | None
    approve: str
    plan: Path | None


@dataclass(frozen=True)
class RunOutcome:
    """What a test asserts on: the run's true status, its answer and where its receipts are."""

    status: str
    answer: str | None
    reason: str
    run_id: str
    receipts: Path
    report: Path | None
    bundle: RunBundleV1


class Waypost:
    """Runs tasks (or plan files) for one test; `runs_dir` defaults to the configured one."""

    def __init__(self, record: Callable[[str, object], None], runs_dir: Path | None = None) -> None:
        self._record = record
        self.runs_dir = runs_dir
        self.outcomes: list[RunOutcome] = []

    def run(self, task: str | None = None, **options: Unpack[RunOptions]) -> RunOutcome:
        """One run to its end, from synchronous test code (options as `arun`)."""
        return asyncio.run(self.arun(task, **options))

    async def arun(self, task: str | None = None, **options: Unpack[RunOptions]) -> RunOutcome:
        """One run to its end, from an async test: `task` (with an optional start `url`) or a `plan`
        file that `waypost plan --json` wrote; gates follow `approve` (default "all")."""
        from app.settings import load_settings
        from app.wiring import build_core
        from executor.approval import ApprovalPolicy
        from planner.plan_file import read_plan_file
        from receipts.report import export_report

        url, approve, plan = options.get("url"), options.get("approve", "all"), options.get("plan")
        if (task is None) == (plan is None):
            raise ValueError("give a task or a plan file (exactly one)")
        settings = load_settings(overrides={"runs_dir": self.runs_dir, "approve": approve})
        core = build_core(settings)
        if plan is not None:
            execution = await asyncio.to_thread(read_plan_file, plan)
        else:
            assert task is not None
            execution = (await core.plan(task, url=url, planner=settings.planner)).plan
        bundle = await core.run(
            execution, safe_mode=settings.safe_mode, approval_policy=ApprovalPolicy(approve), confirm=None
        )
        folder = core.run_dir(bundle.run_id)
        report = await asyncio.to_thread(export_report, folder)
        outcome = RunOutcome(
            status=str(bundle.run_status),
            answer=bundle.final_answer,
            reason=bundle.reason,
            run_id=bundle.run_id,
            receipts=folder,
            report=report,
            bundle=bundle,
        )
        self.outcomes.append(outcome)
        suffix = "" if len(self.outcomes) == 1 else f"_{len(self.outcomes)}"
        self._record(f"waypost_report{suffix}", str(report))
        self._record(f"waypost_run{suffix}", f"{bundle.run_id} {bundle.run_status}")
        return outcome


@pytest.fixture
def waypost(record_property: Callable[[str, object], None]) -> Waypost:
    """A Waypost runner for this test; every run's report path becomes a property of the test."""
    return Waypost(record_property)


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "waypost: a test that drives real Waypost runs")
