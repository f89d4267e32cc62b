"""`waypost eval` with models a person runs on a laptop (docs/architecture.md, "Slow models").

A scripted model that answers correctly but writes 5 tokens a second solves eval tasks with its own
plans once the planning deadline fits its speed; models that answer "noop", refuse or repeat
themselves lose no task the rules solve. The report says which plan ran and compares with the rules.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from planner.context import build_context
from planner.draft import plan_to_draft
from planner.rules import plan_rules
from tests.e2e.test_cli_basics import run_cli
from tests.integration.act.test_model import act, done, index_of
from tests.support.llm_server import Reply, ScriptedLLMServer, Speed

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TASKS = "forms-01,research-01"
Model = Callable[[dict[str, Any]], Reply]


def _schema(body: dict[str, Any]) -> str:
    return str(((body.get("response_format") or {}).get("json_schema") or {}).get("name", ""))


def _user(body: dict[str, Any]) -> str:
    return str(next(m["content"] for m in body["messages"] if m["role"] == "user"))


def _own_plan(body: dict[str, Any]) -> Reply:
    """The model's own plan: the rules' steps under its own ids, names and rationale."""
    task = json.loads(_user(body))["task"]["task"]
    draft = plan_to_draft(plan_rules(task, build_context(task))).model_dump(mode="json")
    ids = {s["step_id"]: f"m{n}" for n, s in enumerate(draft["steps"], start=1)}
    for step in draft["steps"]:
        step["step_id"], step["name"] = ids[step["step_id"]], f"model: {step['type'].lower()}"
        step["depends_on"] = [ids[d] for d in step["depends_on"]]
    draft["rationale"] = "model plan"
    return Reply(content=json.dumps(draft, separators=(",", ":")))


def correct(body: dict[str, Any]) -> Reply:
    """Plans, fills the contact form, and answers the bridge question from its evidence."""
    schema = _schema(body)
    if schema == "plan_draft":
        return _own_plan(body)
    if schema == "grounded_summary":
        claim = {"text": "The Harbor Bridge opened in 1932.", "citations": [1]}
        return Reply(content=json.dumps({"claims": [claim]}, separators=(",", ":")))
    page = _user(body)
    if "'kind': 'fill'" in page.split("Page:")[0]:
        return done("filled")
    return act(
        {"kind": "fill", "index": index_of(page, "Name"), "value": "Ada Lovelace"},
        {"kind": "fill", "index": index_of(page, "Email"), "value": "ada@example.com"},
    )


def _eval(
    capsys: pytest.CaptureFixture[str], url: str, *extra: str, tasks: str = TASKS
) -> tuple[dict[str, Any], str]:
    code, out, err = run_cli(capsys, "eval", "--base-url", url, "--model", "m", "--tasks", tasks, *extra)
    assert code == 0, err
    return (json.loads(out) if "--json" in extra else {}), out + err


def test_a_correct_model_at_5_tokens_a_second_solves_tasks_with_its_own_plans(
    waypost_home: Path,
    capsys: pytest.CaptureFixture[str],
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    llm_server.responder = correct
    llm_server.speed = Speed(prompt_tps=1_000, generation_tps=5.0)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("WAYPOST_PLANNING_DEADLINE_S", "60")  # what doctor says 5 tokens/s needs
    report, shown = _eval(capsys, llm_server.url, "--json")
    rows = {r["task_id"]: r for r in report["results"]}
    for task_id, row in rows.items():
        assert row["success"], (task_id, row["reason"])
        assert row["model"]["plan"] == "used", (task_id, row["model"])  # the model's own plan ran
        assert row["model_calls"] >= 2 and row["model"]["model_seconds"] > 0
    assert rows["forms-01"]["model"]["rules_decided"] == 0 and rows["forms-01"]["model"]["decisions"] >= 2
    assert report["comparison"]["lost"] == []
    assert "plan: model's" in shown  # progress on the terminal names the plan that ran


def noop(body: dict[str, Any]) -> Reply:
    if _schema(body) == "cognition_decision":
        return Reply.json({"decision": "noop", "actions": [], "confidence": 0.0, "rationale": "wait",
                           "question": None, "answer": None})  # fmt: skip
    return correct(body)


def refuses(body: dict[str, Any]) -> Reply:
    return Reply(content="I'm sorry, but I can't help with that.")


def repeats(body: dict[str, Any]) -> Reply:
    return Reply(content='{"rationale": "' + "I will look at the page again. " * 20, finish_reason="length")


@pytest.mark.parametrize("model", [noop, refuses, repeats], ids=["noop", "refuses", "repeats"])
def test_a_model_that_cannot_decide_loses_no_task_the_rules_solve(
    waypost_home: Path,
    capsys: pytest.CaptureFixture[str],
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    model: Model,
) -> None:
    llm_server.responder = model
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    report, _ = _eval(capsys, llm_server.url, "--json", tasks="forms-01")  # plan and page decisions
    comparison = report["comparison"]
    assert comparison["rules_solved"] == 1 and comparison["lost"] == [], comparison
    reasons = {r for row in report["results"] for r in row["model"]["fallback_reasons"]}
    expected = {"noop": "noop", "refuses": "refused", "repeats": "repetitive"}[model.__name__]
    assert expected in reasons or any(expected in row["model"]["plan_why"] for row in report["results"])
    (forms,) = report["results"]
    assert forms["model"]["rules_decided"] >= 1  # the rules made the page decisions the model could not
