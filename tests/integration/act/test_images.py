"""Opt-in page pictures: a downscaled JPEG beside the text, never of a page with a secret field."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from executor.models import RunStatus
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.integration.act.test_model import done
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.llm_server import ScriptedLLMServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a baseline or progressive JPEG's frame header."""
    i = 2
    while i < len(data):
        marker, length = data[i + 1], int.from_bytes(data[i + 2 : i + 4], "big")
        if marker in (0xC0, 0xC2):
            return int.from_bytes(data[i + 7 : i + 9], "big"), int.from_bytes(data[i + 5 : i + 7], "big")
        i += 2 + length
    raise AssertionError("no frame header")


def _user_content(body: dict[str, Any]) -> Any:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


async def _run(harness: ActHarness, site: FixtureSite, settings: LLMSettings, page: str) -> Any:
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url(page), "goal": "Look"}}])
    client = LLMClient(settings)
    try:
        return await harness.run(plan, confirm=Answer(), cognition=LLMCognition(client))
    finally:
        await client.aclose()


async def test_picture_is_downscaled_and_its_tokens_counted(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    reply = done("looked")
    reply.usage = (1234, 10)  # the server counts the image in the prompt
    llm_server.script(reply)
    bundle = await _run(
        act_harness, site, llm_settings.model_copy(update={"images": True}), "/injection.html"
    )
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    text, image = _user_content(llm_server.chat_requests()[0].body)
    assert text["type"] == "text" and "Page:" in text["text"]
    url = image["image_url"]["url"]
    assert url.startswith("data:image/jpeg;base64,")
    width, height = _jpeg_size(base64.b64decode(url.split(",", 1)[1]))
    assert width <= 640 and height > 0
    assert bundle.budget_used.token_est_used == 1244


async def test_no_picture_of_a_page_with_a_password_field_or_when_not_asked(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.script(done("looked"), done("looked"))
    await _run(act_harness, site, llm_settings.model_copy(update={"images": True}), "/signup.html")
    await _run(act_harness, site, llm_settings, "/injection.html")
    for request in llm_server.chat_requests():
        assert isinstance(_user_content(request.body), str)  # text only
