"""Targets on real-world markup (tests/fixtures/site/wild_form.html), in the documented order:
labels not tied to their inputs, aria-labelledby, placeholder-only fields, icon buttons named by
title / aria-label, the open dialog over the page behind it, and honest ambiguity on a tie."""

from __future__ import annotations

import pytest

from browser.driver import PlaywrightDriver
from browser.models import OutcomeStatus
from tests.integration.browser._helpers import act, text_of
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def value_of(driver: PlaywrightDriver, selector: str) -> str:
    return await driver.session.page.locator(selector).input_value()


async def test_a_label_not_tied_to_its_input_fills_the_input_after_it(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/wild_form.html"))
    username = await act(driver, "fill", target={"label": "Username"}, value="bob")
    assert username.ok, username.message
    assert await value_of(driver, "#username") == "bob"
    display = await act(driver, "fill", target={"label": "Display name:"}, value="Bob B.")
    assert display.ok, display.message
    assert await value_of(driver, "input[name=display]") == "Bob B."
    notes = await act(driver, "fill", target={"label": "Notes"}, value="hello")
    assert notes.ok, notes.message
    assert await value_of(driver, "textarea[name=notes]") == "hello"


async def test_aria_labelledby_and_a_placeholder_name_their_fields(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/wild_form.html"))
    assert (await act(driver, "fill", target={"label": "Home city"}, value="Hanoi")).ok
    assert await value_of(driver, "input[name=city]") == "Hanoi"
    search = await act(driver, "fill", target={"label": "Search the help pages"}, value="refunds")
    assert search.ok, search.message
    assert await value_of(driver, "input[name=q]") == "refunds"


async def test_icon_buttons_are_named_by_title_and_aria_label(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/wild_form.html"))
    assert (await act(driver, "click", target={"role": "button", "name": "Settings"})).ok
    assert await text_of(driver, "#out") == "settings"
    assert (await act(driver, "click", target={"role": "button", "name": "Delete draft"})).ok
    assert await text_of(driver, "#out") == "deleted"


async def test_the_open_dialog_beats_the_page_behind_it(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/wild_form.html"))
    no = await act(driver, "click", target={"role": "button", "name": "No"})
    assert no.ok, no.message
    assert await text_of(driver, "#out") == "dialog no"


async def test_two_equal_buttons_are_ambiguous_and_nothing_is_clicked(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/two_no.html"))
    tie = await act(driver, "click", target={"role": "button", "name": "No"})
    assert tie.status is OutcomeStatus.AMBIGUOUS
    assert len(tie.candidates) == 2
    assert await text_of(driver, "#out") == ""
