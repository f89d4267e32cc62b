"""Launching a headless Chromium for tests, as Waypost launches one (browser/launch.py's flags)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from playwright.async_api import Browser, async_playwright

from browser.discovery import find_chromium
from browser.launch import chromium_args


@asynccontextmanager
async def chromium_with(extra: list[str]) -> AsyncIterator[Browser]:
    """A headless Chromium launched with Waypost's flags plus `extra` (name rules, address spaces)."""
    async with async_playwright() as pw:
        exe = find_chromium(bundled=pw.chromium.executable_path)
        browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=chromium_args(extra))
        yield browser
        await browser.close()
