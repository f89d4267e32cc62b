"""Getting a browser: own launch, persistent profile, attach over CDP; each closes cleanly."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from browser.discovery import find_chromium
from browser.driver import BrowserDriver, PlaywrightDriver
from browser.launch import chromium_args
from browser.options import LaunchOptions
from tests.integration.browser._helpers import act
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_launch_observe_and_close(site: FixtureSite) -> None:
    driver = await PlaywrightDriver.launch(LaunchOptions(headless=True))
    assert isinstance(driver, BrowserDriver)
    async with driver:
        assert (await act(driver, "navigate", url=site.url("/form.html"))).ok
        assert (await driver.observe()).elements
    assert driver.session.context.pages == []


async def test_persistent_profile_keeps_storage_between_runs(site: FixtureSite, tmp_path: Path) -> None:
    options = LaunchOptions(user_data_dir=str(tmp_path / "profile"))
    async with await PlaywrightDriver.launch(options) as first:
        await act(first, "navigate", url=site.url("/index.html"))
        await first.session.page.evaluate("localStorage.setItem('waypost', 'kept')")
    async with await PlaywrightDriver.launch(options) as second:
        await act(second, "navigate", url=site.url("/index.html"))
        assert await second.session.page.evaluate("localStorage.getItem('waypost')") == "kept"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest_asyncio.fixture(loop_scope="session")
async def remote_chromium() -> AsyncIterator[tuple[Browser, str]]:
    """A separately launched Chromium listening for CDP on 127.0.0.1, as a browser grid would."""
    port = _free_port()
    async with async_playwright() as pw:
        exe = find_chromium(bundled=pw.chromium.executable_path)
        args = [*chromium_args(), f"--remote-debugging-port={port}", "--remote-debugging-address=127.0.0.1"]
        browser = await pw.chromium.launch(executable_path=str(exe), args=args)
        yield browser, f"http://127.0.0.1:{port}"
        await browser.close()


async def test_attach_over_cdp(remote_chromium: tuple[Browser, str], site: FixtureSite) -> None:
    _, cdp_url = remote_chromium
    async with await PlaywrightDriver.launch(LaunchOptions(cdp_url=cdp_url)) as driver:
        outcome = await act(driver, "navigate", url=site.url("/prices.html"))
        assert outcome.ok
        assert outcome.title_after == "Datafeed prices"
