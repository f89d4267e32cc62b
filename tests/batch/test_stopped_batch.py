"""A `waypost batch --json` stopped by Ctrl-C or SIGTERM still prints its document: what ended, what
is left (with the run ids of the runs it checkpointed) and the command that finishes the batch."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings import load_settings
from app.wiring import build_core
from tests.batch.test_grid_batch import read_task, write_suite
from tests.batch.test_grid_faults import journal_events
from tests.support.playwright_server import PlaywrightServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_stopped_batch_prints_what_ended_and_what_resumes(
    signum: signal.Signals, grid: list[PlaywrightServer], site: FixtureSite, waypost_home: Path
) -> None:
    tag = signum.name
    paths = [f"/slow?delay=0&stop={tag}-0", f"/slow?delay=120&stop={tag}-1", f"/slow?delay=120&stop={tag}-2"]
    cases = [{"name": p, "task": read_task(site, p)} for p in [*paths, f"/slow?delay=0&stop={tag}-3"]]
    suite = write_suite(waypost_home, cases)
    command = [sys.executable, "-m", "app", "batch", str(suite), "--workers", "2", "--json"]
    command += ["--browser", grid[0].endpoint]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the first case ended before its worker loaded the third page; the second page still loads
        assert site.wait_for_get(paths[2], timeout_s=60)
        process.send_signal(signum)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    document = json.loads(out)
    batch_id = document["batch_id"]
    runs_dir = waypost_home / "data" / "runs"
    started = {
        str(e["case"]): str(e["run_id"])
        for e in journal_events(runs_dir, batch_id)
        if e["event"] == "started"
    }
    assert [(r["name"], r["run_status"], r["passed"]) for r in document["runs"]] == [
        (paths[0], "SUCCESS", True)
    ]
    assert document["resumable"] == [
        {"name": paths[1], "run_id": started[paths[1]]},
        {"name": paths[2], "run_id": started[paths[2]]},
        {"name": f"/slow?delay=0&stop={tag}-3", "run_id": None},
    ]
    assert (document["passed"], document["failed"], document["batch_status"]) == (1, 0, "INTERRUPTED")
    assert document["resume_command"] == f"waypost batch --resume {batch_id}"
    assert f"stopped by {tag}" in document["reason"]
    assert f"Continue it with: waypost batch --resume {batch_id}" in err
    statuses = {r.run_id: r.status for r in build_core(load_settings()).store.list_runs()}
    assert [statuses[started[p]] for p in paths] == ["SUCCESS", "RUNNING", "RUNNING"]  # cut off, not failed
