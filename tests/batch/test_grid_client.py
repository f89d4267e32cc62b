"""The batch's Playwright client on a real server: a browser serves one run at a time, and the next
run on that endpoint gets the same browser with a fresh context (nothing of the last run in it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser.grid import GridClient, GridDriver, endpoint_options
from browser.options import BrowserPolicy, LaunchOptions
from common.secrecy import SecretVault
from tests.support.playwright_server import PlaywrightServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser]


async def a_run(client: GridClient, options: LaunchOptions, downloads: Path) -> GridDriver:
    """A run's driver, as the batch's run resources ask for one."""
    made = await client.driver(options, policy=BrowserPolicy(), vault=SecretVault(), downloads_dir=downloads)
    assert isinstance(made, GridDriver)
    return made


async def test_the_next_run_gets_the_same_browser_and_a_fresh_context(
    grid: list[PlaywrightServer], site: FixtureSite, tmp_path: Path
) -> None:
    options = endpoint_options(grid[0].endpoint, LaunchOptions())
    async with GridClient() as client:

        async def driver() -> GridDriver:
            return await a_run(client, options, tmp_path)

        first = await driver()
        context = first.session.context
        await context.add_cookies([{"name": "who", "value": "first", "url": site.url("/")}])
        at_once = await driver()
        assert at_once.browser is not first.browser  # two runs at once never share a browser
        await first.close()
        after = await driver()
        assert after.browser is first.browser and after.session.context is not context
        assert await after.session.context.cookies() == []
        assert first.browser.contexts == [after.session.context]
        await at_once.close()
        await after.close()
        kept = after.browser
    assert not kept.is_connected()  # the client's end closes the browsers it kept


async def test_context_isolation_shares_the_browser_never_a_context(
    grid: list[PlaywrightServer], site: FixtureSite, tmp_path: Path
) -> None:
    options = endpoint_options(grid[0].endpoint, LaunchOptions())
    async with GridClient(isolation="context") as client:

        async def driver() -> GridDriver:
            return await a_run(client, options, tmp_path)

        first, second = await driver(), await driver()
        assert second.browser is first.browser  # two runs at once, one browser
        assert first.session.context is not second.session.context
        await first.session.context.add_cookies([{"name": "who", "value": "first", "url": site.url("/")}])
        assert await second.session.context.cookies() == []  # nothing of one run reaches the other
        await first.close()
        assert first.browser.is_connected()  # the other run goes on in it
        assert first.browser.contexts == [second.session.context]
        third = await driver()
        assert third.browser is first.browser and await third.session.context.cookies() == []
        await second.close()
        await third.close()
        shared = third.browser
        assert shared.is_connected() and shared.contexts == []
    assert not shared.is_connected()  # the client's end closes the shared browser


async def test_context_isolation_replaces_a_browser_that_went_away(
    grid: list[PlaywrightServer], tmp_path: Path
) -> None:
    """A run left in a lost browser ends there; the next run gets a new browser, not the dead one."""
    options = endpoint_options(grid[0].endpoint, LaunchOptions())
    async with GridClient(isolation="context") as client:
        first = await client.driver(
            options, policy=BrowserPolicy(), vault=SecretVault(), downloads_dir=tmp_path
        )
        assert isinstance(first, GridDriver)
        lost = first.browser
        await lost.close()  # the server's browser is gone under the run
        after = await client.driver(
            options, policy=BrowserPolicy(), vault=SecretVault(), downloads_dir=tmp_path
        )
        assert isinstance(after, GridDriver)
        assert after.browser is not lost and after.browser.is_connected()
        await first.close()
        assert after.browser.is_connected()  # the lost run's end does not close the new browser
        await after.close()


async def test_context_isolation_retires_a_spent_browser_once_its_runs_end(
    grid: list[PlaywrightServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GridClient, "RUNS_PER_BROWSER", 2)
    options = endpoint_options(grid[0].endpoint, LaunchOptions())
    async with GridClient(isolation="context") as client:

        async def driver() -> GridDriver:
            return await a_run(client, options, tmp_path)

        one, two = await driver(), await driver()
        three = await driver()  # the first browser served two runs: a fresh one for the third
        assert three.browser is not one.browser and two.browser is one.browser
        await one.close()
        assert one.browser.is_connected()  # its second run still uses it
        await two.close()
        assert not one.browser.is_connected()  # spent and unused: closed
        await three.close()
        assert three.browser.is_connected()  # still the endpoint's browser for the next run
