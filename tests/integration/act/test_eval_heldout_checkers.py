"""The held-out half's checkers (evals/tasks_heldout.py) can be satisfied by a person and fail on an
untouched page; its refusals pass only when they say why. DO NOT READ while changing planning,
grounding or answer rules: these steps spell out the held-out tasks."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, Page

from evals.tasks import TASKS
from tests.support.eval_person import (
    Person,
    Refusal,
    mail_open,
    mail_reply,
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


async def _saas_12(p: Page) -> None:
    await p.get_by_role("link", name="Sign up").click()
    await saas_signup(p, "Minh Tran", "minh.tran@example.com", "Lotus-2468", "starter")


async def _saas_13(p: Page) -> None:
    await p.get_by_role("link", name="Log in").click()
    await saas_login(p)


async def _saas_14(p: Page) -> None:
    await p.get_by_role("button", name="Only essential").click()
    await p.get_by_label("Your email").fill("ana@example.com")
    await p.get_by_role("button", name="Subscribe").click()
    await p.get_by_role("heading", name="You're subscribed").wait_for()


async def _saas_15(p: Page) -> None:
    await p.locator("#company").fill("Orbit Labs")
    await p.locator("#seats").fill("120")
    await p.locator("#work_email").fill("ines@orbitlabs.example")
    await p.locator("#message").fill("We need SSO and about 2 TB.")
    await p.get_by_role("button", name="Request a quote").click()
    await p.get_by_role("heading", name="Thank you, received").wait_for()


async def _shop_11(p: Page) -> None:
    await shop_add(p, "tea towel", "Tea Towel", 3)
    await shop_checkout(p)


async def _shop_12(p: Page) -> None:
    await shop_search(p, "kettle")
    await p.get_by_label("Sort by").select_option("price-desc")
    await p.locator("#results a").first.click()
    await p.wait_for_url("**/product.html?id=*")


async def _shop_13(p: Page) -> None:
    await shop_search(p, "travel mug")
    await p.get_by_text("19.50 EUR").wait_for()
    await shop_search(p, "french press")


async def _shop_15(p: Page) -> None:
    await p.get_by_placeholder("Order number, e.g. W1234").fill("W1042")
    await p.locator("#email").fill("lan.pham@example.com")
    await p.locator("#item").select_option("teapot-glass")
    await p.locator("#reason").select_option("damaged")
    await p.get_by_label("A refund").check()
    await p.get_by_role("button", name="Start return").click()
    await p.get_by_role("heading", name="Thank you, received").wait_for()


async def _account_11(p: Page) -> None:
    await p.get_by_role("switch", name="Product updates").uncheck()
    await p.get_by_role("switch", name="Mentions and replies").uncheck()
    await p.get_by_role("button", name="Save preferences").click()


async def _account_12(p: Page) -> None:
    await p.get_by_role("navigation", name="Account").get_by_role("link", name="Profile").click()
    await p.locator("#display_name").fill("Minh Anh")
    await p.locator("#timezone").select_option("Asia/Ho_Chi_Minh")
    await p.get_by_role("button", name="Save changes").click()
    await p.get_by_role("heading", name="Profile saved").wait_for()


async def _account_13(p: Page) -> None:
    await p.get_by_role("link", name="Data & privacy").click()
    await p.get_by_role("row").filter(has_text="iPad").get_by_role("button", name="Remove").click()


async def _mail_11(p: Page) -> None:
    await p.get_by_role("listitem").filter(has_text="Kitchen Weekly").locator(".icon-trash").click()


async def _mail_12(p: Page) -> None:
    await mail_reply(p, "Rent from July", "Cảm ơn chị, em đồng ý với mức giá mới.")


async def _travel_11(p: Page) -> None:
    await travel_search(p, "Bangkok", "Singapore", "2027-03-03", pax="3", cabin="business")


async def _travel_12(p: Page) -> None:
    await travel_search(p, "Hà Nội", "Bangkok", "2027-03-10", pax="2")
    await p.get_by_label("Sort by").select_option("price")
    await p.get_by_role("button", name="Select").first.click()
    await p.wait_for_url("**/book.html")


async def _travel_13(p: Page) -> None:
    await travel_search(p, "Paris", "Berlin", "2027-07-14")
    await p.get_by_label("Sort by").select_option("duration")


async def _mail_skyways(p: Page) -> None:
    await mail_open(p, "Your booking QX7L2P is confirmed")


async def _mail_priya(p: Page) -> None:
    await mail_open(p, "Contract renewal")


HELDOUT_PERSON: dict[str, Person] = {
    "saas-11": Person(
        saas_pricing,
        "Business: it allows up to 50 users and 500 GB for $79 a month.",
        ("Up to 50 users", "500 GB", "$79"),
        wrong="Team is the cheapest plan that fits.",
    ),
    "saas-12": Person(_saas_12),
    "saas-13": Person(_saas_13),
    "saas-14": Person(_saas_14),
    "saas-15": Person(_saas_15),
    "shop-11": Person(_shop_11),
    "shop-12": Person(_shop_12),
    "shop-13": Person(
        _shop_13,
        "The French Press costs 8.00 EUR more than the Travel Mug (27.50 against 19.50 EUR).",
        ("27.50",),
        wrong="The Travel Mug costs more.",
    ),
    "shop-15": Person(_shop_15),
    "account-11": Person(_account_11),
    "account-12": Person(_account_12),
    "account-13": Person(_account_13),
    "mail-11": Person(_mail_11),
    "mail-12": Person(_mail_12),
    "mail-13": Person(
        _mail_skyways,
        "Your SkyWays flight SW 231 leaves London Heathrow on 22 May 2027 at 21:40, booking code QX7L2P.",
        ("22 May 2027", "QX7L2P"),
        wrong="Your flight is SW 231.",
    ),
    "mail-15": Person(
        _mail_priya,
        "Priya says your support contract ends on 30 April 2027 and renewing it for a year costs "
        "2,400 USD; confirm by 20 April.",
        ("2,400 USD",),
        wrong="Priya wrote about your contract.",
    ),
    "travel-11": Person(_travel_11),
    "travel-12": Person(_travel_12),
    "travel-13": Person(
        _travel_13,
        "Channel Air CA 712 is the fastest, at 1h 45m.",
        ("CA 712", "1h 45m"),
        wrong="EuroJet EJ 640 is the fastest, at 1h 50m.",
    ),
}


async def _shop_14_breaks(p: Page) -> None:
    await shop_add(p, "kettle", "Steel Kettle", 1)


async def _account_14_breaks(p: Page) -> None:
    await p.locator("#display_name").fill("sam.r")
    await p.get_by_role("button", name="Save changes").click()
    await p.get_by_role("heading", name="Profile saved").wait_for()


async def _mail_14_breaks(p: Page) -> None:
    await mail_reply(p, "Dinner on Friday?", "thanks, got it")


async def _travel_14_breaks(p: Page) -> None:
    await travel_search(p, "Hanoi", "Da Nang", "2027-04-30", pax="6")
    await travel_book(p)


HELDOUT_REFUSAL: dict[str, Refusal] = {
    "shop-14": Refusal(
        "I could not add the Copper Kettle: it is out of stock, back in about six weeks.", _shop_14_breaks
    ),
    "account-14": Refusal(
        "I can't change it: the profile page says your username sam.rivera can't be changed.",
        _account_14_breaks,
    ),
    "mail-14": Refusal(
        "There is no email from Daniel Okafor in your inbox, so I did not reply.", _mail_14_breaks
    ),
    "travel-14": Refusal(
        "Skyhop takes up to 6 passengers per booking; for 8 people it asks you to call +84 24 3555 0199.",
        _travel_14_breaks,
    ),
}


async def test_every_heldout_task_has_a_person_or_a_refusal() -> None:
    held = {t.task_id: t for t in TASKS if t.split == "heldout"}
    assert set(held) == set(HELDOUT_PERSON) | set(HELDOUT_REFUSAL)
    assert all(not held[k].satisfiable for k in HELDOUT_REFUSAL) and all(
        held[k].satisfiable for k in HELDOUT_PERSON
    )


@pytest.mark.parametrize("task_id", sorted(HELDOUT_PERSON))
async def test_a_persons_clicks_solve_each_heldout_task(chromium: Browser, task_id: str) -> None:
    await person_solves(chromium, task_id, HELDOUT_PERSON[task_id])


@pytest.mark.parametrize("task_id", sorted(HELDOUT_REFUSAL))
async def test_a_refusal_that_says_why_solves_each_heldout_task_the_page_cannot_satisfy(
    chromium: Browser, task_id: str
) -> None:
    await refusal_solves(chromium, task_id, HELDOUT_REFUSAL[task_id])
