"""Opening a URL in a tab so that a navigation that ran out of time does not outlive its step
(docs/architecture.md, "Navigations that time out").

Playwright's `goto` gives up at its timeout, but Chromium keeps the navigation going. The next
navigation then races the leftover: Chromium ignores a second navigation to the URL of one still
waiting for its server (its IgnoreDuplicateNavs rule: the newer one ends in net::ERR_ABORTED, the
leftover carries on; plain Playwright shows it with two `goto`s of one slow URL), and a
leftover that already has its answer commits in the middle of the next `goto`, which Playwright
reports as "interrupted by another navigation". So a navigation is opened in two phases: until its
document commits, then until the awaited load state. One that has not committed when its time is up
is stopped, as the Stop button stops it, before the timeout is reported; one that committed is left
loading, so a later wait can still see it finish. A `goto` overtaken by the commit of a navigation
that was already past its server when stopped (so stopping could not cancel it) is stopped and
started again once.
"""

from __future__ import annotations

import contextlib
import time
from typing import Literal

from playwright.async_api import Error, Page, Response
from playwright.async_api import TimeoutError as PlaywrightTimeout

WaitUntil = Literal["commit", "domcontentloaded", "load", "networkidle"]

#: Playwright's words for a goto whose frame committed another navigation meanwhile.
_OVERTAKEN = "is interrupted by another navigation"


async def open_url(page: Page, url: str, *, wait_until: WaitUntil, timeout_ms: float) -> Response | None:
    """`page.goto(url, wait_until=..., timeout=...)`, leaving no navigation of its own behind when
    it times out before the page committed. `timeout_ms` covers both phases together."""
    clock = _Budget(timeout_ms)
    try:
        response = await _commit(page, url, clock)
    except PlaywrightTimeout as exc:
        raise PlaywrightTimeout(
            f"Timeout {timeout_ms:g}ms exceeded: {url} did not open; its loading was stopped"
        ) from exc
    if wait_until == "commit":
        return response
    try:
        await page.wait_for_load_state(wait_until, timeout=clock.left())
    except PlaywrightTimeout as exc:
        raise PlaywrightTimeout(
            f"Timeout {timeout_ms:g}ms exceeded: {url} opened but did not reach {wait_until}"
        ) from exc
    return response


async def _commit(page: Page, url: str, clock: _Budget) -> Response | None:
    try:
        return await _goto(page, url, clock)
    except PlaywrightTimeout:
        raise
    except Error as exc:
        if _OVERTAKEN not in (exc.message or ""):
            raise
    await stop_loading(page)  # the leftover has committed; ours may still be on its way
    return await _goto(page, url, clock)


async def _goto(page: Page, url: str, clock: _Budget) -> Response | None:
    try:
        return await page.goto(url, wait_until="commit", timeout=clock.left())
    except PlaywrightTimeout:
        await stop_loading(page)
        raise


async def stop_loading(page: Page) -> None:
    """Cancels the tab's navigations still waiting for their answer (CDP Page.stopLoading: Chromium
    cancels them before it replies). One whose answer is already on its way to the page's renderer
    still commits: `_commit` copes with that."""
    try:
        cdp = await page.context.new_cdp_session(page)
    except Error:
        return  # the tab closed: nothing is loading in it
    try:
        with contextlib.suppress(Error):
            await cdp.send("Page.stopLoading")
    finally:
        with contextlib.suppress(Error):
            await cdp.detach()


class _Budget:
    """The milliseconds left of one timeout shared by several Playwright calls (0 means none)."""

    def __init__(self, timeout_ms: float) -> None:
        self._total = timeout_ms
        self._end = time.monotonic() + timeout_ms / 1000

    def left(self) -> float:
        if self._total <= 0:
            return 0  # Playwright's "no timeout"
        return max(1.0, (self._end - time.monotonic()) * 1000)  # 0 would mean no timeout at all
