"""The eval's checkers can be satisfied: a person's clicks on the bundled pages pass them, and a
page left alone fails them (a checker that always or never passes would measure nothing)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Browser, Page

from evals.site import EvalSite
from evals.tasks import TASKS, Observed

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

Steps = Callable[[Page], Awaitable[None]]


async def _forms_02(p: Page) -> None:
    await p.get_by_label("Name").fill("Alan Turing")
    await p.get_by_label("Email").fill("alan@example.com")
    await p.get_by_label("Subject").select_option("billing")


async def _unlabelled_03(p: Page) -> None:
    await p.get_by_placeholder("City").fill("London")
    await p.get_by_placeholder("Postcode").fill("NW1 6XE")


async def _wizard_04(p: Page) -> None:
    await p.get_by_label("Your name").fill("Ada Lovelace")
    await p.get_by_label("Work email").fill("ada@example.com")
    await p.get_by_role("button", name="Next").click()
    await p.get_by_label("Team").check()
    await p.locator("#step2").get_by_role("button", name="Next").click()
    await p.get_by_role("button", name="Confirm").click()


async def _inbox_02(p: Page) -> None:
    await p.get_by_role("link", name="ShopCo newsletter: Spring sale").click()
    await p.get_by_role("button", name="Archive").click()


async def _search_01(p: Page) -> None:
    await p.get_by_label("Search products").fill("teapot")
    await p.get_by_role("button", name="Search").click()
    await p.get_by_role("link", name="Glass Teapot - 24.50 EUR").click()


async def _tables_03(p: Page) -> None:
    await p.get_by_role("button", name="Price (EUR)").click()


async def _dialogs_01(p: Page) -> None:
    await p.get_by_role("button", name="Settings").click()
    await p.get_by_label("Dark mode").check()
    await p.get_by_role("button", name="Save settings").click()


async def _tabs_03(p: Page) -> None:
    await p.get_by_role("tab", name="Notifications").click()
    await p.get_by_label("Email alerts").uncheck()


async def _dates_03(p: Page) -> None:
    await p.get_by_role("button", name="Open calendar").click()
    await p.get_by_role("button", name="January 20, 2027").click()


async def _dates_04(p: Page) -> None:
    await p.get_by_label("Check-in").fill("2027-05-01")
    await p.get_by_label("Check-out").fill("2027-05-03")


PERSON: dict[str, Steps] = {
    "forms-02": _forms_02,
    "unlabelled-03": _unlabelled_03,
    "wizard-04": _wizard_04,
    "inbox-02": _inbox_02,
    "search-01": _search_01,
    "tables-03": _tables_03,
    "dialogs-01": _dialogs_01,
    "tabs-03": _tabs_03,
    "dates-03": _dates_03,
    "dates-04": _dates_04,
}


@pytest.mark.parametrize("task_id", sorted(PERSON))
async def test_a_persons_clicks_pass_the_checker_and_an_untouched_page_fails_it(
    chromium: Browser, task_id: str
) -> None:
    task = next(t for t in TASKS if t.task_id == task_id)
    context = await chromium.new_context()
    try:
        page = await context.new_page()
        with EvalSite() as site:

            def seen() -> Observed:
                posts = site.posts(task.post_path) if task.post_path else 0
                return Observed(state=site.state(task.page), answer="", posts=posts)

            await page.goto(site.url(task.page))
            assert site.state(task.page), "state.js reported nothing on load"
            assert not task.check(seen())
            await PERSON[task_id](page)
            assert task.check(seen()), site.state(task.page)
    finally:
        await context.close()
