"""The `waypost` pytest fixture (a pytest11 plugin): QA keeps its flows in the suites it has.

    def test_signup(waypost):
        outcome = waypost.run("Open https://shop.example/signup and ...", approve="all")
        assert outcome.status == "SUCCESS"

Each call is one real run with receipts; the report's path is recorded as a property of the test,
so JUnit output (and pytest-xdist workers) carry it.

This module sits at the top level under a name of its own, and imports nothing of Waypost's: a QA
project often has its own `app` (or `common`, `browser`) package, which would shadow Waypost's in the
test process. Each run is the `waypost` console script in a child process instead, whose import path
starts at the script's own folder and carries no PYTHONPATH, so the QA project cannot shadow it
(docs/architecture.md, "Batches"). Loading the plugin costs a test session nothing.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict, Unpack

import pytest


class RunOptions(TypedDict, total=False):
    url: str | None
    approve: str
    plan: Path | None


class WaypostError(RuntimeError):
    """The `waypost` command refused the request or could not run (its own sentence is the message)."""


@dataclass(frozen=True)
class RunOutcome:
    """What a test asserts on: the run's true status, its answer and where its receipts are."""

    status: str
    answer: str | None
    reason: str
    run_id: str
    receipts: Path
    report: Path
    bundle: dict[str, Any]  # the run bundle as `waypost run --json` prints it


def waypost_command() -> str:
    """The console script installed beside this interpreter (a venv's bin/), else the one on PATH."""
    beside = Path(sysconfig.get_path("scripts")) / "waypost"
    if beside.is_file():
        return str(beside)
    found = shutil.which("waypost")
    if found is None:
        raise WaypostError("the `waypost` command is not installed beside this Python or on PATH")
    return found


def child_environment() -> dict[str, str]:
    """This process's environment without PYTHONPATH, which could put the QA project's packages first."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


async def call_waypost(*arguments: str) -> dict[str, Any]:
    """Runs `waypost ARGUMENTS --json` to its end and returns the JSON document it printed."""
    child = await asyncio.create_subprocess_exec(
        waypost_command(),
        *arguments,
        "--json",
        stdin=asyncio.subprocess.DEVNULL,  # no terminal: a gate set to ask pauses the run, never waits
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=child_environment(),
    )
    try:
        out, err = await child.communicate()
    except asyncio.CancelledError:
        child.kill()
        await child.wait()
        raise
    try:
        document = json.loads(out)
    except json.JSONDecodeError:
        said = err.decode(errors="replace").strip() or f"exit code {child.returncode}"
        raise WaypostError(f"waypost {arguments[0]}: {said}") from None
    if not isinstance(document, dict):
        raise WaypostError(f"waypost {arguments[0]} printed {type(document).__name__}, not an object")
    return document


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
        url, approve, plan = options.get("url"), options.get("approve", "all"), options.get("plan")
        if (task is None) == (plan is None):
            raise ValueError("give a task or a plan file (exactly one)")
        where = ["--runs-dir", str(self.runs_dir)] if self.runs_dir is not None else []
        what = ["--plan", str(plan)] if plan is not None else [str(task), *(["--url", url] if url else [])]
        bundle = await call_waypost("run", *what, "--approve", approve, *where)
        run_id, status = str(bundle["run_id"]), str(bundle["run_status"])
        report = Path((await call_waypost("receipts", "export", run_id, *where))["report"])
        outcome = RunOutcome(
            status=status,
            answer=bundle.get("final_answer"),
            reason=str(bundle.get("reason", "")),
            run_id=run_id,
            receipts=report.parent,
            report=report,
            bundle=bundle,
        )
        self.outcomes.append(outcome)
        suffix = "" if len(self.outcomes) == 1 else f"_{len(self.outcomes)}"
        self._record(f"waypost_report{suffix}", str(report))
        self._record(f"waypost_run{suffix}", f"{run_id} {status}")
        return outcome


@pytest.fixture
def waypost(record_property: Callable[[str, object], None]) -> Waypost:
    """A Waypost runner for this test; every run's report path becomes a property of the test."""
    return Waypost(record_property)


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "waypost: a test that drives real Waypost runs")
