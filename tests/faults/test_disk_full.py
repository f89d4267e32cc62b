"""A full disk mid-run is a run status with a sentence; what was recorded stays, and the run resumes.

The runs folder sits on a small tmpfs (real ENOSPC from the kernel). The run finishes its first step,
then waits on a page the fault server holds; the test fills the disk and lets the page through, so
the next write fails. After space is freed, `resume` finishes without re-running the first step.
Needs permission to mount (root, as CI runs); skipped otherwise.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.faults.harness import finish, home_env, spawn, waypost, write_plan
from tests.support.fault_site import FaultSite


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mount)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=True)


def _fill(disk: Path) -> Path:
    """Writes one file until the disk refuses: what is left is not enough for a screenshot.

    Unbuffered, so the bytes the disk refused are not kept to be written again when the file closes
    (a buffered file raised ENOSPC a second time from close, depending on how much space was left)."""
    filler = disk / "filler"
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


def _plan(site: FaultSite) -> dict[str, Any]:
    act = {"kind": "action", "requires_user_confirm": False, "reason": "reads"}
    step = {"type": "ACT", "policy_gate_id": "gate_read"}
    return {
        "mode": "B",
        "plan_status": "READY",
        "steps": [
            {
                **step,
                "step_id": "stp_one",
                "name": "Read one",
                "inputs": {"url": site.url("/ok"), "actions": []},
            },
            {
                **step,
                "step_id": "stp_two",
                "name": "Read two",
                "depends_on": ["stp_one"],
                "inputs": {"url": site.url("/held"), "actions": [{"kind": "extract"}]},
            },
        ],
        "policy_gates": [{"gate_id": "gate_read", **act}],
        "budget": {"max_time_ms": 60_000, "max_tool_calls": 30, "max_actions": 40},
    }


def test_full_disk_mid_run_is_a_status_and_resumes(
    tmp_path: Path, small_disk: Path, table: list[tuple[str, float, str]]
) -> None:
    with FaultSite() as site:
        plan = write_plan(tmp_path, _plan(site))
        env = home_env(tmp_path, WAYPOST_RUNS_DIR=str(small_disk / "runs"))
        started = time.monotonic()
        proc = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json", env=env)
        site.wait_for_get("/held")  # the first step is done and saved
        filler = _fill(small_disk)
        site.proceed()
        outcome = finish(proc, started, 60)
        table.append((outcome.status, outcome.seconds, f"page loads /ok {site.gets('/ok')}"))
        assert "Traceback" not in outcome.err, outcome.err
        assert outcome.document.get("run_id"), outcome.out + outcome.err
        run_id = outcome.document["run_id"]
        assert outcome.status == "FAILED", outcome.out
        assert "disk" in outcome.sentence and f"waypost resume {run_id}" in outcome.sentence

        filler.unlink()  # the person frees space
        resumed = waypost(tmp_path, "resume", run_id, "--approve", "all", "--json", env=env, limit_s=90)
        table.append((resumed.status, resumed.seconds, f"page loads /ok {site.gets('/ok')}"))
        assert "Traceback" not in resumed.err, resumed.err
        assert resumed.status == "SUCCESS", resumed.out + resumed.err
        assert site.gets("/ok") == 1  # the step recorded before the disk filled was not run again
        listed = json.loads(waypost(tmp_path, "receipts", "list", "--json", env=env).out)
        assert [r["run_id"] for r in listed] == [run_id]
