"""A Chromium in which a made-up public name, public.test, resolves to 127.0.0.1, so a page served by
the fixture site counts as public (navigation-policy attack tests); one per test module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, async_playwright

from browser.discovery import find_chromium
from browser.launch import chromium_args
from executor.checkpoint_store import CheckpointStore
from tests.integration.act.conftest import ActHarness
from tests.support.site import FixtureSite

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]
PUBLIC = "public.test"


@asynccontextmanager
async def chromium_with(extra: list[str]) -> AsyncIterator[Browser]:
    """A headless Chromium launched with Waypost's flags plus `extra` (name rules, address spaces)."""
    async with async_playwright() as pw:
        exe = find_chromium(bundled=pw.chromium.executable_path)
        browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=chromium_args(extra))
        yield browser
        await browser.close()


def harness_on(browser: Browser, tmp_path: Path) -> ActHarness:
    store = CheckpointStore(tmp_path / "runs" / "waypost.sqlite3")
    return ActHarness(browser=browser, runs_dir=tmp_path / "runs", store=store)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def public_chromium() -> AsyncIterator[Browser]:
    async with chromium_with([f"--host-resolver-rules=MAP {PUBLIC} 127.0.0.1"]) as browser:
        yield browser


@pytest.fixture
def harness(public_chromium: Browser, tmp_path: Path) -> ActHarness:
    return harness_on(public_chromium, tmp_path)


def public_url(site: FixtureSite, path: str) -> str:
    """The fixture site's page at `path`, addressed by the public name."""
    return site.url(path).replace("127.0.0.1", PUBLIC)
