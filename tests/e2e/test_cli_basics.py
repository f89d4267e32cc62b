"""`waypost plan | run | resume | receipts` from the outside: JSON output, exit codes, clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from app.settings import load_settings, save_settings
from executor.models import RunStatus


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_plan_json_is_a_valid_plan(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(
        capsys,
        "plan",
        "Open http://127.0.0.1:9/signup and prefill the form with email a@b.co, don't submit",
        "--json",
    )
    assert code == 0
    plan = json.loads(out)
    assert plan["schema_version"] == "PlanBundleV1@1"
    assert plan["mode"] == "B"
    assert any(s["type"] == "ACT" for s in plan["steps"])


def test_unclear_task_plans_a_question(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "plan", "hello there", "--json")
    plan = json.loads(out)
    assert code == 0
    assert plan["plan_status"] == "NEEDS_CLARIFICATION" and plan["clarification_question"]


def test_bad_plan_file_is_bad_input(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = waypost_home / "plan.json"
    bad.write_text(
        json.dumps({"mode": "A", "steps": [{"step_id": "a", "type": "COMPUTE", "depends_on": ["b"]}]})
    )
    code, out, err = run_cli(capsys, "run", "--plan", str(bad), "--json")
    assert code == 2
    assert out == ""
    assert "depends_on 'b'" in err


def test_missing_plan_file_and_both_inputs(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(capsys, "run", "--plan", str(waypost_home / "nope.json"))[0] == 2
    assert run_cli(capsys, "run", "task", "--plan", "x.json")[0] == 2


def paused_run(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A gated one-step plan run without a TTY: it pauses at its gate (exit 3)."""
    plan = waypost_home / "plan.json"
    plan.write_text(json.dumps({"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT"}]}))
    code, out, _ = run_cli(capsys, "run", "--plan", str(plan), "--json")
    bundle: dict[str, Any] = json.loads(out)
    assert (code, bundle["run_status"]) == (3, RunStatus.NEEDS_CONFIRMATION)
    return bundle


def test_gated_plan_pauses_without_a_tty_then_resume_declines(
    waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bundle = paused_run(waypost_home, capsys)
    assert bundle["checkpoint_ref"].startswith(f"chk://{bundle['run_id']}/")
    code, out, _ = run_cli(capsys, "resume", bundle["run_id"], "--approve", "none", "--json")
    assert (code, json.loads(out)["run_status"]) == (6, RunStatus.BLOCKED_POLICY)
    code, out, _ = run_cli(capsys, "receipts", "verify", bundle["run_id"], "--json")
    assert code == 0 and json.loads(out)["ok"] is True


def test_resume_unknown_run_is_bad_input(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "resume", "run_nope")
    assert code == 2 and "run_nope" in err
    assert "there is no run 'run_nope' to resume" in err and "waypost receipts list" in err
    gone = waypost_home / "runs" / "run_gone"
    code, _, err = run_cli(capsys, "resume", str(gone))
    assert (code, err) == (2, f"waypost: cannot resume {str(gone)!r}: no such folder; give a run id "
                              "(`waypost receipts list` shows them)\n")  # fmt: skip


def test_resume_takes_a_run_folder_of_the_runs_folder(
    waypost_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = paused_run(waypost_home, capsys)["receipt"]["run_dir"]
    code, out, _ = run_cli(capsys, "resume", folder, "--approve", "none", "--json")
    assert (code, json.loads(out)["run_status"]) == (6, RunStatus.BLOCKED_POLICY)


def test_settings_file_env_and_flags_layer(waypost_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings()
    save_settings(settings.model_copy(update={"model": "from-file", "headless": False}))
    assert load_settings().model == "from-file"
    monkeypatch.setenv("WAYPOST_MODEL", "from-env")
    monkeypatch.setenv("WAYPOST_HEADLESS", "yes")
    assert (load_settings().model, load_settings().headless) == ("from-env", True)
    assert load_settings(overrides={"model": "from-flag"}).model == "from-flag"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    path = save_settings(load_settings())
    assert "sk-test-123" not in path.read_text()


@pytest.mark.browser
def test_doctor_checks_every_part(
    waypost_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    code, out, _ = run_cli(capsys, "doctor", "--json")
    checks = {c["name"]: c for c in json.loads(out)}
    assert set(checks) == {"chromium", "qt", "fonts", "model", "runs_dir", "keyring", "runstore", "memory"}
    assert checks["chromium"]["ok"], checks["chromium"]["detail"]
    assert code == (0 if all(c["ok"] for c in checks.values()) else 1)
    monkeypatch.setenv("WAYPOST_BROWSER", str(waypost_home / "no-such-chromium"))
    code, out, _ = run_cli(capsys, "doctor", "--json")
    bad = {c["name"]: c for c in json.loads(out)}["chromium"]
    assert code == 1 and not bad["ok"] and "apt-get install" in bad["fix"]


def test_receipts_show_and_export(waypost_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = waypost_home / "plan.json"
    plan.write_text(json.dumps({"mode": "B", "steps": [{"step_id": "a1", "type": "WRITE_ARTIFACT"}]}))
    run_id = json.loads(run_cli(capsys, "run", "--plan", str(plan), "--json")[1])["run_id"]
    code, out, _ = run_cli(capsys, "receipts", "show", run_id, "--json")
    assert code == 0 and any(r["kind"] == "gate_decision" for r in json.loads(out))
    code, out, _ = run_cli(capsys, "receipts", "export", run_id, "--json")
    report = Path(json.loads(out)["report"])
    assert code == 0 and report.read_text(encoding="utf-8").lower().startswith("<!doctype html>")
    code, out, _ = run_cli(capsys, "receipts", "list", "--json")
    assert code == 0 and [r["run_id"] for r in json.loads(out)] == [run_id]
