"""Nothing hangs, and a dead browser is a status: real `waypost` processes against the fault server.

Each case must end within its time budget plus 10 s (plus STARTUP_S for the interpreter and imports,
which run before the budget starts), with a status, a sentence and the JSON document on stdout.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests.faults.harness import (
    Outcome,
    act_plan,
    browser_pid,
    finish,
    spawn,
    waypost,
    write_plan,
)
from tests.support.fault_site import FaultSite

BUDGET_MS = 8_000
STARTUP_S = 10.0  # interpreter, imports and Chromium launch on a loaded 2-core machine
LIMIT_S = BUDGET_MS / 1000 + 10 + STARTUP_S
KILL_BUDGET_MS = 30_000  # the killed-browser case: the page must still be held when the kill lands


def assert_ended_in_words(outcome: Outcome, budget_ms: int = BUDGET_MS) -> None:
    """Ended by itself within its own time budget plus 10 s (plus start-up), in words."""
    assert outcome.code != -999, outcome.err  # -999: the harness had to kill it
    assert outcome.seconds <= budget_ms / 1000 + 10 + STARTUP_S, outcome.seconds
    assert outcome.document.get("run_id"), outcome.out
    assert outcome.status and outcome.sentence
    assert "Traceback" not in outcome.err, outcome.err


def run_plan(home: Path, url: str, goal: str = "Click Go") -> Outcome:
    plan = write_plan(home, act_plan(url, goal, max_time_ms=BUDGET_MS))
    return waypost(home, "run", "--plan", str(plan), "--approve", "all", "--json", limit_s=LIMIT_S + 30)


def test_page_that_never_answers_ends_within_budget(
    tmp_path: Path, fault_site: FaultSite, table: list[tuple[str, float, str]]
) -> None:
    outcome = run_plan(tmp_path, fault_site.url("/never"))
    table.append((outcome.status, outcome.seconds, f"posts {fault_site.posts()}"))
    assert_ended_in_words(outcome)
    assert outcome.status == "ABORTED_BUDGET"
    assert "time" in outcome.sentence


@pytest.mark.parametrize("path", ["/spin-on-load", "/spin"], ids=["on_load", "after_click"])
def test_page_spinning_forever_ends_within_budget(
    path: str, tmp_path: Path, fault_site: FaultSite, table: list[tuple[str, float, str]]
) -> None:
    """`while(true){}` from load on, or started by the click the run makes (the capture after it)."""
    outcome = run_plan(tmp_path, fault_site.url(path))
    table.append((outcome.status, outcome.seconds, f"posts {fault_site.posts()}"))
    assert_ended_in_words(outcome)
    assert outcome.status in {"ABORTED_BUDGET", "FAILED"}


def test_killed_browser_is_a_status_and_resume_relaunches(
    tmp_path: Path, fault_site: FaultSite, table: list[tuple[str, float, str]]
) -> None:
    plan = write_plan(
        tmp_path, act_plan(fault_site.url("/hold-first"), "Click Go", max_time_ms=KILL_BUDGET_MS)
    )
    started = time.monotonic()
    proc = spawn(tmp_path, "run", "--plan", str(plan), "--approve", "all", "--json")
    fault_site.wait_for_get("/hold-first")  # the run's Chromium asked for the page: it is up
    chromium = browser_pid(proc.pid)
    assert chromium is not None
    profile = _profile_dir(chromium)
    os.kill(chromium, signal.SIGKILL)
    outcome = finish(proc, started, 60)
    assert profile.name.startswith("playwright_chromiumdev_profile-")
    assert not profile.exists() and not profile.parent.exists()  # no Chromium temp folders left behind
    table.append((outcome.status, outcome.seconds, f"posts {fault_site.posts()}"))
    assert_ended_in_words(outcome, KILL_BUDGET_MS)
    assert outcome.status == "FAILED" and outcome.code == 1
    assert "browser" in outcome.sentence and "waypost resume" in outcome.sentence
    run_id = outcome.document["run_id"]
    listed = json.loads(waypost(tmp_path, "receipts", "list", "--json").out)
    assert [(r["run_id"], r["status"]) for r in listed] == [(run_id, "INTERRUPTED")]  # resumable
    checked = waypost(tmp_path, "receipts", "verify", run_id)  # intact, and honest that it is unfinished
    assert checked.out.startswith("UNFINISHED") and "untouched" in checked.out, checked.out + checked.err

    resumed = waypost(tmp_path, "resume", run_id, "--approve", "all", "--json", limit_s=90)
    table.append((resumed.status, resumed.seconds, f"page loads {fault_site.gets('/hold-first')}"))
    assert "Traceback" not in resumed.err, resumed.err
    assert resumed.document.get("run_id") == run_id
    assert "browser" not in resumed.sentence  # a new browser, which reached the page this time
    assert fault_site.gets("/hold-first") == 2


def _profile_dir(pid: int) -> Path:
    args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    return Path(next(a for a in args if a.startswith("--user-data-dir=")).split("=", 1)[1])
