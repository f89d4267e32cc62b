"""A run killed between steps (SIGKILL, no cleanup) resumes from its checkpoint without repeating work."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from executor.models import RunStatus, RuntimeCtxV1, StepStatus
from executor.run.conductor import RunConductor
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan
from tests.unit.executor.kill_target import PLAN, Announcer

ROOT = Path(__file__).resolve().parents[3]


def kill_mid_run(db: Path) -> None:
    """Starts the child run and SIGKILLs it once its third step has begun."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.unit.executor.kill_target", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()  # blocks until s3 has started: s1 and s2 are committed
        assert line.strip() == "hanging s3"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL


async def test_killed_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    db = tmp_path / "waypost.sqlite3"
    kill_mid_run(db)
    tool = Announcer(hang_on=None)
    with CheckpointStore(db) as store:
        state = store.load("run_killed")
        assert {sid: r.status for sid, r in state.step_runs.items()} == {
            "s1": StepStatus.SUCCESS,
            "s2": StepStatus.SUCCESS,
        }
        conductor = RunConductor(
            tools=dict.fromkeys(["web_search", "extract_dom", "summarize"], tool), store=store
        )
        bundle = await conductor.run(
            ExecutionPlan.model_validate(PLAN), RuntimeCtxV1(resume_checkpoint_ref="run_killed")
        )
    assert tool.steps == ["s3"]
    assert bundle.run_status is RunStatus.SUCCESS
    assert bundle.run_id == "run_killed"
    assert [r.step_id for r in bundle.step_runs] == ["s1", "s2", "s3"]
