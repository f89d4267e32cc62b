"""One headless Chromium for the whole browser suite; a fresh context (driver) per test.

The browser lives in the session event loop, so every test module here runs with
`pytest.mark.asyncio(loop_scope="session")` (see `pytestmark` in each module).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from browser.discovery import find_chromium
from browser.driver import PlaywrightDriver
from browser.launch import chromium_args
from browser.options import BrowserPolicy
from common.secrecy import SecretVault

MakeDriver = Callable[..., Awaitable[PlaywrightDriver]]


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        exe = find_chromium(bundled=pw.chromium.executable_path)
        browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=chromium_args())
        yield browser
        await browser.close()


@pytest_asyncio.fixture(loop_scope="session")
async def make_driver(chromium: Browser, tmp_path: Path) -> AsyncIterator[MakeDriver]:
    """Builds drivers on the shared browser with a given policy/secrets; closes them all after."""
    made: list[PlaywrightDriver] = []

    async def make(
        policy: BrowserPolicy | None = None, secrets: SecretVault | None = None
    ) -> PlaywrightDriver:
        driver = await PlaywrightDriver.on_browser(
            chromium, policy=policy, secrets=secrets, downloads_dir=tmp_path / "downloads"
        )
        made.append(driver)
        return driver

    yield make
    for driver in made:
        await driver.close()


@pytest_asyncio.fixture(loop_scope="session")
async def driver(make_driver: MakeDriver) -> PlaywrightDriver:
    return await make_driver()
