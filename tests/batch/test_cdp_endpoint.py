"""`--browser http://...`: runs attach over CDP to a Chromium that is already running (started here
with a debugging port on 127.0.0.1), each in a fresh context that goes away with its run."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser.discovery import find_chromium
from receipts.verify import verify
from tests.batch.test_grid_batch import batch, read_task, write_suite
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

START_S = 30.0
LISTENING = re.compile(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/")


@pytest.fixture
def cdp_chromium(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A headless Chromium with a CDP port the system picks; yields its http:// endpoint."""
    command = [
        str(find_chromium()),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        f"--user-data-dir={tmp_path / 'profile'}",
        "about:blank",
    ]
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, start_new_session=True
    )
    port: list[str] = []
    listening = threading.Event()

    def read() -> None:  # keeps reading, so Chromium never blocks on a full pipe
        assert process.stderr is not None
        for line in process.stderr:
            found = LISTENING.search(line)
            if found and not port:
                port.append(found.group(1))
                listening.set()

    threading.Thread(target=read, daemon=True).start()
    try:
        assert listening.wait(START_S), "Chromium did not open its debugging port"
        yield f"http://127.0.0.1:{port[0]}", process
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # its own session: the browser and its helpers
        process.wait()


def pages(endpoint: str) -> list[str]:
    with urllib.request.urlopen(f"{endpoint}/json/list", timeout=10) as answer:
        return [t["url"] for t in json.load(answer) if t["type"] == "page"]


def test_runs_attach_over_cdp_each_in_a_context_of_its_own(
    cdp_chromium: tuple[str, subprocess.Popen[str]],
    site: FixtureSite,
    waypost_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    endpoint, chromium = cdp_chromium
    monkeypatch.setenv("WAYPOST_BROWSER", str(waypost_home / "no-such-chromium"))  # no local launch
    cases = [{"name": f"cdp {i}", "task": read_task(site, f"/slow?delay=0.2&cdp={i}")} for i in range(2)]
    suite = write_suite(waypost_home, cases)
    code, document, err = batch(capsys, str(suite), "--workers", "2", "--browser", endpoint)
    runs = document["runs"]
    assert isinstance(runs, list)
    assert code == 0, err
    assert [(r["run_status"], r["endpoint"]) for r in runs] == [("SUCCESS", endpoint)] * 2
    assert all(f"cdp={i}" in "".join(site.get_requests()) for i in range(2))
    runs_dir = waypost_home / "data" / "runs"
    assert all(verify(runs_dir / r["run_id"]).ok for r in runs)
    assert chromium.poll() is None  # the runs closed their contexts, not the browser they share
    assert pages(endpoint) == ["about:blank"]  # and took their pages with them
