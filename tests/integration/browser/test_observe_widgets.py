"""The observation lists what a person can click, semantic or not: inbox rows and trash icons made of
<div>s and <span>s, icon buttons named by title / aria-label / svg title / alt, custom dropdowns."""

from __future__ import annotations

import pytest

from browser.driver import PlaywrightDriver
from tests.integration.browser._helpers import act, text_of
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_inbox_rows_and_their_trash_icons_are_listed_and_clickable(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/widgets/inbox.html"))
    observation = await driver.observe()
    names = [e.name for e in observation.elements]
    assert sum(1 for n in names if n == "Delete") == 4
    assert sum(1 for n in names if n.startswith(("Ada", "Bob", "Cy", "Dee"))) == 4
    row = next(e for e in observation.elements if e.name.startswith("Dee"))  # a listener, no attribute
    assert (await act(driver, "click", target={"index": row.index})).ok
    assert await text_of(driver, "#out") == "opened 4"


async def test_icon_buttons_are_named_and_dropdown_options_listed(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/widgets/icons.html"))
    names = {e.name for e in (await driver.observe()).elements}
    assert {"Bold", "Italic", "Insert link", "Undo", "Help"} <= names
    await act(driver, "navigate", url=site.url("/widgets/dropdown.html"))
    names = {e.name for e in (await driver.observe()).elements}
    assert {"Basic", "Pro", "Enterprise", "Country: Vietnam ▾"} <= names
