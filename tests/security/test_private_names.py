"""Navigation policy, names. Found: a public host *name* that resolves to a private address was
never looked up (the route judges hosts as written), so a public page could send the browser there.

Chromium judges the resolved address itself (browser/local_network.py). Here a second fixture site
plays the public web: Chromium is told its port on 127.0.0.1 is a public address
(--ip-address-space-overrides, Chromium's switch for testing this check), and the made-up names
public.test and router.test resolve to 127.0.0.1, where the ordinary fixture site (loopback, so
private) answers for router.test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from browser.launch import chromium_args
from browser.local_network import FEATURE, with_checks
from browser.options import BrowserPolicy, LaunchOptions
from browser.session import BrowserSession
from tests.support.act_harness import ActHarness, Answer, act_plan, harness_on
from tests.support.chromium import chromium_with
from tests.support.public_web import OPEN_GATE
from tests.support.site import FixtureSite

RULES = "--host-resolver-rules=MAP public.test 127.0.0.1, MAP router.test 127.0.0.1"


@pytest.fixture(scope="module")
def public_site() -> Iterator[FixtureSite]:
    with FixtureSite() as running:
        yield running


def _public_args(public_site: FixtureSite) -> list[str]:
    port = urlsplit(public_site.url("/")).port
    return [RULES, f"--ip-address-space-overrides=127.0.0.1:{port}=public"]


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def public_web(public_site: FixtureSite) -> AsyncIterator[Browser]:
    async with chromium_with(_public_args(public_site)) as browser:
        yield browser


@pytest.fixture
def harness(public_web: Browser, tmp_path: Path) -> ActHarness:
    return harness_on(public_web, tmp_path)


def _start(public_site: FixtureSite, link: str) -> str:
    """A public page whose "Router settings" link goes to `link`."""
    page = public_site.url("/hostile/to_redirect.html").replace("127.0.0.1", "public.test")
    return f"{page}?to={quote(link, safe='')}"


def _router(site: FixtureSite, mark: str) -> str:
    return site.url(f"/prices.html?reached={mark}").replace("127.0.0.1", "router.test")


def _reached(site: FixtureSite, mark: str) -> bool:
    return any(f"reached={mark}" in g for g in site.get_requests())


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("via_redirect", [False, True])
async def test_a_public_name_that_resolves_to_a_private_address_is_refused(
    harness: ActHarness, site: FixtureSite, public_site: FixtureSite, via_redirect: bool
) -> None:
    """A link to router.test, and a link to a public server that redirects to router.test."""
    mark = f"name-{via_redirect}"
    link = _router(site, mark)
    if via_redirect:
        redirect = public_site.url("/redirect").replace("127.0.0.1", "public.test")
        link = f"{redirect}?to={quote(link, safe='')}"
    click = [{"kind": "click", "target": {"role": "link", "name": "Router settings"}}]
    steps = [{"step_id": "a1", "type": "ACT", "inputs": {"url": _start(public_site, link), "actions": click}}]
    bundle = await harness.run(act_plan(steps, gates=OPEN_GATE), confirm=Answer())
    (record,) = [r for r in harness.actions(bundle) if r.action["kind"] == "click"]
    assert record.outcome.status == "blocked", record.outcome.message
    assert "refused router.test: a private address as resolved" in record.outcome.message
    assert not _reached(site, mark)


@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="session")
async def test_a_task_that_names_a_private_address_is_launched_without_the_check(
    site: FixtureSite, public_site: FixtureSite
) -> None:
    """Chromium's check cannot be lifted per page for a plain-http public page, so such a run's
    browser is launched without it (the route's rule is off for it too)."""
    options = LaunchOptions(extra_args=_public_args(public_site))
    session = await BrowserSession.launch(options, policy=BrowserPolicy(private_network=True))
    try:
        await session.page.goto(_start(public_site, _router(site, "named")))
        async with session.page.expect_navigation():
            await session.page.get_by_role("link", name="Router settings").click()
    finally:
        await session.close()
    assert _reached(site, "named") and not session.guard_events


def test_the_check_joins_the_one_features_flag() -> None:
    assert with_checks(["--mute-audio"]) == ["--mute-audio", f"--enable-features={FEATURE}"]
    merged = with_checks(["--enable-features=A,B", "--x"])
    assert merged == ["--x", f"--enable-features=A,B,{FEATURE}"]
    assert with_checks(merged) == merged
    assert not any(FEATURE in a for a in chromium_args(local_network_checks=False))
