"""A navigation overtaken by an older one that commits in its middle is opened again, once
(browser/navigation.py): the older one stands for a timed-out step's navigation that was already
past its server when the step stopped it, which stopping cannot cancel."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Route

from browser.driver import PlaywrightDriver
from browser.navigation import open_url
from tests.integration.browser._helpers import act
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

#: A synchronous request keeps the page's only thread busy: a navigation's answer can arrive, but
#: its document cannot commit until the request is answered.
_BLOCK = "setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', '/gate', false); x.send(); })"


async def test_navigation_overtaken_by_an_older_commit_is_opened_again(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    page = driver.session.page
    await act(driver, "navigate", url=site.url("/index.html"))
    blocked, release = asyncio.Event(), asyncio.Event()

    async def hold(route: Route) -> None:
        blocked.set()
        await release.wait()
        await route.fulfill(body="ok")

    await page.route("**/gate", hold)
    await page.evaluate(_BLOCK)
    await blocked.wait()
    async with page.expect_response(lambda r: r.url.endswith("/form.html")):  # answered, not committed
        older = asyncio.create_task(page.goto(site.url("/form.html"), wait_until="commit"))
    url = site.url("/never.html")
    async with page.expect_request(lambda r: r.url == url):
        ours = asyncio.create_task(open_url(page, url, wait_until="domcontentloaded", timeout_ms=10_000))
    release.set()  # form.html commits first, in the middle of ours
    response = await ours
    assert response is not None and response.status == 200
    assert page.url == url
    assert await page.title() == "Never loads"
    await older
