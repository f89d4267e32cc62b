"""SIGINT and SIGTERM stop a run cleanly: a checkpoint, the real resume command, the run id in --json."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests.faults.harness import (
    act_plan,
    browser_pid,
    finish,
    run_folder,
    spawn,
    waypost,
    write_plan,
)
from tests.support.fault_site import FaultSite


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_signal_mid_run_checkpoints_and_names_the_resume_command(
    sig: signal.Signals, tmp_path: Path, fault_site: FaultSite, table: list[tuple[str, float, str]]
) -> None:
    plan = write_plan(tmp_path, act_plan(fault_site.url("/hold-first"), "Click Go", max_time_ms=30_000))
    before = fault_site.gets("/hold-first")
    started = time.monotonic()
    proc = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json")
    fault_site.wait_for_get("/hold-first", before + 1)  # the run's Chromium is up and on the page
    assert browser_pid(proc.pid) is not None
    os.kill(proc.pid, sig)
    outcome = finish(proc, started, 30)
    table.append(("INTERRUPTED", outcome.seconds, f"exit {outcome.code}"))
    assert outcome.code == 130, outcome.err
    assert "Traceback" not in outcome.err, outcome.err
    run_id = outcome.document["run_id"]
    assert run_id.startswith("run_")
    assert f"waypost resume {run_id}" in outcome.err
    assert outcome.document["resume_command"] == f"waypost resume {run_id}"
    assert sig.name in outcome.err
    assert not [p for p in _children(proc.pid)]  # nothing left behind

    resumed = waypost(tmp_path, "resume", run_id, "--approve", "all", "--json", limit_s=90)
    table.append((resumed.status, resumed.seconds, "resume"))
    assert "Traceback" not in resumed.err, resumed.err
    assert resumed.document.get("run_id") == run_id, resumed.err


def _children(pid: int) -> list[int]:
    from tests.faults.harness import descendants

    return [p for p, _ in descendants(pid)]


def test_killed_run_is_listed_as_interrupted_with_its_records(
    tmp_path: Path, fault_site: FaultSite, table: list[tuple[str, float, str]]
) -> None:
    """kill -9 of the whole `waypost` process: nothing could seal the receipts, yet the list tells."""
    plan = write_plan(tmp_path, act_plan(fault_site.url("/never"), "Click Go", max_time_ms=30_000))
    started = time.monotonic()
    proc = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json")
    before = fault_site.gets("/never")
    fault_site.wait_for_get("/never", before + 1)  # past the gate (a receipt) and in the browser
    folder = run_folder(tmp_path)
    assert folder is not None and (folder / "receipts.jsonl").exists()
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc, started, 30)
    listed = waypost(tmp_path, "receipts", "list", "--json")
    rows = json.loads(listed.out)
    table.append((rows[0]["status"], listed.seconds, f"records {rows[0]['records']}"))
    assert rows[0]["run_id"] == folder.name
    assert rows[0]["status"] == "INTERRUPTED" and rows[0]["records"] >= 1
