"""PageCapture: the evidence of one page state (URL, title, DOM hash, masked screenshot).

Password fields, fields marked sensitive (data-sensitive, autocomplete=cc-*), fields a secret
was typed into (data-waypost-sensitive) and any element whose text or value shows a secret
(data-waypost-secret, browser/secret_mask.py) are painted over in the screenshot in every frame.
A page that changes what it shows between the marking and the picture is pictured again, with
every frame masked.

A capture costs one pass over the DOM plus one screenshot. The pass (browser/dom_hash.py
`dom_state`) gives the hash and the title and says whether any frame holds a sensitive element,
right before the picture is taken:
- if one does, the screenshot is Playwright's masked one (animations stopped, caret hidden), with a
  mask on exactly the frames that hold such elements: the same masking as ever;
- if none does, nothing needs painting over, so the picture is taken straight from Chromium
  (Page.captureScreenshot with optimizeForSpeed), skipping Playwright's per-screenshot round trips
  (style injection and removal in every frame, fonts, layout metrics) and trading PNG compression
  for encoding time. The pixels are the ones Playwright's screenshot gives (lossless PNG either way;
  the file is 1.5-2.5 times larger on the fixture pages, until the recorder re-deflates what it
  stores: receipts/png.py). The caret and running animations are left
  as they render: two pictures of one state may differ by a blinking caret, which nothing relies on
  (reuse goes by DOM hash).
  Where no CDP session can be opened (not Chromium), Playwright's screenshot is used.
A frame that did not answer the pass (mid-navigation) is an unknown: then every frame is masked.
Like Playwright's own mask, which resolves its locators just before the capture, an element that
appears between the check and the capture is not masked.
"""

from __future__ import annotations

import asyncio
import base64
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path

from playwright.async_api import CDPSession, Error, Frame, Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browser.dom_hash import dom_state
from browser.models import PageCapture
from browser.secret_mask import SECRET_MARK, mark_secrets

SENSITIVE_SELECTOR = (
    'input[type="password" i], [data-sensitive], [data-waypost-sensitive], [autocomplete^="cc-" i], '
    f"[{SECRET_MARK}]"
)
MASK_COLOR = "#000000"
SCREENSHOT_TIMEOUT_S = 30.0  # Playwright's default for page.screenshot
NO_PICTURE = "Unable to capture screenshot"  # Chromium's words while a navigation swaps the document
SCREENSHOT_ATTEMPTS = 3
SETTLE_TIMEOUT_MS = 5_000

# One CDP session per page, opened on its first capture; None marks a page that cannot have one.
_CDP: weakref.WeakKeyDictionary[Page, CDPSession | None] = weakref.WeakKeyDictionary()


def sensitive_locators(page: Page, frames: list[Frame] | None = None) -> list[Locator]:
    return [frame.locator(SENSITIVE_SELECTOR) for frame in (page.frames if frames is None else frames)]


async def screenshot(
    page: Page, path: Path | None = None, *, full_page: bool = False, frames: list[Frame] | None = None
) -> bytes:
    """Playwright's screenshot with every sensitive element (in `frames`, default all) masked.

    Chromium gives no picture while a navigation swaps the document ("Unable to capture screenshot",
    seen right after a click that leaves the page). Then the new document is waited for (its load
    event and one rendered frame) and pictured again with every frame masked: which frames hold
    sensitive elements was known only for the old document."""
    attempt = 1
    while True:
        try:
            return await _masked(page, path, full_page=full_page, frames=frames if attempt == 1 else None)
        except Error as exc:
            if NO_PICTURE not in str(exc) or attempt >= SCREENSHOT_ATTEMPTS:
                raise
        attempt += 1
        await _rendered(page)


async def _rendered(page: Page) -> None:
    try:
        await page.wait_for_load_state("load", timeout=SETTLE_TIMEOUT_MS)
        await page.evaluate("() => new Promise(requestAnimationFrame)")
    except Error:
        pass  # the document changed again meanwhile: the next attempt says whether it can be pictured


async def _masked(page: Page, path: Path | None, *, full_page: bool, frames: list[Frame] | None) -> bytes:
    return await page.screenshot(
        path=path,
        type="png",
        full_page=full_page,
        mask=sensitive_locators(page, frames),
        mask_color=MASK_COLOR,
        animations="disabled",
        caret="hide",
    )


async def _cdp_session(page: Page) -> CDPSession | None:
    if page in _CDP:
        return _CDP[page]
    try:
        session: CDPSession | None = await page.context.new_cdp_session(page)
    except Error:
        session = None  # not Chromium (or a server that refuses CDP): Playwright's path only
    _CDP[page] = session
    return session


async def plain_screenshot(page: Page, path: Path | None = None) -> bytes:
    """The viewport as Chromium renders it, unmasked: only for a page with nothing to mask."""
    session = await _cdp_session(page)
    if session is None:
        return await screenshot(page, path, frames=[])
    try:
        async with asyncio.timeout(SCREENSHOT_TIMEOUT_S):
            reply = await session.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
    except TimeoutError as exc:
        raise PlaywrightTimeout(f"screenshot: no frame within {SCREENSHOT_TIMEOUT_S:.0f}s") from exc
    except Error:
        _CDP.pop(page, None)  # a detached session or a swapped document: Playwright's path, all masked
        return await screenshot(page, path)
    data = base64.b64decode(reply["data"])
    if path is not None:
        await asyncio.to_thread(_write, path, data)
    return data


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)  # as Playwright's screenshot(path=...) does
    path.write_bytes(data)


async def capture(
    page: Page,
    *,
    with_screenshot: bool = True,
    path: Path | None = None,
    redact: Callable[[str], str] = lambda s: s,
    secrets: Sequence[str] = (),
) -> PageCapture:
    """Screenshot bytes are kept in the capture unless `path` is given (then only the path).
    `secrets`: values whose display on the page is painted over."""
    marked = await mark_secrets(page, secrets) if with_screenshot else 0
    state = await dom_state(page, SENSITIVE_SELECTOR)
    shot: bytes | None = None
    if with_screenshot:
        if not state.complete or marked is None:
            shot = await screenshot(page, path)
        elif state.sensitive_frames:
            shot = await screenshot(page, path, frames=state.sensitive_frames)
        else:
            shot = await plain_screenshot(page, path)
        if secrets and await mark_secrets(page, secrets) != marked:
            shot = await screenshot(page, path)  # what the page shows changed meanwhile
    return PageCapture(
        url=redact(page.url),
        title=redact(state.title),
        dom_hash=state.dom_hash,
        screenshot=shot if path is None else None,
        screenshot_path=str(path) if path is not None and shot is not None else None,
        view=state.view,
    )
