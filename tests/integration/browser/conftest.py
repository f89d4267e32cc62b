"""A fresh context (driver) per test on the suite's one headless Chromium (tests/conftest.py).

The browser lives in the session event loop, so every test module here runs with
`pytest.mark.asyncio(loop_scope="session")` (see `pytestmark` in each module).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser

from browser.driver import PlaywrightDriver
from browser.options import BrowserPolicy
from common.secrecy import SecretVault
from tests.support.make_driver import MakeDriver


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
