"""`waypost run "Log in to ..." --approve all` on the fixture site: the sign-in really happens, once,
in one step; a fill-only task posts nothing; a refused sign-in fails with the site's own words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from receipts.layout import RunFolder
from receipts.models import RunEndRecord
from receipts.report import read_records
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser


def run(capsys: pytest.CaptureFixture[str], task: str) -> dict[str, object]:
    main(["run", task, "--approve", "all", "--json"])
    return dict(json.loads(capsys.readouterr().out))


def run_end_reason(home: Path, run_id: str) -> str:
    folder = next(p for p in home.rglob(run_id) if p.is_dir())
    return next(r.reason for _, r in read_records(RunFolder(folder)) if isinstance(r, RunEndRecord))


def test_log_in_presses_sign_in_once_in_one_step(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    bundle = run(capsys, f"Log in to {site.url('/login.html')} with username bob and password hunter2")
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    steps = bundle["step_runs"]
    assert isinstance(steps, list) and [s["step_type"] for s in steps] == ["ACT"]  # no catch-all step
    assert steps[0]["actions"][-1] == "click:ok"
    assert site.post_count("/login") == 1
    assert b"username=bob" in site.post_bodies("/login")[0]


def test_fill_the_login_form_without_submitting_posts_nothing(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    site.clear_posts()
    page = site.url("/login.html")
    task = f"Fill the login form at {page} with username bob and password hunter2, don't submit"
    bundle = run(capsys, task)
    assert bundle["run_status"] == "SUCCESS", bundle["reason"]
    assert site.post_count() == 0
    steps = bundle["step_runs"]
    assert isinstance(steps, list) and len(steps) == 1
    assert "NOT submitted" in str(bundle["final_answer"])


def test_a_refused_sign_in_fails_and_says_why_everywhere(
    waypost_home: Path, site: FixtureSite, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = run(capsys, f"Log in to {site.url('/login_fails.html')} with username bob and password hunter2")
    assert bundle["run_status"] == "FAILED"
    words = "Incorrect username or password"
    assert words in str(bundle["reason"]) and words in str(bundle["final_answer"])
    assert run_end_reason(waypost_home, str(bundle["run_id"])) == bundle["reason"]
