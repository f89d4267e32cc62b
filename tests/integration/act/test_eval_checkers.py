"""The eval's checkers can be satisfied: a person's clicks on the bundled pages pass them, and a
page left alone fails them (a checker that always or never passes would measure nothing). For a
task the page cannot satisfy, an answer that says why passes, and SUCCESS or an empty answer fails."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Browser, Page

from evals.checks import Observed
from evals.site import EvalSite
from evals.tasks import TASKS
from tests.support.eval_person import (
    Person,
    Refusal,
    mail_open,
    mail_reply,
    nothing,
    person_solves,
    refusal_solves,
    saas_login,
    saas_pricing,
    saas_signup,
    shop_add,
    shop_checkout,
    shop_search,
    travel_book,
    travel_search,
)

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


# The dev half of the site-like tasks (evals/tasks_dev.py): a person's clicks on each site.


async def _saas_02(p: Page) -> None:
    await saas_signup(p, "Carol Ng", "carol@example.com", "Tulip-7781", "team")


async def _shop_01(p: Page) -> None:
    await shop_add(p, "mugs", "Blue Mug", 2)


async def _shop_02(p: Page) -> None:
    await shop_search(p, "teapots")
    await p.get_by_label("Sort by").select_option("price-asc")


async def _shop_03(p: Page) -> None:
    await shop_add(p, "french press", "French Press", 1)
    await shop_checkout(p)
    await p.get_by_placeholder("Full name").fill("Lan Pham")
    await p.get_by_placeholder("Street and number").fill("12 Hang Bac")
    await p.get_by_placeholder("City").fill("Hanoi")
    await p.get_by_placeholder("Postcode").fill("100000")
    await p.get_by_role("button", name="Place order").click()
    await p.get_by_role("heading", name="Thank you, Lan Pham! Your order is confirmed.").wait_for()


async def _shop_04(p: Page) -> None:
    await shop_search(p, "stoneware mug")
    await p.get_by_role("link", name="Stoneware Mug").click()
    await p.get_by_text("in stock, ships").wait_for()


async def _account_01(p: Page) -> None:
    await p.get_by_placeholder("Phone number").fill("+44 20 7946 0958")
    await p.get_by_role("button", name="Save changes").click()
    await p.get_by_role("heading", name="Profile saved").wait_for()


async def _account_02(p: Page) -> None:
    await p.get_by_role("switch", name="Weekly digest").uncheck()
    await p.get_by_role("button", name="Save preferences").click()


async def _mail_01(p: Page) -> None:
    await mail_open(p, "Invoice #4471 for March")


async def _mail_02(p: Page) -> None:
    assert await p.locator("#inbox-count").inner_text() == "5"


async def _mail_03(p: Page) -> None:
    await mail_reply(p, "Dinner on Friday?", "Friday works for me, see you at 8!")


async def _mail_04(p: Page) -> None:
    await p.get_by_role("listitem").filter(has_text="Priya Nair").get_by_title("Star").click()


async def _mail_05(p: Page) -> None:
    await mail_open(p, "Rent from July")


async def _travel_01(p: Page) -> None:
    await travel_search(p, "Hanoi", "Singapore", "2027-03-14", pax="2")


async def _travel_02(p: Page) -> None:
    await travel_search(p, "London", "Paris", "2027-04-02")
    await p.get_by_label("Sort by").select_option("price")


async def _travel_03(p: Page) -> None:
    await travel_search(p, "Hồ Chí Minh", "Đà Nẵng", "2027-05-20")
    await p.get_by_label("Direct flights only").check()


DEV_PERSON: dict[str, Person] = {
    "saas-01": Person(
        saas_pricing,
        "Team: it allows up to 10 users and 100 GB for $29 a month.",
        ("Up to 10 users", "100 GB", "$29"),
        wrong="Starter is the cheapest, at $9 a month.",
    ),
    "saas-02": Person(_saas_02),
    "saas-03": Person(saas_login),
    "saas-04": Person(
        saas_pricing,
        "Gói Business có 500 GB dung lượng.",
        ("500 GB",),
        wrong="Gói Business có 100 GB dung lượng.",
    ),
    "shop-01": Person(_shop_01),
    "shop-02": Person(
        _shop_02,
        "The Glass Teapot is the cheapest, at 24.50 EUR.",
        ("Glass Teapot", "24.50"),
        wrong="The Porcelain Teapot is the cheapest.",
    ),
    "shop-03": Person(_shop_03),
    "shop-04": Person(
        _shop_04, "They have 17 Stoneware Mugs in stock.", ("17 in stock",), wrong="They have 42 in stock."
    ),
    "account-01": Person(_account_01),
    "account-02": Person(_account_02),
    "account-03": Person(
        nothing,
        "Your plan renews on 3 March 2027 and you are using 38.2 GB of 100 GB.",
        ("Renews on 3 March 2027", "38.2 GB"),
        wrong="Your plan renews on 3 February 2027.",
    ),
    "mail-01": Person(
        _mail_01,
        "The invoice from Tiffanie is for €1,284.50, due by 15 April 2027.",
        ("€1,284.50",),
        wrong="Tiffanie's invoice is number #4471.",
    ),
    "mail-02": Person(_mail_02, "Bạn có 5 thư chưa đọc.", wrong="Bạn có 15 thư chưa đọc."),
    "mail-03": Person(_mail_03),
    "mail-04": Person(_mail_04),
    "mail-05": Person(
        _mail_05,
        "Helen báo từ 1 tháng 7 năm 2027 tiền thuê nhà tăng từ 950 EUR lên 1,020 EUR vì "
        "phí bảo hiểm tòa nhà tăng.",
        ("1,020 EUR", "1 July 2027"),
        wrong="Helen viết thư về tiền thuê nhà.",
    ),
    "travel-01": Person(_travel_01),
    "travel-02": Person(
        _travel_02,
        "EuroJet is the cheapest: flight EJ 88 costs $74 per person.",
        ("EuroJet", "$74"),
        wrong="Channel Air is the cheapest, at $89.",
    ),
    "travel-03": Person(
        _travel_03,
        "Chuyến bay thẳng sớm nhất là VietSky VS 120, cất cánh lúc 06:10.",
        ("06:10",),
        wrong="Chuyến sớm nhất cất cánh lúc 05:05.",
    ),
}


async def _saas_05_breaks(p: Page) -> None:
    await p.get_by_role("link", name="Choose Business").click()
    await saas_signup(p, "Carol Ng", "carol@example.com", "Tulip-7781", "business")


async def _shop_05_breaks(p: Page) -> None:
    await shop_add(p, "teapot", "Glass Teapot", 1)


async def _account_04_breaks(p: Page) -> None:
    await p.get_by_role("button", name="Clean up").click()
    await p.get_by_role("dialog").get_by_role("button", name="Clean up").click()


async def _travel_04_breaks(p: Page) -> None:
    await travel_search(p, "Berlin", "Hanoi", "2027-06-01")
    await travel_book(p)


DEV_REFUSAL: dict[str, Refusal] = {
    "saas-05": Refusal(
        "No plan fits: Business allows at most 50 users, and Enterprise, for more than 50 users, "
        "has custom pricing, so I did not sign you up.",
        _saas_05_breaks,
    ),
    "shop-05": Refusal(
        "There is no purple teapot in the shop: a search for it finds no products.", _shop_05_breaks
    ),
    "account-04": Refusal(
        "I did not free up space: the only option, Clean up, permanently deletes every file in "
        "Archive (12.4 GB).",
        _account_04_breaks,
    ),
    "travel-04": Refusal(
        "There is no direct flight from Berlin to Hanoi on 1 June 2027: every flight has 1 stop "
        "(Doha, Istanbul or Singapore).",
        _travel_04_breaks,
    ),
}


async def test_every_dev_site_task_has_a_person_or_a_refusal() -> None:
    dev = {t.task_id: t for t in TASKS if t.split == "dev"}
    assert set(dev) == set(DEV_PERSON) | set(DEV_REFUSAL)
    assert all(not dev[k].satisfiable for k in DEV_REFUSAL) and all(dev[k].satisfiable for k in DEV_PERSON)


@pytest.mark.parametrize("task_id", sorted(DEV_PERSON))
async def test_a_persons_clicks_solve_each_dev_site_task(chromium: Browser, task_id: str) -> None:
    await person_solves(chromium, task_id, DEV_PERSON[task_id])


@pytest.mark.parametrize("task_id", sorted(DEV_REFUSAL))
async def test_a_refusal_that_says_why_solves_each_dev_task_the_page_cannot_satisfy(
    chromium: Browser, task_id: str
) -> None:
    await refusal_solves(chromium, task_id, DEV_REFUSAL[task_id])
