"""Slow, never-loading and never-actionable pages end in a `timeout` outcome, not an exception."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from playwright.async_api import Error, Route

from browser.driver import PlaywrightDriver
from browser.models import OutcomeStatus
from tests.integration.browser._helpers import act
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_slow_page_times_out_then_loads_with_enough_time(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    slow = await act(driver, "navigate", url=site.url("/slow?delay=30"), timeout_ms=300)
    assert slow.status is OutcomeStatus.TIMEOUT
    assert "300" in slow.message
    quick = await act(driver, "navigate", url=site.url("/slow?delay=0.2"), timeout_ms=5000)
    assert quick.ok
    assert quick.title_after == "Slow page"


async def test_never_loading_page_times_out_on_load_but_not_on_domcontentloaded(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    load = await act(driver, "navigate", url=site.url("/never.html"), timeout_ms=400)
    assert load.status is OutcomeStatus.TIMEOUT
    dom = await act(driver, "navigate", url=site.url("/never.html"), wait_until="domcontentloaded")
    assert dom.ok
    assert dom.title_after == "Never loads"
    waiting = await act(driver, "wait", load_state="load", timeout_ms=300)
    assert waiting.status is OutcomeStatus.TIMEOUT


async def test_navigation_that_timed_out_before_its_answer_is_stopped(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    """Chromium ignores a navigation to the URL of one still waiting for its answer (the newer one
    ends in net::ERR_ABORTED): the step that timed out stops its own, so opening the URL again works."""
    url = site.url("/slow?delay=0")
    held: list[Route] = []
    done = asyncio.Event()

    async def first_never_answered(route: Route) -> None:
        if held:
            await route.fallback()
            return
        held.append(route)
        await done.wait()
        with contextlib.suppress(Error):  # long cancelled by the stop
            await route.abort()

    await driver.session.page.route(url, first_never_answered)
    try:
        first = await act(driver, "navigate", url=url, timeout_ms=300)
        assert first.status is OutcomeStatus.TIMEOUT
        assert first.url_after == "about:blank"
        again = await act(driver, "navigate", url=url, wait_until="domcontentloaded")
    finally:
        done.set()
    assert again.ok, again.message
    assert again.title_after == "Slow page"
    assert len(held) == 1


async def test_disabled_button_times_out_waiting_for_actionability(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    outcome = await act(driver, "click", target={"role": "button", "name": "Archive"}, timeout_ms=300)
    assert outcome.status is OutcomeStatus.TIMEOUT
    assert outcome.resolved is None
    assert "Call log" not in outcome.message
