"""A picture asked for while a navigation swaps the document is taken again of the new document,
masked in every frame; any other screenshot error is the caller's."""

from __future__ import annotations

from typing import Any, cast

import pytest
from playwright.async_api import Error, Page

from browser.capture import NO_PICTURE, SCREENSHOT_ATTEMPTS, screenshot


class Frame:
    def __init__(self, name: str) -> None:
        self.name = name

    def locator(self, selector: str) -> str:
        return f"{self.name}:{selector[:5]}"


class SwappingPage:
    """Chromium's answers during a navigation: `refusals` times no picture, then a picture."""

    def __init__(self, refusals: int, error: str = NO_PICTURE) -> None:
        self.frames = [Frame("main"), Frame("child")]
        self.refusals, self.error = refusals, error
        self.masks: list[list[Any]] = []
        self.calls: list[str] = []

    async def screenshot(self, **kwargs: Any) -> bytes:
        self.calls.append("screenshot")
        self.masks.append(kwargs["mask"])
        if self.refusals:
            self.refusals -= 1
            raise Error(f"Page.screenshot: Protocol error (Page.captureScreenshot): {self.error}")
        return b"png"

    async def wait_for_load_state(self, state: str, **_: Any) -> None:
        self.calls.append(f"load:{state}")

    async def evaluate(self, script: str) -> None:
        self.calls.append("frame")


async def test_a_refused_picture_is_taken_of_the_new_document_with_every_frame_masked() -> None:
    page = SwappingPage(refusals=1)
    shot = await screenshot(cast(Page, page), frames=[])  # the old document had nothing to mask
    assert shot == b"png"
    assert page.calls == ["screenshot", "load:load", "frame", "screenshot"]
    assert page.masks == [[], ["main:input", "child:input"]]


async def test_a_document_that_never_renders_is_an_error_after_the_last_attempt() -> None:
    page = SwappingPage(refusals=SCREENSHOT_ATTEMPTS)
    with pytest.raises(Error, match=NO_PICTURE):
        await screenshot(cast(Page, page))
    assert page.calls.count("screenshot") == SCREENSHOT_ATTEMPTS


async def test_other_screenshot_errors_are_not_retried() -> None:
    page = SwappingPage(refusals=1, error="Target page, context or browser has been closed")
    with pytest.raises(Error, match="closed"):
        await screenshot(cast(Page, page))
    assert page.calls == ["screenshot"]
