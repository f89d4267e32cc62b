"""`waypost run --trace` leaves trace.zip in the run folder, named by the signed receipts, that
Playwright's own trace viewer (`playwright show-trace`) loads and shows the run's actions from; a
run that typed a secret keeps a trace without one byte of it (no pictures, every entry scrubbed)."""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import subprocess
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import sync_playwright

from app.cli import main
from app.cli_receipts import viewer_command
from browser.discovery import find_chromium
from receipts.attest import check_run
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SECRET = "Zx9-trace-pass-4471"


def traced_run(capsys: pytest.CaptureFixture[str], home: Path, task: str) -> Path:
    code = main(["run", task, "--approve", "all", "--trace", "--json"])
    bundle = json.loads(capsys.readouterr().out)
    assert code == 0, bundle["reason"]
    return home / "data" / "runs" / str(bundle["run_id"])


def entries(trace: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(trace) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def shown_by_trace_viewer(trace: Path, expect: str) -> str:
    """Serves the trace as `waypost receipts trace` does, opens the viewer in the Chromium Waypost
    drives, returns its text once `expect` (an action title) is shown. The viewer runs in a session
    of its own, so that its Node server (a child of Playwright's Python wrapper) is stopped with it,
    and without a display, so that it opens no tab on a developer's desktop."""
    quiet = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    viewer = subprocess.Popen(
        viewer_command(trace),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=quiet,
        start_new_session=True,
    )
    try:
        assert viewer.stdout is not None
        found = None
        for line in viewer.stdout:  # a blank line, then "Listening on URL"
            found = re.search(r"http://127\.0\.0\.1:\d+\S*", line)
            if found:
                break
        assert found, "playwright show-trace did not say where it listens"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(find_chromium()), args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(found.group(0))
            page.get_by_text(expect).first.wait_for(timeout=30_000)
            text = page.inner_text("body")
            browser.close()
        return text
    finally:
        os.killpg(viewer.pid, signal.SIGTERM)
        viewer.wait(timeout=30)


def test_a_traced_run_keeps_a_signed_trace_the_viewer_loads(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = traced_run(
        capsys,
        waypost_home,
        f"Fill the contact form at {site.url('/form.html')} with name Ada Lovelace, don't submit",
    )
    trace = folder / "trace.zip"
    assert trace.is_file()
    assert any(n.endswith((".jpeg", ".png")) for n in entries(trace))  # screenshots when no secret
    check = check_run(folder)
    assert check.ok, check.summary()
    assert check.statement is not None and "trace.zip" in {s.name for s in check.statement.subject}
    text = shown_by_trace_viewer(trace, "Fill")
    assert "Ada Lovelace" in text


def test_a_run_with_a_secret_has_no_byte_of_it_in_its_trace(
    waypost_home: Path,
    site: FixtureSite,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """hostile/echo.html shows the typed password back as text, in base64 and in the address bar."""
    page = site.url("/hostile/echo.html")
    fill = {"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:pw}}"}
    plan = {
        "mode": "B",
        "task": {"user_query": "type my password", "constraints": {"no_submit": True}},
        "steps": [{"step_id": "a1", "type": "ACT", "inputs": {"url": page, "actions": [fill]}}],
    }
    plan_file = waypost_home / "plan.json"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    monkeypatch.setenv("TRACE_TEST_PW", SECRET)
    argv = [
        "run",
        "--plan",
        str(plan_file),
        "--approve",
        "all",
        "--trace",
        "--secret",
        "pw=env:TRACE_TEST_PW",
    ]
    main([*argv, "--json"])
    bundle = json.loads(capsys.readouterr().out)
    assert bundle["actions_taken"] == ["navigate:ok", "fill:ok"], bundle["reason"]
    folder = waypost_home / "data" / "runs" / str(bundle["run_id"])
    trace = folder / "trace.zip"
    assert trace.is_file(), "a trace scrubbed of the secret is kept"
    unpacked = entries(trace)
    assert not any(
        form in data for data in [trace.read_bytes(), *unpacked.values()] for form in forms(SECRET)
    )
    assert not any(n.endswith((".jpeg", ".png")) for n in unpacked)  # no pictures of a page showing it
    assert check_run(folder).ok
    text = shown_by_trace_viewer(trace, "Fill")
    assert SECRET not in text and "[REDACTED]" in text


def forms(value: str) -> list[bytes]:
    raw = value.encode()
    return [raw, quote(value, safe="").encode(), base64.b64encode(raw), base64.b64encode(raw).rstrip(b"=")]
