"""Cognition for ACT steps: the rule policy (fuzzy field matching) and the model policy by index."""

from __future__ import annotations

import pytest
from pydantic import SecretStr

from browser.models import ElementInfo, Observation
from planner.cognition import (
    RuleCognition,
    assign_fields,
    guard_low_confidence,
    match_score,
    norm,
    rule_decide,
)
from planner.decisions import Cognition, HistoryEntry
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.support.llm_server import Reply, ScriptedLLMServer, unreachable_url


def _el(index: int, name: str = "", **kw: object) -> ElementInfo:
    data: dict[str, object] = {"index": index, "tag": "input", "role": "textbox", "name": name, **kw}
    return ElementInfo.model_validate(data)


FORM = Observation(
    url="https://forms.example.com/signup",
    title="Sign up",
    elements=[
        _el(0, "Full name *"),
        _el(1, "E-mail", input_type="email"),
        _el(2, "Company name"),
        _el(3, "", placeholder="Số điện thoại"),
        _el(4, "Gói", tag="select", role="combobox", options=["Basic", "Pro"]),
        _el(5, "Password", input_type="password"),
        _el(6, "Gửi đăng ký", tag="button", role="button", input_type="submit"),
    ],
)
PAYLOAD = {
    "name": "Alice",
    "email": "a@b.co",
    "company": "Acme",
    "phone": "0901234567",
    "package": "pro",
    "password": "{{secret:password}}",
}


def test_norm_ignores_case_marks_and_noise() -> None:
    assert norm("  Họ và Tên (bắt buộc)* ") == "ho va ten"
    assert norm("E-MAIL:") == "e mail"


@pytest.mark.parametrize(
    ("key", "label", "expected"),
    [
        ("email", "E-mail", 1.0),
        ("name", "Họ tên", 1.0),
        ("company", "Công ty", 1.0),
        ("name", "Your name", 1.0),
    ],
)
def test_synonyms_match_exactly(key: str, label: str, expected: float) -> None:
    assert match_score(key, _el(0, label)) == expected


def test_each_key_gets_its_own_field() -> None:
    chosen = assign_fields(PAYLOAD, FORM.elements)
    assert {k: el.index for k, (el, _) in chosen.items()} == {
        "name": 0,
        "email": 1,
        "company": 2,
        "phone": 3,
        "package": 4,
        "password": 5,
    }


def test_fills_by_index_then_finishes_without_submitting() -> None:
    first = rule_decide("fill the signup form", PAYLOAD, FORM, [])
    assert first.decision == "act"
    assert {"kind": "select", "target": {"index": 4}, "value": "Pro"} in first.actions
    assert {"kind": "fill", "target": {"index": 5}, "value": "{{secret:password}}"} in first.actions
    assert all(a["kind"] != "click" for a in first.actions)
    history = [HistoryEntry(action=a) for a in first.actions]
    second = rule_decide("fill the signup form", PAYLOAD, FORM, history)
    assert second.decision == "answer" and second.actions[0]["kind"] == "done"


def test_values_already_on_the_page_are_not_typed_again() -> None:
    page = FORM.model_copy(update={"elements": [_el(0, "Email", value="a@b.co")]})
    assert rule_decide("fill", {"email": "a@b.co"}, page, []).decision == "answer"


def test_clicks_by_visible_text() -> None:
    decision = rule_decide('Click "Gửi đăng ký"', {}, FORM, [])
    assert decision.actions == [{"kind": "click", "target": {"index": 6}}]
    after = rule_decide('Click "Gửi đăng ký"', {}, FORM, [HistoryEntry(action=decision.actions[0])])
    assert after.decision == "answer"


def test_unknown_fields_ask_instead_of_guessing() -> None:
    decision = rule_decide("fill", {"passport_number": "X1"}, FORM, [])
    assert (
        decision.decision == "request_info" and decision.question and "passport_number" in decision.question
    )


