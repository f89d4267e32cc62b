"""Popups become the active tab; dialogs are answered by policy and recorded."""

from __future__ import annotations

import pytest

from browser.driver import PlaywrightDriver
from browser.options import BrowserPolicy
from tests.integration.browser._helpers import act, text_of
from tests.support.make_driver import MakeDriver
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_target_blank_link_opens_a_tab_that_becomes_active(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/popup.html"))
    session = driver.session
    async with session.context.expect_page() as new_page:
        assert (await act(driver, "click", target={"text": "Open prices in a new tab"})).ok
    popup = await new_page.value
    await popup.wait_for_load_state()
    assert len(session.tabs) == 2
    assert session.page is popup
    assert driver.url == site.url("/prices.html")
    await popup.close()
    assert len(session.tabs) == 1
    assert driver.url == site.url("/popup.html")


async def test_window_open_is_followed_and_tabs_can_be_switched(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/popup.html"))
    session = driver.session
    async with session.context.expect_page() as new_page:
        await act(driver, "click", target={"role": "button", "name": "Open form window"})
    popup = await new_page.value
    await popup.wait_for_load_state()
    assert (await act(driver, "fill", target={"label": "Full name"}, value="In popup")).ok
    assert await popup.locator("#full-name").input_value() == "In popup"
    session.switch_to(0)
    assert driver.url == site.url("/popup.html")


async def test_dialogs_are_dismissed_by_default_and_recorded(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/dialogs.html"))
    assert (await act(driver, "click", target={"role": "button", "name": "Show alert"})).ok
    assert (await act(driver, "wait", text="alert closed")).ok
    assert (await act(driver, "click", target={"role": "button", "name": "Delete all"})).ok
    assert (await act(driver, "wait", text="cancelled")).ok
    assert (await act(driver, "click", target={"role": "button", "name": "Ask name"})).ok
    assert (await act(driver, "wait", text="prompt: null")).ok
    assert [(d.type, d.message, d.accepted) for d in driver.dialogs] == [
        ("alert", "Hello there", False),
        ("confirm", "Delete everything?", False),
        ("prompt", "Your name?", False),
    ]
    assert all(d.url == site.url("/dialogs.html") for d in driver.dialogs)


async def test_dialogs_are_accepted_when_policy_allows(make_driver: MakeDriver, site: FixtureSite) -> None:
    driver = await make_driver(policy=BrowserPolicy(accept_dialogs=True))
    await act(driver, "navigate", url=site.url("/dialogs.html"))
    await act(driver, "click", target={"role": "button", "name": "Delete all"})
    assert (await act(driver, "wait", text="confirmed")).ok
    await act(driver, "click", target={"role": "button", "name": "Ask name"})
    assert (await act(driver, "wait", text="prompt: default")).ok
    assert await text_of(driver, "#out") == "prompt: default"
    assert [d.accepted for d in driver.dialogs] == [True, True]
