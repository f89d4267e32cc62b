""" "Don't submit" covers WebSockets. Found: under no_submit a page streamed the typed value out
through a WebSocket, which the request route never sees. Now each such message is dropped and
reported as a guard event, while the socket keeps working for everything else."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Browser

from browser.driver import PlaywrightDriver
from browser.models import FillAction, NavigateAction, OutcomeStatus, Target
from browser.options import BrowserPolicy
from tests.security.exfil import EMAIL, FORMS
from tests.support.site import FixtureSite
from tests.support.ws_server import SocketServer

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def _type_the_email(
    chromium: Browser, site: FixtureSite, server: SocketServer, policy: BrowserPolicy
) -> PlaywrightDriver:
    driver = await PlaywrightDriver.on_browser(chromium, policy=policy)
    await driver.perform(NavigateAction(url=site.url("/hostile/socket.html?ws=" + server.url)))
    assert await asyncio.to_thread(server.wait_for, 1)  # the greeting: the routed socket passes messages
    fill = await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
    assert fill.status in {OutcomeStatus.OK, OutcomeStatus.BLOCKED}, fill.message
    return driver


async def test_a_websocket_message_carrying_a_typed_value_is_blocked(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    # A gate that blocks submitting, without the task's no_submit: the scan by content is what holds
    # (under no_submit the page's network is quarantined instead: tests/security/test_quarantine.py).
    gated = BrowserPolicy(blocked_actions=["submit"])
    driver = await _type_the_email(chromium, site, sockets, gated)
    try:
        await driver.perform(FillAction(target=Target(label="Email"), value="x"))  # too short to match
        assert await asyncio.to_thread(sockets.wait_for, 5)  # "hello", then four for "x" (none blocked)
        events = [e for e in driver.guard_events if "WebSocket message" in e.detail]
        assert len(events) == 4 and all(e.kind == "submit" and "typed value" in e.detail for e in events)
        opened = [e for e in driver.guard_events if "WebSocket connection" in e.detail]
        assert len(opened) == 1
        assert not any("7731" in path for path in sockets.paths)
        assert not any(form in m for m in sockets.messages for form in FORMS)
        assert sockets.messages[0] == b"hello"
        assert sockets.messages[1] == b"x"
        page_text = await driver.session.page.inner_text("#echoes")
        assert "echo:hello" in page_text  # server messages still reach the page
    finally:
        await driver.close()


async def test_without_no_submit_the_socket_carries_everything(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    driver = await _type_the_email(chromium, site, sockets, BrowserPolicy())
    try:
        assert await asyncio.to_thread(sockets.wait_for, 5)
        assert sockets.messages[1] == EMAIL.encode()
        assert not [e for e in driver.guard_events if "WebSocket" in e.detail]
    finally:
        await driver.close()
