"""PageCapture: the evidence of one page state (URL, title, DOM hash, masked screenshot).

Password fields, fields marked sensitive (data-sensitive, autocomplete=cc-*) and fields a secret
was typed into (data-waypost-sensitive) are painted over in the screenshot in every frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.async_api import Error, Locator, Page

from browser.dom_hash import dom_hash
from browser.models import PageCapture

SENSITIVE_SELECTOR = (
    'input[type="password" i], [data-sensitive], [data-waypost-sensitive], [autocomplete^="cc-" i]'
)
MASK_COLOR = "#000000"


def sensitive_locators(page: Page) -> list[Locator]:
    return [frame.locator(SENSITIVE_SELECTOR) for frame in page.frames]


async def screenshot(page: Page, path: Path | None = None, *, full_page: bool = False) -> bytes:
    return await page.screenshot(
        path=path,
        type="png",
        full_page=full_page,
        mask=sensitive_locators(page),
        mask_color=MASK_COLOR,
        animations="disabled",
        caret="hide",
    )


async def capture(
    page: Page,
    *,
    with_screenshot: bool = True,
    path: Path | None = None,
    redact: Callable[[str], str] = lambda s: s,
) -> PageCapture:
    """Screenshot bytes are kept in the capture unless `path` is given (then only the path)."""
    shot: bytes | None = None
    if with_screenshot:
        shot = await screenshot(page, path)
    try:
        title = await page.title()
    except Error:
        title = ""  # mid-navigation: no document to ask
    return PageCapture(
        url=page.url,
        title=redact(title),
        dom_hash=await dom_hash(page),
        screenshot=shot if path is None else None,
        screenshot_path=str(path) if path is not None and shot is not None else None,
    )
