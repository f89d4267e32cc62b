"""The model path under a local model's habits (docs/architecture.md, "Slow models"): every call
bounded by max_tokens, a reply that repeats itself or is cut off or refuses is no answer and is not
sent back, a timed-out request is never re-sent unchanged and is counted, and a step the model
cannot decide goes back to the rules. The real openai client against the scripted local server."""

from __future__ import annotations

import json
import threading

import pytest
from pydantic import BaseModel

from planner import model_time
from planner.cognition import rule_decide
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMOutputInvalid, LLMSettings, LLMUnavailable
from planner.metering import metered
from planner.repetition import repeats_itself
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.unit.planner.test_cognition import FORM


class Verdict(BaseModel):
    verdict: str
    rationale: str


MESSAGES = [{"role": "user", "content": "judge this"}]
LOOP = "I will fill the name field now. " * 12


async def _ask(settings: LLMSettings, client: LLMClient | None = None) -> Verdict:
    own = client is None
    client = client or LLMClient(settings)
    try:
        return await client.complete_json(MESSAGES, Verdict, purpose="t", schema_name="v", max_tokens=77)
    finally:
        if own:
            await client.aclose()


async def test_every_call_sends_max_tokens(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.json({"verdict": "ok", "rationale": "fine"}), Reply(content="ok"))
    client = LLMClient(llm_settings)
    try:
        await _ask(llm_settings, client)
        await client.chat(MESSAGES, purpose="t", max_tokens=8)
    finally:
        await client.aclose()
    assert [r.body["max_tokens"] for r in llm_server.chat_requests()] == [77, 8]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (Reply(content='{"verdict": "ok", "rationale": "' + LOOP), "repetitive"),
        (Reply.json({"verdict": "ok", "rationale": LOOP}), "repetitive"),
        (Reply(content='{"verdict": "ok", "rationale": "a long', finish_reason="length"), "cut_off"),
        (Reply(content="I'm sorry, but I can't help with that request."), "refused"),
        (Reply(content="", refusal="This request is not something I can do."), "refused"),
    ],
    ids=["loop-cut-off", "loop-closed", "cut-off", "refusal-prose", "refusal-field"],
)
async def test_no_answer_is_named_and_never_sent_back_for_repair(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings, reply: Reply, reason: str
) -> None:
    llm_server.script(reply, Reply.json({"verdict": "ok", "rationale": "fine"}))
    with pytest.raises(LLMOutputInvalid) as info:
        await _ask(llm_settings)
    assert info.value.reason == reason
    assert len(llm_server.chat_requests()) == 1  # no repair round for a loop, a cut-off or a refusal


async def test_a_timed_out_call_is_counted_and_never_sent_again_unchanged(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    held = threading.Event()
    llm_server.script(*[Reply(content="{}", wait=held) for _ in range(4)])
    settings = llm_settings.model_copy(update={"timeout_s": 0.5, "max_retries": 2})
    client = LLMClient(settings)
    try:
        with metered() as meter:
            with pytest.raises(LLMUnavailable) as first:
                await _ask(settings, client)
            assert len(llm_server.chat_requests()) == 1  # the client's own retries never re-send it
            with pytest.raises(LLMUnavailable) as again:
                await _ask(settings, client)
    finally:
        held.set()
        await client.aclose()
    assert first.value.reason == again.value.reason == "timeout"
    assert len(llm_server.chat_requests()) == 1  # the same request is not sent a second time
    assert meter.usage.calls == 1 and meter.usage.estimated_calls == 1 and meter.usage.tokens_in > 0


async def test_the_model_time_scope_cuts_a_call_and_sends_nothing_once_spent(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    held = threading.Event()
    llm_server.script(Reply(content="{}", wait=held))
    client = LLMClient(llm_settings)  # per call: 5 s
    try:
        with model_time.limited(model_time.within(0.5)), pytest.raises(LLMUnavailable) as cut:
            await _ask(llm_settings, client)
        with model_time.limited(lambda: 0.0), pytest.raises(LLMUnavailable) as spent:
            await _ask(llm_settings, client)
    finally:
        held.set()
        await client.aclose()
    assert cut.value.reason == spent.value.reason == "model_time"
    assert len(llm_server.chat_requests()) == 1


def _draft(decision: str, confidence: float, actions: list[dict[str, object]] | None = None) -> Reply:
    return Reply.json(
        {"decision": decision, "actions": actions or [], "confidence": confidence, "rationale": "r",
         "question": None, "answer": None}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (_draft("noop", 0.0), "noop"),
        (
            _draft("act", 0.2, [{"kind": "fill", "index": 0, "value": "Ada", "summary": None}]),
            "low_confidence",
        ),
        (
            _draft("act", 0.9, [{"kind": "click", "index": 99, "value": None, "summary": None}]),
            "invalid_actions",
        ),
        (Reply(content="I cannot help with this."), "refused"),
        (Reply(content=json.dumps({"decision": "act", "rationale": LOOP})[:-2]), "repetitive"),
    ],
    ids=["noop", "low-confidence", "invalid-actions", "refused", "repetitive"],
)
async def test_a_step_the_model_cannot_decide_goes_back_to_the_rules(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings, reply: Reply, reason: str
) -> None:
    llm_server.script(reply)
    payload = {"name": "Ada Lovelace", "email": "ada@example.com"}
    client = LLMClient(llm_settings)
    try:
        decision = await LLMCognition(client).decide("fill the signup form", payload, FORM, [])
    finally:
        await client.aclose()
    rules = rule_decide("fill the signup form", payload, FORM, [])
    assert decision.rationale == f"LLM_FALLBACK:{reason}; {rules.rationale}"
    assert decision.actions == rules.actions and decision.decision == rules.decision == "act"
    assert len(llm_server.chat_requests()) == 1


def test_repetition_is_a_loop_not_json_shapes() -> None:
    assert repeats_itself('{"rationale": "' + LOOP[:-9])
    assert repeats_itself('{"actions": [' + '{"kind": "click", "index": 3}, ' * 6 + '{"kind": "cl')
    plan: dict[str, list[dict[str, object]]] = {
        "steps": [
            {"step_id": f"s{i}", "type": "ACT", "url": None, "goal": None, "payload": []} for i in range(5)
        ]
    }
    assert not repeats_itself(json.dumps(plan)) and not repeats_itself(json.dumps(plan, indent=1))
    assert not repeats_itself('{"rationale": "Fill the name. Fill the email. Then stop."}')
