"""Goal-driven steps with the scripted model server behind the real openai client."""

from __future__ import annotations

import re
from typing import Any

import pytest

from executor.models import RunStatus
from executor.store.memory import MemoryStore
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def page_of(body: dict[str, Any]) -> str:
    return str(next(m["content"] for m in body["messages"] if m["role"] == "user"))


def index_of(page: str, name: str) -> int:
    found = re.search(rf'\[(\d+)\] \S+ "{re.escape(name)}"', page)
    assert found is not None, f"{name!r} not in the observation:\n{page}"
    return int(found.group(1))


def act(*actions: dict[str, Any], confidence: float = 0.9) -> Reply:
    full = [{"index": None, "value": None, "summary": None, **a} for a in actions]
    return Reply.json({"decision": "act", "actions": full, "confidence": confidence, "rationale": "next",
                       "question": None, "answer": None})  # fmt: skip


def done(summary: str) -> Reply:
    action = {"kind": "done", "index": None, "value": None, "summary": summary}
    return Reply.json({"decision": "answer", "actions": [action], "confidence": 0.9, "rationale": summary,
                       "question": None, "answer": summary})  # fmt: skip


def goal_plan(site: FixtureSite, page: str, goal: str, payload: dict[str, str], **kw: Any) -> Any:
    inputs = {"url": site.url(page), "goal": goal, "payload": payload}
    return act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], **kw)


async def test_model_fills_by_index(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    site.clear_posts()

    def respond(body: dict[str, Any]) -> Reply:
        page = page_of(body)
        if "'kind': 'fill'" not in page.split("Page:")[0]:
            return act(
                {"kind": "fill", "index": index_of(page, "Name"), "value": "Grace Hopper"},
                {"kind": "fill", "index": index_of(page, "Email"), "value": "grace@example.com"},
            )
        return done("form prefilled")

    llm_server.responder = respond
    cognition = LLMCognition(LLMClient(llm_settings))
    plan = goal_plan(
        site, "/signup.html", "Prefill the signup form", {"name": "Grace Hopper"}, no_submit=True
    )
    bundle = await act_harness.run(plan, confirm=Answer(), cognition=cognition)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    filled = [
        (r.action["target"], r.value) for r in act_harness.actions(bundle) if r.action["kind"] == "fill"
    ]
    assert [v for _, v in filled] == ["Grace Hopper", "grace@example.com"]
    assert all("index" in t for t, _ in filled)
    assert bundle.step_runs[0].outputs["summary"] == "form prefilled"
    assert site.post_count() == 0


async def test_looping_model_is_stopped(
    act_harness: ActHarness,
    site: FixtureSite,
    llm_server: ScriptedLLMServer,
    llm_settings: LLMSettings,
    tmp_path: Any,
) -> None:
    llm_server.responder = lambda body: act({"kind": "click", "index": index_of(page_of(body), "Finish")})
    memory = MemoryStore(tmp_path / "memory.sqlite3")
    plan = goal_plan(site, "/wizard3.html", "Finish the wizard", {})
    bundle = await act_harness.run(
        plan, confirm=Answer(), cognition=LLMCognition(LLMClient(llm_settings)), memory=memory
    )
    assert bundle.run_status is RunStatus.FAILED
    (step,) = bundle.step_runs
    assert step.error_code == "loop_detected", step.error
    clicks = [r for r in act_harness.actions(bundle) if r.action["kind"] == "click"]
    assert len(clicks) == 3  # the first changes the page, two more on the unchanged page, then stop
    (failure,) = memory.entries(kind="failure")
    assert failure.key == "loop_detected" and failure.site.startswith("127.0.0.1")


async def test_broken_json_is_retried_a_bounded_number_of_times(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.responder = lambda body: Reply(content="sure! {not json")
    plan = goal_plan(
        site,
        "/signup.html",
        "Prefill the signup form",
        {"name": "Ada", "email": "ada@example.com"},
        no_submit=True,
    )
    bundle = await act_harness.run(plan, confirm=Answer(), cognition=LLMCognition(LLMClient(llm_settings)))
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    cognition = bundle.step_runs[0].outputs["cognition"]
    assert cognition["fallbacks"] == cognition["decisions"] >= 2
    assert cognition["fallback_reason"] == "invalid_json"
    per_decision = llm_settings.max_repairs + 1
    assert len(llm_server.chat_requests()) == per_decision * cognition["decisions"]
    assert any("invalid_json" in note for note in act_harness.notes(bundle))
