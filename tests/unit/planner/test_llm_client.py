"""LLMClient against the local OpenAI-compatible server, through the real openai client."""

from __future__ import annotations

import json
import threading

import pytest
from pydantic import BaseModel, SecretStr

from planner.llm import LLMClient
from planner.llm_format import parse_json_object, strict_schema
from planner.llm_settings import LLMOutputInvalid, LLMSettings, LLMUnavailable
from planner.metering import metered
from tests.support.llm_server import Reply, ScriptedLLMServer, unreachable_url


class Answer(BaseModel):
    verdict: str
    score: int
    note: str | None = None


GOOD = {"verdict": "ok", "score": 3, "note": None}
MESSAGES = [{"role": "user", "content": "judge this"}]


async def _ask(settings: LLMSettings) -> tuple[Answer, LLMClient]:
    client = LLMClient(settings)
    try:
        answer = await client.complete_json(
            MESSAGES, Answer, purpose="test", schema_name="answer", max_tokens=64
        )
        return answer, client
    finally:
        await client.aclose()


def test_strict_schema_closes_every_object() -> None:
    schema = strict_schema(Answer)
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["verdict", "score", "note"]
    assert "default" not in json.dumps(schema)


def test_parse_json_object_accepts_a_fence_and_refuses_lists() -> None:
    assert parse_json_object('```json\n{"a": 1}\n```') == {"a": 1}
    with pytest.raises(ValueError, match="JSON object"):
        parse_json_object("[1, 2]")


async def test_json_schema_path(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.json(GOOD, usage=(30, 9)))
    with metered() as meter:
        answer, _ = await _ask(llm_settings)
    assert answer == Answer(**GOOD)
    (request,) = llm_server.chat_requests()
    fmt = request.body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"]["required"] == ["verdict", "score", "note"]
    assert request.body["model"] == "test-model"
    assert request.headers.get("authorization") == "Bearer test-key"
    assert (meter.usage.calls, meter.usage.tokens_in, meter.usage.tokens_out) == (1, 30, 9)


async def test_falls_back_to_json_object(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.reject_json_schema = True
    llm_server.script(Reply.json(GOOD), Reply.json(GOOD))
    client = LLMClient(llm_settings)
    await client.complete_json(MESSAGES, Answer, purpose="t", schema_name="answer", max_tokens=64)
    await client.complete_json(MESSAGES, Answer, purpose="t", schema_name="answer", max_tokens=64)
    await client.aclose()
    formats = [r.response_format for r in llm_server.chat_requests()]
    assert formats == ["json_schema", "json_object", "json_object"]  # remembered after the first refusal
    hint = llm_server.chat_requests()[1].body["messages"][0]
    assert hint["role"] == "system" and '"verdict"' in hint["content"]
    assert client.format == "json_object"


async def test_malformed_json_is_fed_back_then_accepted(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(Reply(content='{"verdict": "ok", score: 3'), Reply.json(GOOD))
    answer, _ = await _ask(llm_settings)
    assert answer.score == 3
    second = llm_server.chat_requests()[1].body["messages"]
    assert second[-2] == {"role": "assistant", "content": '{"verdict": "ok", score: 3'}
    assert "not a JSON object" in second[-1]["content"]
    assert len(llm_server.chat_requests()) == 2


async def test_schema_invalid_is_fed_back(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.json({"verdict": "ok", "score": "many"}), Reply.json(GOOD))
    await _ask(llm_settings)
    feedback = llm_server.chat_requests()[1].body["messages"][-1]["content"]
    assert "does not match the schema" in feedback and "score" in feedback


async def test_always_malformed_gives_up_after_the_repair_budget(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(*[Reply(content="nope") for _ in range(5)])
    with pytest.raises(LLMOutputInvalid) as info:
        await _ask(llm_settings)
    assert info.value.reason == "invalid_json"
    assert len(llm_server.chat_requests()) == llm_settings.max_repairs + 1


async def test_429_then_success(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(Reply.error(429, "rate limited", "rate_limit_exceeded"), Reply.json(GOOD))
    answer, _ = await _ask(llm_settings)
    assert answer.verdict == "ok"
    retries = [r.headers.get("x-stainless-retry-count") for r in llm_server.chat_requests()]
    assert retries == ["0", "1"]


async def test_500_until_retries_run_out(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.script(*[Reply.error(500, "boom", "server_error") for _ in range(5)])
    with pytest.raises(LLMUnavailable) as info:
        await _ask(llm_settings)
    assert info.value.reason == "server_error"
    assert len(llm_server.chat_requests()) == llm_settings.max_retries + 1


async def test_slow_answer_times_out(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    release = threading.Event()
    llm_server.script(Reply(content=json.dumps(GOOD), wait=release))
    settings = llm_settings.model_copy(update={"timeout_s": 0.3, "max_retries": 0})
    try:
        with pytest.raises(LLMUnavailable) as info:
            await _ask(settings)
    finally:
        release.set()
    assert info.value.reason == "timeout"


async def test_unreachable_endpoint() -> None:
    settings = LLMSettings(base_url=unreachable_url(), api_key=SecretStr("k"), max_retries=0)
    with pytest.raises(LLMUnavailable) as info:
        await _ask(settings)
    assert info.value.reason == "unreachable"


async def test_bad_request_that_is_not_about_the_format(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(Reply.error(400, "context length exceeded"))
    with pytest.raises(LLMUnavailable) as info:
        await _ask(llm_settings)
    assert info.value.reason == "bad_request"
    assert len(llm_server.chat_requests()) == 1


def test_settings_without_key_or_url_are_not_configured() -> None:
    assert not LLMSettings().configured
    assert LLMSettings(base_url="http://127.0.0.1:1/v1").configured
    assert "sk-x" not in repr(LLMSettings(api_key=SecretStr("sk-x")))


async def test_body_that_is_not_json_is_unavailable(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(Reply(raw_body="{oops"))
    settings = llm_settings.model_copy(update={"max_retries": 0})
    with pytest.raises(LLMUnavailable) as info:
        await _ask(settings)
    assert info.value.reason == "malformed_response"


async def test_completion_without_choices_counts_as_invalid_output(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(Reply(raw_body='{"id": "x"}'), Reply.json(GOOD))
    answer, _ = await _ask(llm_settings)
    assert answer.verdict == "ok" and len(llm_server.chat_requests()) == 2


def test_settings_from_env() -> None:
    env = {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": "http://127.0.0.1:1234/v1",
        "WAYPOST_MODEL": "qwen",
    }
    settings = LLMSettings.from_env(env)
    assert settings.configured and settings.model == "qwen" and settings.base_url == env["OPENAI_BASE_URL"]
    assert not LLMSettings.from_env({}).configured


async def test_list_models(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.model_ids = ["test-model", "other"]
    client = LLMClient(llm_settings)
    try:
        assert await client.list_models() == ["test-model", "other"]
    finally:
        await client.aclose()
    unreachable = LLMClient(llm_settings.model_copy(update={"base_url": unreachable_url(), "max_retries": 0}))
    with pytest.raises(LLMUnavailable) as info:
        await unreachable.list_models()
    await unreachable.aclose()
    assert info.value.reason == "unreachable"
