"""Navigation policy. Found: a public page could send the browser to a private address (the
person's own machine or network). Here a made-up public name, public.test, is mapped to 127.0.0.1
for this module's Chromium only, so a page can be "public" while the fixture site serves it."""

from __future__ import annotations

import pytest

from browser.network_policy import PrivateNetworkGuard, for_task, is_private_host
from browser.options import BrowserPolicy
from planner.models import ExecutionPlan
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.public_web import OPEN_GATE, public_url
from tests.support.site import FixtureSite


def _reached(site: FixtureSite) -> bool:
    return any("reached=private" in g for g in site.get_requests())


def _plan(site: FixtureSite, *, also: str | None = None) -> ExecutionPlan:
    click = [{"kind": "click", "target": {"role": "link", "name": "Router settings"}}]
    steps = [{"step_id": "a1", "type": "ACT", "inputs": {"url": public_url(site, "/hostile/to_private.html"),
                                                          "actions": click}}]  # fmt: skip
    if also is not None:  # a second step: the task itself names a private address
        steps.append({"step_id": "a2", "type": "ACT",
                      "inputs": {"actions": [{"kind": "navigate", "url": also}]}})  # fmt: skip
    return act_plan(steps, gates=OPEN_GATE)


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_public_page_cannot_send_the_browser_to_a_private_address(
    harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    bundle = await harness.run(_plan(site), confirm=Answer())
    (click,) = [r for r in harness.actions(bundle) if r.action["kind"] == "click"]
    assert click.outcome.status == "blocked" and "private address" in click.outcome.message
    assert not _reached(site)


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_task_that_names_a_private_address_may_reach_it(
    harness: ActHarness, site: FixtureSite
) -> None:
    bundle = await harness.run(_plan(site, also=site.url("/index.html")), confirm=Answer())
    (click,) = [r for r in harness.actions(bundle) if r.action["kind"] == "click"]
    assert click.outcome.status == "ok", click.outcome.message
    assert _reached(site)


@pytest.mark.parametrize(
    "host", ["127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "::1",
             "[::1]", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "localhost", "app.localhost", "0.0.0.0"],
)  # fmt: skip
def test_private_hosts(host: str) -> None:
    assert is_private_host(host)


@pytest.mark.parametrize("host", ["8.8.8.8", "172.32.0.1", "example.org", "2001:db8::1", "11.0.0.1"])
def test_public_hosts(host: str) -> None:
    assert not is_private_host(host)


def test_the_guard_refuses_private_after_a_public_page_only() -> None:
    guard = PrivateNetworkGuard()
    assert guard.refusal("http://127.0.0.1/x") is None  # a local page to a local page
    assert guard.refusal("http://10.0.0.1/", from_url="https://example.org/") is not None
    guard.passed("https://example.org/", navigation=True)
    assert "private address" in (guard.refusal("http://192.168.0.1/admin", from_url="") or "")
    assert guard.refusal("https://example.com/", from_url="https://example.org/") is None
    trusting = PrivateNetworkGuard(allow_private=True)
    assert trusting.refusal("http://10.0.0.1/", from_url="https://a.org/") is None


def test_only_a_task_naming_a_private_address_opens_them() -> None:
    assert not for_task(BrowserPolicy(), ["https://example.org/"]).private_network
    assert for_task(BrowserPolicy(), ["https://example.org/", "http://192.168.1.1/"]).private_network
