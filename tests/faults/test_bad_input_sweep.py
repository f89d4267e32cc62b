"""A sweep of bad inputs (CLI arguments, plan files, environment, settings file): each ends with
exit 2 and a sentence on stderr, or with a run status in the JSON document; never a traceback.

Everything runs in-process through `main()`, so an exception escaping it fails the case. No case
here needs a browser: plans that validate are pure COMPUTE plans or are refused before any launch.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli import main

STATUSES = {
    "SUCCESS",
    "FAILED",
    "ABORTED_BUDGET",
    "PARTIAL",
    "NEEDS_CLARIFICATION",
    "NEEDS_CONFIRMATION",
    "BLOCKED_POLICY",
}
TASK = "Open http://127.0.0.1:9/ and read the title"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("WAYPOST_RUNS_DIR", str(tmp_path / "runs"))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WAYPOST_MODEL", "WAYPOST_BROWSER", "DISPLAY"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def ends_in_words(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse: usage and one line, exit 2
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    if code == 2:
        assert err.strip(), "exit 2 without a sentence"
        return
    document = json.loads(out)
    status = document.get("run_status") or document.get("plan_status")
    assert status in STATUSES | {"READY"}, out


CLI_ARGS: list[list[str]] = [
    ["frobnicate"],
    ["run"],
    ["run", "--json"],
    ["run", TASK, "--plan", "x.json"],
    ["run", "--approve", "maybe", TASK],
    ["run", "--planner", "oracle", TASK],
    ["plan"],
    ["plan", TASK, "--planner", "psychic"],
    ["plan", TASK, "--unknown-flag"],
    ["resume"],
    ["resume", "run_doesnotexist", "--json"],
    ["resume", "../../etc/passwd", "--json"],
    ["resume", "", "--json"],
    ["resume", "run_x", "--approve", "sometimes"],
    ["receipts"],
    ["receipts", "burn"],
    ["receipts", "show"],
    ["receipts", "show", "run_doesnotexist"],
    ["receipts", "verify", "run_doesnotexist"],
    ["receipts", "export", "run_doesnotexist"],
    ["receipts", "show", "/etc"],
    ["receipts", "show", "../.."],
    ["receipts", "verify", "/nonexistent/folder"],
    ["replay"],
    ["replay", "run_doesnotexist"],
    ["replay", "/etc"],
    ["demo", "--approve", "perhaps"],
    ["run", "--plan"],
    ["run", "--plan", "/nonexistent/plan.json"],
    ["run", "--plan", "/etc"],
    ["run", "--plan", "/dev/null"],
    ["--json"],
]


@pytest.mark.parametrize("argv", CLI_ARGS, ids=[" ".join(a) or "empty" for a in CLI_ARGS])
def test_cli_arguments(argv: list[str], home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ends_in_words(capsys, argv)


def _step(**extra: Any) -> dict[str, Any]:
    return {"step_id": "s1", "type": "COMPUTE", **extra}


PLAN_FILES: dict[str, str | bytes] = {
    "empty": "",
    "whitespace": "   \n",
    "not_json": "this is not a plan",
    "truncated": '{"mode": "A", "steps": [',
    "array": "[]",
    "null": "null",
    "number": "42",
    "string": '"plan"',
    "not_utf8": b"\xff\xfe\x00{",
    "no_steps": json.dumps({"mode": "A"}),
    "empty_steps": json.dumps({"mode": "A", "steps": []}),
    "bad_mode": json.dumps({"mode": "Z", "steps": [_step()]}),
    "mode_number": json.dumps({"mode": 3, "steps": [_step()]}),
    "steps_object": json.dumps({"mode": "A", "steps": {"a": 1}}),
    "step_not_object": json.dumps({"mode": "A", "steps": ["COMPUTE"]}),
    "unknown_step_type": json.dumps({"mode": "A", "steps": [{"step_id": "s1", "type": "TELEPORT"}]}),
    "step_without_type": json.dumps({"mode": "A", "steps": [{"step_id": "s1"}]}),
    "duplicate_ids": json.dumps({"mode": "A", "steps": [_step(), _step()]}),
    "missing_dependency": json.dumps({"mode": "A", "steps": [_step(depends_on=["nope"])]}),
    "self_dependency": json.dumps({"mode": "A", "steps": [_step(depends_on=["s1"])]}),
    "cycle": json.dumps(
        {
            "mode": "A",
            "steps": [
                {"step_id": "a", "type": "COMPUTE", "depends_on": ["b"]},
                {"step_id": "b", "type": "COMPUTE", "depends_on": ["a"]},
            ],
        }
    ),
    "depends_on_string": json.dumps({"mode": "A", "steps": [_step(depends_on="s0")]}),
    "negative_budget": json.dumps({"mode": "A", "steps": [_step()], "budget": {"max_time_ms": -5}}),
    "zero_budget": json.dumps({"mode": "A", "steps": [_step()], "budget": {"max_time_ms": 0}}),
    "budget_string": json.dumps({"mode": "A", "steps": [_step()], "budget": {"max_time_ms": "fast"}}),
    "huge_budget": json.dumps({"mode": "A", "steps": [_step()], "budget": {"max_tool_calls": 10**30}}),
    "unknown_gate": json.dumps({"mode": "B", "steps": [_step(type="ACT", policy_gate_id="gate_x")]}),
    "plan_status_garbage": json.dumps({"mode": "A", "plan_status": "MAYBE", "steps": [_step()]}),
    "needs_clarification": json.dumps(
        {"mode": "A", "plan_status": "NEEDS_CLARIFICATION", "steps": [_step()], "clarification_question": "?"}
    ),
    "timeout_negative": json.dumps({"mode": "A", "steps": [_step(timeout_s=-1)]}),
    "max_attempts_zero": json.dumps({"mode": "A", "steps": [_step(max_attempts=0)]}),
    "step_id_empty": json.dumps({"mode": "A", "steps": [{"step_id": "", "type": "COMPUTE"}]}),
    "inputs_not_object": json.dumps({"mode": "A", "steps": [_step(inputs=[1, 2])]}),
    "config_not_object": json.dumps({"mode": "A", "steps": [_step(config="x")]}),
    "deep_nesting": "[" * 5000 + "]" * 5000,
    "act_javascript_url": json.dumps(
        {"mode": "B", "steps": [_step(type="ACT", inputs={"goal": "click", "url": "javascript:alert(1)"})]}
    ),
    "unknown_top_level_field": json.dumps({"mode": "A", "steps": [_step()], "surprise": True}),
    "valid_compute": json.dumps({"mode": "A", "plan_status": "READY", "steps": [_step()]}),
}


@pytest.mark.parametrize("name", list(PLAN_FILES))
def test_plan_files(name: str, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = PLAN_FILES[name]
    path = home / "plan.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    ends_in_words(capsys, ["run", "--plan", str(path), "--approve", "none", "--json"])


ENVIRONMENT: list[tuple[str, str]] = [
    ("WAYPOST_HEADLESS", "perhaps"),
    ("WAYPOST_SAFE_MODE", "sometimes"),
    ("WAYPOST_MODEL_IMAGES", "2"),
    ("WAYPOST_RUNS_DIR", "/proc/waypost-runs"),
    ("WAYPOST_RUNS_DIR", "/dev/null"),
    ("WAYPOST_CONFIG_DIR", "/dev/null"),
    ("OPENAI_BASE_URL", "not a url"),
    ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
]


@pytest.mark.parametrize(("var", "value"), ENVIRONMENT, ids=[f"{k}={v}" for k, v in ENVIRONMENT])
def test_environment(
    var: str, value: str, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(var, value)
    if var == "OPENAI_BASE_URL":
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    ends_in_words(capsys, ["plan", TASK, "--json"])


SETTINGS_FILES: dict[str, str | bytes] = {
    "not_toml": "this = is = not toml",
    "binary": b"\x00\x01\x02\xff",
    "wrong_type": 'llm_timeout_s = "slow"\n',
    "negative_timeout": "llm_timeout_s = -1\n",
    "unknown_key": "colour = 'blue'\n",
    "headless_string": 'headless = "maybe"\n',
    "approve_unknown": 'approve = "whenever"\n',
    "planner_unknown": 'planner = "oracle"\n',
    "table_instead_of_value": "[model]\nname = 'x'\n",
    "empty": "",
}


@pytest.mark.parametrize("name", list(SETTINGS_FILES))
def test_settings_files(name: str, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content = SETTINGS_FILES[name]
    path = home / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    ends_in_words(capsys, ["plan", TASK, "--planner", "rules", "--json"])


def test_sweep_has_at_least_80_inputs() -> None:
    assert len(CLI_ARGS) + len(PLAN_FILES) + len(ENVIRONMENT) + len(SETTINGS_FILES) >= 80
