"""Echoes of a secret a plain search does not find. Found: a zero-width-split echo of the secret was
readable in the final screenshot; with model pictures on, a page shown after signing in that displays
the secret went to the model as a picture; and base64("ada:" + secret), zero-width-split, line-split
and reversed echoes reached the model as text. Now one redactor knows those forms, screenshots are
masked by the page's text after invisible characters are dropped, and no picture of a page goes to a
model once a secret was typed."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from playwright.async_api import Browser
from PySide6.QtGui import QImage

from browser.driver import PlaywrightDriver
from browser.models import FillAction, NavigateAction, OutcomeStatus, Target
from browser.thumbnail import driver_thumbnail
from common.secrecy import SecretVault
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.security.test_secret_sweep import masked
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.run_end import final_picture
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SECRET = "Zq7-horse-PASS-91x"
ECHOES = {
    "basic": base64.b64encode(f"ada:{SECRET}".encode()).decode(),
    "zero-width": "\u200d".join(SECRET),
    "line-split": SECRET[:6] + "\n" + SECRET[6:],
    "reversed": SECRET[::-1],
}
#: Where the page shown after signing in displays the secret (fixtures/site/hostile/echo_welcome.html).
WELCOME_BOX = (20, 350, 600, 32)


def sign_in(body: dict[str, Any]) -> Reply:
    """Types the password, presses Sign in, then says it is done."""
    page = page_of(body)
    history = page.split("Page:")[0]
    if "Welcome back" in page:
        return done("signed in")
    if "'kind': 'fill'" in history:
        return act({"kind": "click", "index": index_of(page, "Sign in")}, confidence=0.99)
    return act({"kind": "fill", "index": index_of(page, "Password"), "value": "{{secret:pw}}"})


def _pictured(body: dict[str, Any]) -> bool:
    return any(
        isinstance(m.get("content"), list) and any(p.get("type") == "image_url" for p in m["content"])
        for m in body["messages"]
    )


async def test_echoes_reach_neither_the_model_nor_a_picture(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    act_harness.secrets = {"pw": SECRET}
    llm_server.responder = sign_in
    cognition = LLMCognition(LLMClient(llm_settings.model_copy(update={"images": True})))
    inputs = {"url": site.url("/hostile/echo_forms.html"), "goal": "Sign in", "payload": {}}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}],
                    gates=[{"gate_id": "g", "kind": "login", "blocked_actions": []}])  # fmt: skip
    bundle = await act_harness.run(plan, confirm=Answer(), cognition=cognition)
    requests = llm_server.chat_requests()
    assert len(requests) >= 3, bundle.reason
    for request in requests:
        sent = request.raw.decode("utf-8", "replace") + request.text
        found = [
            name
            for name, form in ECHOES.items()
            if form in sent or form.encode("unicode_escape").decode() in sent
        ]
        assert found == [], found
    assert not any(_pictured(r.body) for r in requests)  # the welcome page was never pictured
    final = QImage(str(final_picture(act_harness.runs_dir / bundle.run_id)))
    assert final.height() > WELCOME_BOX[1] and masked(final, WELCOME_BOX)


async def test_no_page_picture_goes_to_a_model_once_a_secret_was_typed(
    chromium: Browser, site: FixtureSite
) -> None:
    """Not even of a page whose text shows nothing: it may show the secret as pixels (a canvas)."""
    driver = await PlaywrightDriver.on_browser(chromium, secrets=SecretVault({"pw": SECRET}))
    try:
        await driver.perform(NavigateAction(url=site.url("/index.html")))
        assert await driver_thumbnail(driver) is not None  # pictures work before
        await driver.perform(NavigateAction(url=site.url("/hostile/echo_forms.html")))
        fill = await driver.perform(FillAction(target=Target(label="Password"), value="{{secret:pw}}"))
        assert fill.status is OutcomeStatus.OK, fill.message
        await driver.perform(NavigateAction(url=site.url("/index.html")))
        assert await driver_thumbnail(driver) is None
    finally:
        await driver.close()
