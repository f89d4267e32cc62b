"""Environment errors end with exit 2 and one sentence, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from tests.faults.harness import ROOT, act_plan, home_env, write_plan
from tests.support.fault_site import FaultSite


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in home_env(tmp_path).items():
        if key.startswith("WAYPOST_"):
            monkeypatch.setenv(key, value)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WAYPOST_MODEL", "WAYPOST_BROWSER", "DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", ["is_a_file", "under_a_file"])
def test_runs_dir_that_cannot_be_a_folder(
    kind: str, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = home / "blocker"
    blocker.write_text("x")
    monkeypatch.setenv("WAYPOST_RUNS_DIR", str(blocker if kind == "is_a_file" else blocker / "runs"))
    code, out, err = cli(capsys, "plan", "Open http://127.0.0.1:9/ and read the title", "--planner", "rules")
    assert code == 2 and out == ""
    assert "runs folder" in err and "WAYPOST_RUNS_DIR" in err


def test_browser_path_pointing_at_nothing(
    home: Path, fault_site: FaultSite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WAYPOST_BROWSER", str(home / "no-such-chromium"))
    plan = write_plan(home, act_plan(fault_site.url("/go"), "Click Go"))
    code, _, err = cli(capsys, "run", "--plan", str(plan), "--approve", "all", "--json")
    assert code == 2, err
    assert "Chromium" in err and "Traceback" not in err


def test_headed_without_a_display(
    home: Path, fault_site: FaultSite, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = write_plan(home, act_plan(fault_site.url("/go"), "Click Go"))
    code, out, err = cli(capsys, "run", "--plan", str(plan), "--headed", "--json")
    assert code == 2 and out == ""
    assert "--headed needs a display" in err


def test_export_to_an_unwritable_folder(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.faults.harness import waypost

    done = waypost(home, "run", "--plan", str(write_plan(home, _compute_plan())), "--json")
    run_id = json.loads(done.out)["run_id"]
    blocker = home / "blocker"
    blocker.write_text("x")
    code, _, err = cli(capsys, "receipts", "export", run_id, "--out", str(blocker / "report.html"))
    assert code == 2, err
    assert "cannot" in err and "Traceback" not in err


def test_reader_closing_the_pipe_is_quiet(home: Path) -> None:
    """`waypost plan ... | head -1`: the reader goes away before the output is written."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "plan",
            "Open http://127.0.0.1:9/ and read the title",
            "--planner",
            "rules",
        ],
        cwd=ROOT,
        env=home_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # closed at once: the child starts writing seconds later
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def _compute_plan() -> dict[str, object]:
    return {"mode": "A", "plan_status": "READY", "steps": [{"step_id": "s1", "type": "COMPUTE"}]}
