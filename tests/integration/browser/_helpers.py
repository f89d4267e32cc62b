"""Small helpers shared by the browser integration tests."""

from __future__ import annotations

from typing import Any

from browser.driver import PlaywrightDriver
from browser.models import ActionOutcome, parse_action


async def act(driver: PlaywrightDriver, kind: str, **fields: Any) -> ActionOutcome:
    """Performs an action written the way plans write them (plain JSON data)."""
    return await driver.perform(parse_action({"kind": kind, **fields}))


async def text_of(driver: PlaywrightDriver, selector: str) -> str:
    return await driver.session.page.locator(selector).inner_text()
