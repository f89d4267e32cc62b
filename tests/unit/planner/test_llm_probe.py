"""`waypost doctor`'s model probe against the local server: answers, structured mode, images."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr

from app.doctor import check_model
from app.settings import Settings
from planner.llm import LLMSettings
from planner.llm_probe import probe, redact_url
from tests.support.llm_server import Reply, ScriptedLLMServer, unreachable_url


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