def test_read_state_extracts_then_answers() -> None:
    first = rule_decide("Read the current state, change nothing: my plan", {}, FORM, [])
    assert first.actions == [{"kind": "extract", "what": "text"}]
    done = rule_decide(
        "Read the current state, change nothing: my plan", {}, FORM, [HistoryEntry(action=first.actions[0])]
    )
    assert done.decision == "answer"


def test_low_confidence_never_submits() -> None:
    from planner.decisions import CognitionDecision

    shaky = CognitionDecision(
        decision="act", confidence=0.3, actions=[{"kind": "click", "target": {"index": 6}}]
    )
    guarded = guard_low_confidence(shaky, "Submit: the signup form")
    assert guarded.decision == "request_info" and not guarded.actions
    assert guard_low_confidence(shaky, "open the menu") is shaky


async def test_rule_cognition_is_a_cognition() -> None:
    cognition: Cognition = RuleCognition()
    assert (await cognition.decide("fill", {"email": "a@b.co"}, FORM, [])).decision == "act"


async def test_llm_cognition_picks_by_index(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(
        Reply.json(
            {
                "decision": "act",
                "confidence": 0.9,
                "rationale": "fill email",
                "question": None,
                "answer": None,
                "actions": [
                    {"kind": "fill", "index": 1, "value": "a@b.co", "summary": None},
                    {"kind": "click", "index": 99, "value": None, "summary": None},
                ],
            }
        )
    )
    client = LLMClient(llm_settings)
    decision = await LLMCognition(client).decide(
        "fill the form", {"password": "{{secret:password}}"}, FORM, []
    )
    await client.aclose()
    assert decision.actions == [{"kind": "fill", "target": {"index": 1}, "value": "a@b.co"}]
    assert "1 invalid action(s) dropped" in decision.rationale
    sent = llm_server.chat_requests()[0].text
    assert "[1] textbox" in sent and "{{secret:password}}" in sent


async def test_llm_cognition_falls_back_to_rules() -> None:
    settings = LLMSettings(base_url=unreachable_url(), api_key=SecretStr("k"), max_retries=0)
    client = LLMClient(settings)
    decision = await LLMCognition(client).decide("fill", {"email": "a@b.co"}, FORM, [])
    await client.aclose()
    assert decision.decision == "act" and decision.rationale.startswith("LLM_FALLBACK:unreachable")


async def test_llm_cognition_through_tool_calls(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    act = {"actions": [{"kind": "fill", "index": 1, "value": "a@b.co", "summary": None}],
           "confidence": 0.8, "rationale": "email field"}  # fmt: skip
    llm_server.script(Reply.tool("act", act), Reply.tool("answer", {"answer": "filled", "confidence": 0.9}))
    client = LLMClient(llm_settings)
    cognition = LLMCognition(client, use_tools=True)
    first = await cognition.decide("fill", {"email": "a@b.co"}, FORM, [])
    second = await cognition.decide(
        "fill", {"email": "a@b.co"}, FORM, [HistoryEntry(action=first.actions[0])]
    )
    await client.aclose()
    assert first.decision == "act" and first.actions == [
        {"kind": "fill", "target": {"index": 1}, "value": "a@b.co"}
    ]
    assert second.decision == "answer" and second.actions[0]["kind"] == "done"
    request = llm_server.chat_requests()[0].body
    assert request["tool_choice"] == "required"
    assert [t["function"]["name"] for t in request["tools"]] == [
        "act",
        "answer",
        "request_info",
        "reject",
        "noop",
    ]
    assert "response_format" not in request


async def test_invalid_tool_call_is_fed_back(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(
        Reply.tool("click_everything", {}),
        Reply.tool("request_info", {"question": "Which plan?"}),
        Reply.tool("request_info", {"question": "Which plan?", "confidence": 0.4}),
    )
    client = LLMClient(llm_settings)
    decision = await LLMCognition(client, use_tools=True).decide("fill", {}, FORM, [])
    await client.aclose()
    assert decision.decision == "request_info" and decision.question == "Which plan?"
    feedback = [r.body["messages"][-1]["content"] for r in llm_server.chat_requests()[1:]]
    assert "no tool named 'click_everything'" in feedback[0]
    assert "confidence" in feedback[1]
