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


async def test_the_next_run_gets_the_same_browser_and_a_fresh_context(
    grid: list[PlaywrightServer], site: FixtureSite, tmp_path: Path
) -> None:
    options = endpoint_options(grid[0].endpoint, LaunchOptions())
    async with GridClient() as client:

        async def driver() -> GridDriver:
            made = await client.driver(
                options, policy=BrowserPolicy(), vault=SecretVault(), downloads_dir=tmp_path
            )
            assert isinstance(made, GridDriver)
            return made

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
