"""A small picture of the page for models that take images: the viewport, downscaled by Chromium.

Chromium scales while it captures (Page.captureScreenshot with a clip scale), so no image library
is needed, and a JPEG at quality 60 keeps a 640 px wide picture near 20-40 KB. A page that holds a
sensitive field (a password, a card number, a field a secret was typed into), that shows a declared
secret, or whose frames did not all answer, gets no picture at all; nor does any page once a secret
was typed in the session: masking is the receipts' job, and a model never needs to
see such a page to decide the next step.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Sequence

from playwright.async_api import Error, Page

from browser.capture import SENSITIVE_SELECTOR
from browser.dom_hash import dom_state
from browser.driver import BrowserDriver, PlaywrightDriver
from browser.secret_mask import mark_secrets

MAX_WIDTH = 640
JPEG_QUALITY = 60
TIMEOUT_S = 10.0


async def page_thumbnail(page: Page, max_width: int = MAX_WIDTH, secrets: Sequence[str] = ()) -> bytes | None:
    """JPEG bytes of the viewport at most `max_width` wide, or None (sensitive page, a page showing a
    secret or not answering the search for one, no CDP)."""
    if secrets and await mark_secrets(page, secrets) is None:
        return None  # a frame did not answer: it may show a secret unmarked
    state = await dom_state(page, SENSITIVE_SELECTOR)  # a marked echo makes the page sensitive
    if not state.complete or state.sensitive_frames:
        return None
    size = page.viewport_size or {"width": 1280, "height": 800}
    scale = min(1.0, max_width / size["width"])
    clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": scale}
    try:
        session = await page.context.new_cdp_session(page)
    except Error:
        return None
    try:
        async with asyncio.timeout(TIMEOUT_S):
            reply = await session.send(
                "Page.captureScreenshot", {"format": "jpeg", "quality": JPEG_QUALITY, "clip": clip}
            )
    except (Error, TimeoutError):
        return None
    finally:
        await session.detach()
    return base64.b64decode(reply["data"])


async def driver_thumbnail(driver: BrowserDriver) -> bytes | None:
    """The thumbnail of a Playwright driver's page; None for other drivers (fakes in tests), and
    None for the rest of a session once a secret was typed in it: a page shown after signing in may
    show it in a way no search of its text finds (a canvas, an image), and a model never needs it."""
    if isinstance(driver, PlaywrightDriver) and not driver.session.secret_typed:
        return await page_thumbnail(driver.session.page, secrets=driver.session.vault.redactor.values())
    return None
