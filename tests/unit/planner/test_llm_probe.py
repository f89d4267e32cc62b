"""`waypost doctor`'s model probe against the local server: answers, structured mode, images, speed."""

from __future__ import annotations

import threading
from typing import Any

from pydantic import SecretStr

from app.doctor import check_model
from app.settings import Settings
from planner.llm_probe import SPEED_REPLY_TOKENS, probe, redact_url
from planner.llm_settings import LLMSettings
from planner.llm_speed import SpeedSample, advise
from tests.support.llm_server import Reply, ScriptedLLMServer, Speed, unreachable_url


def _answer(body: dict[str, Any]) -> Reply:
    if body.get("response_format"):
        return Reply.json({"ok": True})
    return Reply(content="ok")


async def test_a_capable_server(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    llm_server.responder = _answer
    report = await probe(llm_settings)
    assert report.answers and report.structured_output == "json_schema" and report.images is True
    paths = [r.path for r in llm_server.requests]
    assert all(p.endswith("/chat/completions") for p in paths)  # a real chat request, not /models


async def test_json_object_only_and_no_images(
    llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    def text_only(body: dict[str, Any]) -> Reply:
        if "image_url" in str(body["messages"]):
            return Reply.error(400, "image input is not supported by this model")
        return _answer(body)

    llm_server.reject_json_schema = True
    llm_server.responder = text_only
    report = await probe(llm_settings)
    assert report.answers and report.structured_output == "json_object" and report.images is False


async def test_no_structured_output(llm_server: ScriptedLLMServer, llm_settings: LLMSettings) -> None:
    def prose(body: dict[str, Any]) -> Reply:
        if body.get("response_format"):
            return Reply.error(400, "response_format is not supported")
        return Reply(content="Sure! ok")

    llm_server.responder = prose
    report = await probe(llm_settings)
    assert report.answers and report.structured_output == "none"


async def test_unreachable_endpoint_hides_credentials() -> None:
    url = unreachable_url().replace("http://", "http://bob:hunter2@")
    report = await probe(LLMSettings(base_url=url, api_key=SecretStr("k"), timeout_s=2, max_retries=0))
    assert not report.answers
    assert "hunter2" not in report.endpoint + report.detail and "***@127.0.0.1" in report.endpoint
    assert redact_url("https://api.example.com/v1") == "https://api.example.com/v1"


async def test_doctor_line_names_mode_and_images(llm_server: ScriptedLLMServer) -> None:
    llm_server.responder = _answer
    settings = Settings(
        base_url=llm_server.url.replace("http://", "http://u:secret@"), api_key=SecretStr("k")
    )
    check = await check_model(settings)
    assert check.ok, check.detail
    assert "structured output: json_schema" in check.detail and "accepts images" in check.detail
    assert "secret" not in check.detail


def _counting(body: dict[str, Any]) -> Reply:
    if body.get("stream"):
        return Reply(content=" ".join(str(n) for n in range(1, 41)))
    return _answer(body)


async def test_doctor_measures_speed_and_names_the_deadlines_it_needs(llm_server: ScriptedLLMServer) -> None:
    """A model generating 2 tokens/s: its reply streams a token at a time, so whatever the load on the
    test machine, the measured generation speed is at most 2 tokens/s and a plan needs over 100 s."""
    llm_server.responder = _counting
    llm_server.speed = Speed(prompt_tps=2_000, generation_tps=2.0)
    settings = Settings(base_url=llm_server.url, api_key=SecretStr("k"), llm_timeout_s=60.0)
    check = await check_model(settings)
    assert not check.ok, check.detail
    assert "generation" in check.detail and "a plan needs about" in check.detail
    assert "WAYPOST_PLANNING_DEADLINE_S=" in check.fix or "WAYPOST_PLANNER=rules" in check.fix
    (streamed,) = [r for r in llm_server.chat_requests() if r.body.get("stream")]
    assert streamed.body["max_tokens"] == SPEED_REPLY_TOKENS  # one small request


def test_advice_follows_the_measured_speed() -> None:
    quick = advise(SpeedSample(prompt_tokens=200, completion_tokens=25, first_token_s=0.5, total_s=1.5))
    assert quick.can_plan and quick.planning_deadline_s <= 45
    assert quick.sentences(45.0, 60.0)[1] == []  # the defaults fit: nothing to change
    laptop = advise(SpeedSample(prompt_tokens=200, completion_tokens=25, first_token_s=5.0, total_s=9.8))
    words, fixes = laptop.sentences(45.0, 60.0)
    assert laptop.can_plan and f"WAYPOST_PLANNING_DEADLINE_S={laptop.planning_deadline_s:.0f}" in fixes
    assert f"WAYPOST_MODEL_TIMEOUT_S={laptop.call_timeout_s:.0f}" in fixes  # a summary needs over 60 s
    assert "too short" in words
    crawling = advise(SpeedSample(prompt_tokens=200, completion_tokens=25, first_token_s=20.0, total_s=44.0))
    words, fixes = crawling.sentences(45.0, 60.0)
    assert not crawling.can_plan and "too slow to plan" in words and "the rules" in words


async def test_a_stalled_endpoint_is_called_stalled_not_misconfigured(llm_server: ScriptedLLMServer) -> None:
    held = threading.Event()
    llm_server.script(Reply(content="ok", wait=held))
    try:
        check = await check_model(
            Settings(base_url=llm_server.url, api_key=SecretStr("k"), llm_timeout_s=0.5)
        )
    finally:
        held.set()
    assert not check.ok and "stalled or too slow" in check.detail and "OPENAI_API_KEY" not in check.fix
