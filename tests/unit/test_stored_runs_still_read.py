"""Runs a person already has keep working: a home written by main at 045e682 (tests/fixtures/home_045e682,
its README says how it was made) still verifies, lists and resumes (docs/architecture.md, "Checkpoints
and resume": plans, checkpoints and receipts are read back by a later version).

A failure here means a change made the stored format unreadable: keep reading the old format (or
migrate it) rather than regenerating the fixture."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.cli import main
from executor.models import RunStatus, StepStatus
from executor.store.checkpoint_store import CheckpointStore
from planner.models import StepType
from receipts.runs import list_runs
from tests.support.home_fixtures import isolate_home

FIXTURE = Path(__file__).parents[1] / "fixtures" / "home_045e682"
FINISHED = "run_4564a540be51"  # SUCCESS: one ACT step, approved at its gate
PAUSED = "run_60352300b9b5"  # NEEDS_CONFIRMATION at gate_action, checkpointed


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the checked-in home, with Waypost's config and data folders pointed at it."""
    shutil.copytree(FIXTURE, tmp_path / "home")
    return isolate_home(monkeypatch, tmp_path / "home")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_the_finished_run_still_verifies(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = str(home / "receipts-key.pub")
    code, out = cli(capsys, "receipts", "verify", FINISHED, "--trust", key, "--json")
    verdict = json.loads(out)
    assert (code, verdict["ok"], verdict["verdict"]) == (0, True, "OK"), out
    assert verdict["summary"].startswith(
        "OK: complete, signed and untouched: 4 records, 6 files; run SUCCESS"
    )


def test_the_paused_run_verifies_as_unfinished(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = str(home / "receipts-key.pub")
    code, out = cli(capsys, "receipts", "verify", PAUSED, "--trust", key, "--json")
    verdict = json.loads(out)
    assert (code, verdict["verdict"]) == (1, "UNFINISHED"), out
    assert "NEEDS_CONFIRMATION" in verdict["summary"]


def test_history_lists_both_stored_runs(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = home / "data" / "runs"
    store = CheckpointStore(runs / "waypost.sqlite3")
    try:
        history = {r.run_id: r for r in store.list_runs()}
    finally:
        store.close()
    assert {r: history[r].status for r in history} == {
        FINISHED: RunStatus.SUCCESS.value,
        PAUSED: RunStatus.NEEDS_CONFIRMATION.value,
    }
    pending = history[PAUSED].pending
    assert pending is not None and pending.gate_id == "gate_action"
    assert history[PAUSED].checkpoint_ref == f"chk://{PAUSED}/1"
    folders = {r.run_id: r.status for r in list_runs(runs)}
    assert folders == {FINISHED: "SUCCESS", PAUSED: "NEEDS_CONFIRMATION"}
    code, out = cli(capsys, "receipts", "list")
    assert code == 0 and FINISHED in out and PAUSED in out


def test_the_paused_run_loads_what_resume_reads(home: Path) -> None:
    store = CheckpointStore(home / "data" / "runs" / "waypost.sqlite3")
    try:
        plan = store.load_plan(PAUSED)
        state = store.load(PAUSED)
        checkpoint = store.load(f"chk://{PAUSED}/1")
        approved = store.load_approved_plan(PAUSED)
        legs = store.leg(PAUSED)
        finished = store.bundle(FINISHED)
    finally:
        store.close()
    assert [(s.step_id, s.type) for s in plan.steps] == [("stp_a1", StepType.ACT)]
    assert "Grace Hopper" in (plan.task.user_query if plan.task else "")
    assert approved == plan and legs == 1
    for loaded in (state, checkpoint):
        assert loaded.pending is not None
        assert (loaded.pending.gate_id, loaded.pending.step_id) == ("gate_action", "stp_a1")
        assert loaded.finished_step_ids == set() and loaded.approvals == []
    assert finished is not None and finished.run_status == RunStatus.SUCCESS
    assert [s.status for s in finished.step_runs] == [StepStatus.SUCCESS]


def test_the_paused_run_resumes(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Declining the gate it waits at needs no page: the resume runs through the stored plan, the
    checkpoint, the gate desk and the receipts, and the run closes BLOCKED_POLICY, signed again."""
    code, out = cli(capsys, "resume", PAUSED, "--approve", "none", "--json")
    assert (code, json.loads(out)["run_status"]) == (6, RunStatus.BLOCKED_POLICY), out
    code, out = cli(capsys, "receipts", "verify", PAUSED, "--json")
    assert code == 0 and json.loads(out)["ok"] is True, out
