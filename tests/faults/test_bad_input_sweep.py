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


def _act(*actions: dict[str, Any], **inputs: Any) -> str:
    """A one-step ACT plan on a closed local port: refused when read, so no browser ever starts."""
    step_inputs = {"url": "http://127.0.0.1:9/", **inputs}
    if actions:
        step_inputs["actions"] = list(actions)
    step = {"step_id": "s1", "type": "ACT", "policy_gate_id": "g", "inputs": step_inputs}
    gate = {"gate_id": "g", "kind": "action", "requires_user_confirm": True}
    return json.dumps({"mode": "B", "plan_status": "READY", "steps": [step], "policy_gates": [gate]})


#: Plans refused when read (exit 2, a sentence naming the step and the problem), before any browser
#: starts and before any gate is asked: each ran until Chromium had launched, or ended SUCCESS.
REFUSED_PLANS: dict[str, tuple[str, str]] = {
    "url_number": (_act(url=12345), "url"),
    "url_empty": (_act(url=""), "url"),
    "unknown_step_type": (
        json.dumps({"mode": "B", "plan_status": "READY", "steps": [{"step_id": "s1", "type": "TELEPORT"}]}),
        "TELEPORT",
    ),
    "unknown_action_kind": (_act({"kind": "teleport"}), "teleport"),
    "navigate_empty_url": (_act({"kind": "navigate", "url": ""}), "url"),
    "fill_without_value": (_act({"kind": "fill", "target": {"label": "Name"}}), "value"),
    "wait_two_conditions": (_act({"kind": "wait", "text": "Hi", "url_contains": "x"}), "wait"),
    "extract_attribute_without_target": (
        _act({"kind": "extract", "what": "attribute", "attribute": "href"}),
        "target",
    ),
    "scroll_zero": (_act({"kind": "scroll", "amount": 0}), "amount"),
    "negative_timeout": (_act({"kind": "click", "target": {"text": "Go"}, "timeout_ms": -5}), "timeout"),
    "save_as_parent": (_act({"kind": "download", "target": {"text": "Get"}, "save_as": "../x"}), "save_as"),
    "save_as_dots": (_act({"kind": "download", "target": {"text": "Get"}, "save_as": ".."}), "save_as"),
    "actions_not_a_list": (_act(actions={"kind": "click"}), "actions"),
    "payload_not_object": (_act(goal="Send it", payload=["a"]), "payload"),
    "reference_to_no_step": (
        _act({"kind": "fill", "target": {"label": "A"}, "value": "{{step:nope.x}}"}),
        "nope",
    ),
}


@pytest.mark.parametrize("name", list(REFUSED_PLANS))
def test_plans_refused_when_read(name: str, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    content, named = REFUSED_PLANS[name]
    path = home / "plan.json"
    path.write_text(content, encoding="utf-8")
    code = main(["run", "--plan", str(path), "--approve", "all", "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert (code, out) == (2, ""), out + err
    assert "s1" in err and named in err, err
    assert not list((home / "runs").glob("run_*")), "a run was started for a plan that was refused"


def test_plan_with_a_byte_order_mark_is_read(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = home / "plan.json"
    path.write_bytes(b"\xef\xbb\xbf" + PLAN_FILES["valid_compute"].encode())  # type: ignore[union-attr]
    code = main(["run", "--plan", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code != 2 and json.loads(out)["run_id"].startswith("run_"), out + err  # it ran


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_plan_file_is_refused_by_size(
    device: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--plan /dev/zero` read 22.7 GB before the kernel killed the process."""
    code = main(["run", "--plan", device, "--json"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), err
    assert device in err and "MiB" in err, err


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_settings_file_is_refused_by_size(
    device: str, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "config").mkdir()
    (home / "config" / "config.toml").symlink_to(device)
    code = main(["plan", TASK, "--planner", "rules", "--json"])
    out, err = capsys.readouterr()
    assert (code, out) == (2, ""), err
    assert "config.toml" in err and "MiB" in err, err


#: Settings a run read and only tripped on later, deep inside (a traceback): each is refused when
#: read, with exit 2 and a sentence naming the setting.
BAD_SETTINGS: list[tuple[str, str, list[str]]] = [
    ("WAYPOST_SEARCH_URL", "http://127.0.0.1:9/search", ["run", "search the web for datafeed packages"]),
    ("WAYPOST_SEARCH_URL", "not a url {query}", ["run", "search the web for datafeed packages"]),
    ("OPENAI_BASE_URL", "::nonsense::", ["plan", TASK]),
    ("OPENAI_BASE_URL", "::nonsense::", ["run", TASK]),
    ("OPENAI_BASE_URL", "ftp://127.0.0.1/v1", ["plan", TASK]),
    ("WAYPOST_CDP_URL", "::nonsense::", ["run", TASK]),
    ("WAYPOST_VOICE_URL", "::nonsense::", ["plan", TASK, "--planner", "rules"]),
]


@pytest.mark.parametrize(
    ("var", "value", "argv"), BAD_SETTINGS, ids=[f"{k}={v}:{a[0]}" for k, v, a in BAD_SETTINGS]
)
def test_settings_refused_when_read(
    var: str,
    value: str,
    argv: list[str],
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(var, value)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    code = main([*argv, "--approve", "all", "--json"] if argv[0] == "run" else [*argv, "--json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert (code, out) == (2, ""), out + err
    assert var in err, err


#: A browser the settings name that will not start or answer: a traceback from inside the launch
#: before. Now exit 2 with a sentence naming the setting, and the run waits to be resumed.
NO_BROWSER: list[tuple[str, dict[str, str], list[str], str]] = [
    ("browser_is_not_chromium", {"WAYPOST_BROWSER": "/bin/true"}, [], "WAYPOST_BROWSER"),
    ("headed_on_a_dead_display", {"DISPLAY": ":99"}, ["--headed"], "DISPLAY=':99'"),
    ("cdp_port_closed", {"WAYPOST_CDP_URL": "http://127.0.0.1:9"}, [], "WAYPOST_CDP_URL"),
]


@pytest.mark.parametrize(("name", "env", "flags", "named"), NO_BROWSER, ids=[n for n, *_ in NO_BROWSER])
def test_a_browser_that_will_not_start_is_named(
    name: str,
    env: dict[str, str],
    flags: list[str],
    named: str,
    home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    path = home / "plan.json"
    path.write_text(_act({"kind": "extract"}), encoding="utf-8")
    code = main(["run", "--plan", str(path), "--approve", "all", "--json", *flags])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert (code, out) == (2, ""), out + err
    assert named in err and "waypost resume run_" in err, err


def test_search_url_in_the_settings_file_is_named(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / "config").mkdir()
    (home / "config" / "config.toml").write_text('search_url = "http://127.0.0.1:9/search"\n')
    code = main(["plan", TASK, "--planner", "rules", "--json"])
    err = capsys.readouterr().err
    assert code == 2 and "search_url" in err and "config.toml" in err and "{query}" in err, err


def test_sweep_has_at_least_110_inputs() -> None:
    counted = CLI_ARGS, PLAN_FILES, ENVIRONMENT, SETTINGS_FILES, REFUSED_PLANS, BAD_SETTINGS, NO_BROWSER
    assert sum(len(group) for group in counted) >= 110
