""" "Don't submit" covers a page's workers. Found: under no_submit a page posted the typed value to its
dedicated worker (a script URL, a blob: URL, or a worker's own worker), which sent it over its own
WebSocket; Playwright routes only the page's sockets, so nothing saw it. Now every worker is paused
before a value is typed, the worker's attempt to run is a guard event, and nothing reaches the
server; without no_submit it works. Shared workers and workers started after typing likewise."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Browser

from browser.driver import PlaywrightDriver
from browser.models import FillAction, NavigateAction, OutcomeStatus, Target
from browser.options import BrowserPolicy
from browser.worker_guard import HELD, LATE, LATE_HELD, UNCHECKED
from tests.security.exfil import EMAIL, FORMS
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite
from tests.support.ws_server import SocketServer

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def _open(
    chromium: Browser, site: FixtureSite, server: SocketServer, worker: str, policy: BrowserPolicy
) -> PlaywrightDriver:
    driver = await PlaywrightDriver.on_browser(chromium, policy=policy)
    url = site.url(f"/hostile/worker_socket.html?worker={worker}&ws={server.url}")
    await driver.perform(NavigateAction(url=url))
    assert await asyncio.to_thread(server.wait_for, 1)  # the worker's greeting: its socket is open
    return driver


@pytest.mark.parametrize("worker", ["url", "blob", "nested"])
async def test_a_worker_cannot_send_a_typed_value_under_no_submit(
    chromium: Browser, site: FixtureSite, sockets: SocketServer, worker: str
) -> None:
    driver = await _open(chromium, site, sockets, worker, BrowserPolicy(no_submit=True))
    try:
        workers = driver.session.workers
        fill = await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
        assert fill.status in {OutcomeStatus.OK, OutcomeStatus.BLOCKED}, fill.message
        await asyncio.wait_for(workers.reported.wait(), 15)  # the worker woke up for the value: held
        held = [e for e in driver.guard_events if e.detail == HELD]
        assert len(held) == 1 and held[0].kind == "submit"
        assert held[0].url.endswith(("/socket_worker.js", "/relay_worker.js")) or held[0].url.startswith(
            "blob:"
        )
        assert sockets.messages == [b"hello"]  # paused before its handler ran: nothing else was sent
        assert not any(form in m for m in sockets.messages for form in FORMS)
        assert await driver.session.page.evaluate("1 + 1") == 2  # the page itself still runs
    finally:
        await driver.close()
    assert not any(form in m for m in sockets.messages for form in FORMS)


@pytest.mark.parametrize("worker", ["url", "blob", "nested"])
async def test_without_no_submit_the_worker_socket_carries_everything(
    chromium: Browser, site: FixtureSite, sockets: SocketServer, worker: str
) -> None:
    driver = await _open(chromium, site, sockets, worker, BrowserPolicy())
    try:
        fill = await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
        assert fill.status is OutcomeStatus.OK, fill.message
        assert await asyncio.to_thread(sockets.wait_for, 3)
        assert sockets.messages[1:3] == FORMS
        assert not [e for e in driver.guard_events if "worker" in e.detail]
    finally:
        await driver.close()


async def _type_on_late_page(driver: PlaywrightDriver, site: FixtureSite, worker: str, ws: str) -> None:
    await driver.perform(NavigateAction(url=site.url(f"/hostile/worker_late.html?worker={worker}&ws={ws}")))
    await driver.session.page.wait_for_function("document.getElementById('status').textContent === 'ready'")
    await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
    await asyncio.wait_for(driver.session.workers.reported.wait(), 15)


async def test_a_url_worker_started_after_typing_is_stopped_before_its_script_runs(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    """The page starts its worker only once a value is typed: it is attached when the browser creates
    it, and its script request waits in the route until the pause is sent, so it never runs. (A gate
    that blocks submitting: under the task's no_submit the quarantine refuses the script itself.)"""
    driver = await PlaywrightDriver.on_browser(chromium, policy=BrowserPolicy(blocked_actions=["submit"]))
    try:
        await _type_on_late_page(driver, site, "url", sockets.url)
        late = [e for e in driver.guard_events if e.detail == LATE_HELD]
        assert len(late) == 1 and late[0].kind == "submit" and late[0].url.endswith("/hostile/late_worker.js")
        assert sockets.connections == 0 and sockets.messages == []
        assert await driver.session.page.inner_text("#status") == "ready"  # it never ran, so never sent
    finally:
        await driver.close()
    assert sockets.connections == 0


@pytest.mark.parametrize("worker", ["blob", "data"])
async def test_a_blob_worker_started_after_typing_is_reported_as_unchecked(
    chromium: Browser, site: FixtureSite, sockets: SocketServer, worker: str
) -> None:
    """A blob: worker has no request to hold: it usually runs before the pause arrives. Whether or
    not its message got out, the run says it could not be checked (never "nothing was sent")."""
    driver = await PlaywrightDriver.on_browser(chromium, policy=BrowserPolicy(no_submit=True))
    try:
        await _type_on_late_page(driver, site, worker, sockets.url)
        late = [e for e in driver.guard_events if e.detail == LATE]
        assert len(late) == 1 and late[0].kind == "submit"
        assert late[0].url.startswith("blob:") or late[0].url == "data:text/javascript,…"  # not the script
        assert UNCHECKED in late[0].detail
    finally:
        await driver.close()


async def test_without_no_submit_a_late_worker_sends(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    driver = await PlaywrightDriver.on_browser(chromium, policy=BrowserPolicy())
    try:
        url = site.url(f"/hostile/worker_late.html?worker=url&ws={sockets.url}")
        await driver.perform(NavigateAction(url=url))
        await driver.session.page.wait_for_function(
            "document.getElementById('status').textContent === 'ready'"
        )
        await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
        assert await asyncio.to_thread(sockets.wait_for, 1)
        assert sockets.messages == [EMAIL.encode()]
    finally:
        await driver.close()


async def test_a_shared_worker_cannot_send_a_typed_value_under_no_submit(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    """A shared worker's socket and its fetch pass neither of Playwright's routes."""
    driver = await PlaywrightDriver.on_browser(chromium, policy=BrowserPolicy(no_submit=True))
    try:
        await driver.perform(NavigateAction(url=site.url(f"/hostile/shared_worker.html?ws={sockets.url}")))
        assert await asyncio.to_thread(sockets.wait_for, 1)  # the shared worker's socket is open
        mark = len(site.get_requests())
        await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
        await asyncio.wait_for(driver.session.workers.reported.wait(), 15)
        held = [e for e in driver.guard_events if e.detail == HELD]
        assert len(held) == 1 and held[0].url.endswith("/hostile/shared_socket_worker.js")
        assert sockets.messages == [b"hello"]
        assert not [g for g in site.get_requests()[mark:] if g.startswith("/shared-leak")]
    finally:
        await driver.close()


async def test_without_no_submit_a_shared_worker_sends(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    driver = await PlaywrightDriver.on_browser(chromium, policy=BrowserPolicy())
    try:
        await driver.perform(NavigateAction(url=site.url(f"/hostile/shared_worker.html?ws={sockets.url}")))
        assert await asyncio.to_thread(sockets.wait_for, 1)
        await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
        assert await asyncio.to_thread(sockets.wait_for, 2)
        assert EMAIL.encode() in sockets.messages
        assert await asyncio.to_thread(site.wait_for_get, "/shared-leak?v=ada.lovelace.7731", 30)
    finally:
        await driver.close()


async def test_the_answer_never_says_not_submitted_after_an_unchecked_worker(
    act_harness: ActHarness, site: FixtureSite, sockets: SocketServer
) -> None:
    """A run under no_submit on the late-worker page: the step's answer must not claim the form was
    not submitted, since a worker may have carried the value out; it says why instead."""
    actions = [{"kind": "fill", "target": {"label": "Email"}, "value": EMAIL}]
    inputs = {"url": site.url(f"/hostile/worker_late.html?worker=blob&ws={sockets.url}"), "actions": actions}
    gates = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": ["submit"]}]
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=gates, no_submit=True)
    bundle = await act_harness.run(plan, confirm=Answer())
    answer = bundle.final_answer or ""
    assert "NOT submitted" not in answer, answer
    assert UNCHECKED in answer, answer


async def test_a_later_step_that_allows_submitting_resumes_the_held_workers(
    chromium: Browser, site: FixtureSite, sockets: SocketServer
) -> None:
    """Held workers are not killed: when a later step's gate allows submitting (the person approved
    sending), the page's worker runs again, and what the page posted it goes out then. The task's own
    no_submit is never lifted: its quarantine lasts through the run's end (test_quarantine.py)."""
    driver = await _open(chromium, site, sockets, "url", BrowserPolicy(blocked_actions=["submit"]))
    try:
        await driver.perform(FillAction(target=Target(label="Email"), value=EMAIL))
        await asyncio.wait_for(driver.session.workers.reported.wait(), 15)
        assert sockets.messages == [b"hello"]
        await driver.session.set_policy(BrowserPolicy())
        assert await asyncio.to_thread(sockets.wait_for, 3)
        assert sockets.messages[1:3] == FORMS
    finally:
        await driver.close()
