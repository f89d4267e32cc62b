"""A batch under faults: a grid node dies mid-run; the waypost process is killed -9 and resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from app.cli import main
from receipts.verify import verify
from tests.batch.test_grid_batch import batch, read_task, write_suite
from tests.support.playwright_server import PlaywrightServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def journal_events(runs_dir: Path, batch_id: str) -> list[dict[str, object]]:
    lines = (runs_dir / "batches" / batch_id / "journal.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_a_run_whose_endpoint_dies_is_resumed_once_on_another(
    grid: list[PlaywrightServer],
    registry: Path,
    site: FixtureSite,
    waypost_home: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    paths = ["/slow?delay=2&case=node-a", "/slow?delay=2&case=node-b"]
    suite = write_suite(waypost_home, [{"name": p, "task": read_task(site, p)} for p in paths])
    with PlaywrightServer(registry) as doomed:

        def kill_when_both_pages_load() -> None:
            if all(site.wait_for_get(p) for p in paths):
                doomed.kill()

        killer = threading.Thread(target=kill_when_both_pages_load)
        killer.start()
        endpoints = ["--browser", doomed.endpoint, "--browser", grid[0].endpoint, "--per-browser", "1"]
        code, document, _ = batch(capsys, str(suite), "--workers", "2", *endpoints)
        killer.join()
    runs = document["runs"]
    assert isinstance(runs, list)
    assert code == 0, runs
    assert [(r["run_status"], r["endpoint"]) for r in runs] == [("SUCCESS", grid[0].endpoint)] * 2
    runs_dir = waypost_home / "data" / "runs"
    starts = [e for e in journal_events(runs_dir, str(document["batch_id"])) if e["event"] == "started"]
    on_doomed = [e for e in starts if e["endpoint"] == doomed.endpoint]
    assert len(on_doomed) == 1
    moved = [e for e in starts if e["run_id"] == on_doomed[0]["run_id"]]
    assert [e["endpoint"] for e in moved] == [doomed.endpoint, grid[0].endpoint]  # the same run, resumed
    assert all(verify(runs_dir / r["run_id"]).ok for r in runs)


def test_kill_9_then_resume_runs_every_case_once(
    grid: list[PlaywrightServer], site: FixtureSite, waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [f"/slow?delay=1&case=kill-{i}" for i in range(4)]
    suite = write_suite(waypost_home, [{"name": p, "task": read_task(site, p)} for p in paths])
    junit = waypost_home / "junit.xml"
    command = [sys.executable, "-m", "app", "batch", str(suite), "--workers", "2", "--json"]
    command += ["--browser", grid[0].endpoint, "--junit", str(junit)]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL)
    try:
        assert site.wait_for_get(paths[2], timeout_s=60)  # a third case started: one ended before it
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    runs_dir = waypost_home / "data" / "runs"
    (batch_dir,) = (runs_dir / "batches").iterdir()
    ended_before = {e["case"] for e in journal_events(runs_dir, batch_dir.name) if e["event"] == "ended"}
    assert ended_before and not junit.exists()

    code, document, _ = batch(capsys, "--resume", batch_dir.name)
    runs = document["runs"]
    assert isinstance(runs, list)
    assert code == 0 and [r["run_status"] for r in runs] == ["SUCCESS"] * 4
    loads = Counter(g for g in site.get_requests() if "case=kill-" in g)
    for path in paths:
        assert loads[path] == (1 if path in ended_before else loads[path]) and 1 <= loads[path] <= 2, loads
    assert sum(loads[p] == 2 for p in paths) <= 2  # at most the in-flight ones (two workers) twice
    assert len(ET.parse(junit).getroot().findall("./testsuite/testcase")) == 4
    assert all(verify(runs_dir / r["run_id"]).ok for r in runs)
    main(["batch", "--resume", batch_dir.name, "--json"])  # resuming a finished batch runs nothing
    again = json.loads(capsys.readouterr().out)
    assert again["runs"] == runs and Counter(g for g in site.get_requests() if "case=kill-" in g) == loads
