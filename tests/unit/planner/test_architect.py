"""LLMPlanner and make_plan end to end against the local model server."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr

from planner.architect import LLMPlanner
from planner.base import Planner
from planner.context import build_context
from planner.draft import plan_to_draft
from planner.llm_settings import LLMSettings
from planner.metering import metered
from planner.model_words import plan_sentence
from planner.models import ExecutionPlan, PlanMode
from planner.rules import plan_rules
from planner.service import PlannerConfigError, make_plan
from tests.support.llm_server import Reply, ScriptedLLMServer, unreachable_url

S3C = "Nghiên cứu gói datafeed Vietstock phù hợp cho FinAI rồi mở trang đăng ký điền sẵn form (đừng submit)."
S3C_URL = "https://dichvu.vietstock.vn/datafeed"
SECRET_TASK = "Log in to portal.example.com with username bob and password hunter2 and download the invoice"


def _draft(task: str, url: str | None = None) -> dict[str, Any]:
    return plan_to_draft(plan_rules(task, build_context(task, url=url))).model_dump(mode="json")


async def _plan(settings: LLMSettings, task: str, url: str | None = None) -> tuple[ExecutionPlan, LLMPlanner]:
    planner = LLMPlanner(settings)
    try:
        return await planner.plan(task, build_context(task, url=url)), planner
    finally:
        await planner.aclose()


async def test_refined_plan_through_json_schema(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    draft = _draft(S3C, S3C_URL)
    draft["sub_queries"] = [
        {"q": "Vietstock datafeed bảng giá", "role": "data"},
        {"q": "Vietstock datafeed điều khoản thương mại", "role": "official"},
    ]
    draft["steps"][-1]["payload"] = [{"field": "company", "value": "FinAI"}]
    llm_server.script(Reply.json(draft, usage=(900, 250)))
    with metered() as meter:
        plan, planner = await _plan(llm_settings, S3C, S3C_URL)
    assert isinstance(planner, Planner)
    assert plan.mode is PlanMode.C and plan.reason_codes[0] == "MODE_C:llm_architect"
    assert [q.q for q in plan.sub_queries] == [
        "Vietstock datafeed bảng giá",
        "Vietstock datafeed điều khoản thương mại",
    ]
    assert plan.steps[0].inputs["sub_queries"][0]["q"] == "Vietstock datafeed bảng giá"
    assert plan.steps[-1].inputs["payload"] == {"company": "FinAI"}
    (request,) = llm_server.chat_requests()
    assert request.body["response_format"]["type"] == "json_schema"
    assert request.body["messages"][0]["role"] == "system"
    assert (meter.usage.calls, meter.usage.tokens_in, meter.usage.tokens_out) == (1, 900, 250)


async def test_always_malformed_falls_back_to_rules(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(*[Reply(content="{definitely not json") for _ in range(3)])
    plan, _ = await _plan(llm_settings, S3C, S3C_URL)
    rules = plan_rules(S3C, build_context(S3C, url=S3C_URL))
    assert plan.reason_codes == [*rules.reason_codes, "LLM_FALLBACK:invalid_json"]
    assert [s.step_id for s in plan.steps] == [s.step_id for s in rules.steps]
    assert len(llm_server.chat_requests()) == 3


async def test_json_object_server(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.reject_json_schema = True
    llm_server.script(Reply.json(_draft(S3C, S3C_URL)))
    plan, _ = await _plan(llm_settings, S3C, S3C_URL)
    assert plan.reason_codes[0] == "MODE_C:llm_architect"
    assert [r.response_format for r in llm_server.chat_requests()] == ["json_schema", "json_object"]


async def test_429_then_success(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.error(429, "slow down", "rate_limit_exceeded"), Reply.json(_draft(S3C, S3C_URL)))
    plan, _ = await _plan(llm_settings, S3C, S3C_URL)
    assert plan.reason_codes[0] == "MODE_C:llm_architect"


async def test_floor_reimposed_when_the_model_drops_a_gate(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    draft = _draft(S3C, S3C_URL)
    draft["steps"][-1]["gate"] = None
    llm_server.script(Reply.json(draft))
    plan, _ = await _plan(llm_settings, S3C, S3C_URL)
    act = plan.steps[-1]
    gate = plan.gate(act.policy_gate_id)
    assert gate is not None and gate.requires_user_confirm and "submit" in gate.blocked_actions
    assert "SAFETY_FLOOR:gate_added:stp_a1" in plan.reason_codes


async def test_floor_reimposed_when_the_model_adds_an_action_to_mode_a(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    task = "Compare the pricing of Notion and Obsidian with sources"
    draft = _draft(task)
    draft["steps"].append(
        {
            "step_id": "stp_a1",
            "type": "ACT",
            "name": "Buy Notion",
            "depends_on": ["stp_c1"],
            "optional": False,
            "url": "https://notion.so",
            "goal": "buy the plan",
            "query": None,
            "payload": [],
            "gate": None,
        }
    )
    llm_server.script(Reply.json(draft))
    plan, _ = await _plan(llm_settings, task)
    assert plan.mode is PlanMode.A and not any(s.is_action for s in plan.steps)
    assert "SAFETY_FLOOR:removed_actions_in_mode_A" in plan.reason_codes


async def test_secret_is_never_sent_to_the_model(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(Reply.json(_draft(SECRET_TASK)))
    result = await make_plan(SECRET_TASK, planner="llm", llm=llm_settings)
    (request,) = llm_server.chat_requests()
    assert "hunter2" not in request.text
    assert "{{secret:password}}" in request.text
    assert "hunter2" not in result.plan.model_dump_json()
    assert result.secrets["password"].get_secret_value() == "hunter2"
    assert "hunter2" not in repr(result)
    assert result.planner_used == "llm"


async def test_unreachable_model_falls_back_in_auto() -> None:
    settings = LLMSettings(base_url=unreachable_url(), api_key=SecretStr("k"), max_retries=0)
    result = await make_plan(S3C, context=build_context(S3C, url=S3C_URL), planner="auto", llm=settings)
    assert result.planner_used == "rules"
    assert "LLM_FALLBACK:unreachable" in result.plan.reason_codes
    assert result.plan.mode is PlanMode.C


async def test_service_choices() -> None:
    rules = await make_plan("Compare Notion and Obsidian with sources", planner="auto", llm=None)
    assert rules.planner_used == "rules" and rules.plan.mode is PlanMode.A
    with pytest.raises(PlannerConfigError):
        await make_plan("Compare Notion and Obsidian", planner="llm", llm=LLMSettings())


async def test_replan_sends_the_reason(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.json(_draft(S3C, S3C_URL)))
    planner = LLMPlanner(llm_settings)
    previous = plan_rules(S3C, build_context(S3C, url=S3C_URL))
    plan = await planner.replan(S3C, build_context(S3C, url=S3C_URL), previous, "stp_r1 found no evidence")
    await planner.aclose()
    assert plan.mode is PlanMode.C
    assert "stp_r1 found no evidence" in llm_server.chat_requests()[0].text


async def test_auto_uses_a_reachable_model(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.json(_draft(S3C, S3C_URL)))
    result = await make_plan(S3C, context=build_context(S3C, url=S3C_URL), planner="auto", llm=llm_settings)
    usage = result.plan.planning_usage
    assert result.planner_used == "llm" and usage is not None and usage.calls == 1


async def test_no_tokens_spent_when_only_the_person_can_answer(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    plan, _ = await _plan(llm_settings, "Fill the form with name Alice and email a@b.co")
    assert plan.mode is PlanMode.CLARIFY and plan.reason_codes[-1] == "LLM_SKIPPED:clarify"
    assert llm_server.chat_requests() == []


async def test_an_empty_draft_is_rejected_as_such_and_said_in_words(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    task = "Open https://forms.example.com/contact and fill the contact form with name Ada, do not send it"
    draft = _draft(task)
    draft["steps"] = []  # what small local models return
    llm_server.script(Reply.json(draft))
    result = await make_plan(task, planner="llm", llm=llm_settings)
    assert result.planner_used == "llm" and "LLM_DRAFT_REJECTED:empty_plan" in result.plan.reason_codes
    assert result.plan.steps and result.plan.planning_deadline_ms == 45_000  # the rules' plan runs
    assert (
        plan_sentence(result.plan)
        == "The model's plan was not used (it had no steps); the rules planned this run."
    )
    assert llm_server.chat_requests()[0].body["max_tokens"] >= 400  # sized to the baseline plan
