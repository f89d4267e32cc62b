"""`waypost batch` without a grid (each run launches its own local Chromium), as a person reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser]


def test_a_terminal_sees_each_case_and_the_total(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    gated_plan = {"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT"}]}
    cases = [
        {"name": "read home", "task": f"Open {site.url('/index.html')} and tell me the page title"},
        {"name": "gated plan", "plan": gated_plan, "expect": "NEEDS_CONFIRMATION"},
        {"name": "wrongly hopeful", "plan": gated_plan},
    ]
    suite = waypost_home / "suite.jsonl"
    suite.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    code = main(["batch", str(suite), "--workers", "2", "--approve", "ask"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "  PASS  read home  SUCCESS" in err and "  PASS  gated plan  NEEDS_CONFIRMATION" in err
    assert "  FAIL  wrongly hopeful  NEEDS_CONFIRMATION (expected SUCCESS)" in err
    assert "[3/3] passed 2  failed 1" in err
    assert "run   read home  on local" in err
    batch_id = out.split()[1].rstrip(":")
    assert out.startswith(f"batch {batch_id}: 2 passed, 1 failed")
    index = waypost_home / "data" / "runs" / "batches" / batch_id / "index.html"
    assert f"index: {index}" in out and index.is_file()
    assert "awaiting approval: waypost resume RUN --approve all  (RUN: run_" in out
