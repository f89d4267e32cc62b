"""What a person does on the eval's site-like pages, and the proof that a task's checker measures
something: the person's clicks (and answer) solve the task, an untouched page with no answer does
not; for a task the page cannot satisfy, an answer that says why solves it, while SUCCESS, an empty
answer, or the forbidden effect (a post, a deletion) does not."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from playwright.async_api import Browser, Page

from evals.checks import EvalTask, Observed
from evals.site import EvalSite
from evals.tasks import TASKS

Steps = Callable[[Page], Awaitable[None]]


async def nothing(page: Page) -> None:
    """No action: the person only reads the first page."""


# Steps several tasks share: the ways through each site a person takes.


async def saas_pricing(p: Page) -> None:
    await p.get_by_role("navigation", name="Main").get_by_role("link", name="Pricing").click()
    await p.wait_for_url("**/pricing.html")


async def shop_search(p: Page, query: str) -> None:
    await p.get_by_placeholder("Search the shop").fill(query)
    await p.get_by_placeholder("Search the shop").press("Enter")
    await p.wait_for_url("**/search.html?q=*")


async def shop_add(p: Page, query: str, name: str, qty: int) -> None:
    await shop_search(p, query)
    await p.get_by_role("link", name=name, exact=True).click()
    await p.locator("#qty").fill(str(qty))
    await p.get_by_role("button", name="Add to cart").click()
    await p.get_by_role("status").get_by_text("to your cart").wait_for()


async def travel_search(p: Page, origin: str, to: str, date: str, pax: str = "1", cabin: str = "") -> None:
    await p.get_by_placeholder("From").fill(origin)
    await p.get_by_placeholder("To").fill(to)
    await p.locator("#depart").fill(date)
    await p.locator("#pax").select_option(pax)
    if cabin:
        await p.locator("#cabin").select_option(cabin)
    await p.get_by_role("button", name="Search flights").click()
    await p.wait_for_url("**/results.html?*")


async def mail_open(p: Page, subject: str) -> None:
    await p.get_by_role("link", name=subject).click()
    await p.wait_for_url("**/message.html?id=*")


async def saas_signup(p: Page, name: str, email: str, password: str, plan: str) -> None:
    await p.locator("#fullname").fill(name)
    await p.locator("#workemail").fill(email)
    await p.locator("#password").fill(password)
    await p.locator("#plan").select_option(plan)
    await p.get_by_role("button", name="Create account").click()
    await p.get_by_role("heading", name=f"Welcome to Cloudlet, {name}!").wait_for()


async def saas_login(p: Page) -> None:
    await p.locator("#username").fill("carol")
    await p.locator("#password").fill("Tulip-7781")
    await p.get_by_role("button", name="Log in").click()
    await p.get_by_role("heading", name="Welcome back, carol").wait_for()


async def shop_checkout(p: Page) -> None:
    """From a product page with the cart filled, through the cart to the checkout form."""
    await p.get_by_role("link", name="Cart", exact=True).click()
    await p.get_by_role("link", name="Go to checkout").click()
    await p.get_by_role("heading", name="Checkout").wait_for()


async def mail_reply(p: Page, subject: str, text: str) -> None:
    await mail_open(p, subject)
    await p.get_by_role("button", name="Reply").click()
    await p.get_by_placeholder("Write your reply...").fill(text)
    await p.get_by_role("button", name="Send").click()
    await p.get_by_role("heading", name="Message sent").wait_for()


async def travel_book(p: Page) -> None:
    """On a results page: the first flight, booked for Sam Rivera."""
    await p.get_by_role("button", name="Select").first.click()
    await p.get_by_placeholder("First name").fill("Sam")
    await p.get_by_placeholder("Last name").fill("Rivera")
    await p.locator("#email").fill("sam@example.com")
    await p.get_by_role("button", name="Continue to payment").click()
    await p.get_by_role("heading", name="Seats held for Sam Rivera").wait_for()


@dataclass(frozen=True)
class Person:
    """A satisfiable task done by hand: the clicks, then the answer a person would give, the text
    the last page must show for that answer to be true, and a plausible wrong answer."""

    steps: Steps
    answer: str = ""
    shows: tuple[str, ...] = ()
    wrong: str = ""


@dataclass(frozen=True)
class Refusal:
    """A task the page cannot satisfy: the answer that says why, and (where the task forbids an
    effect) the clicks that would cause it."""

    answer: str
    breaks: Steps | None = None


def task(task_id: str) -> EvalTask:
    return next(t for t in TASKS if t.task_id == task_id)


async def _open(chromium: Browser, site: EvalSite, job: EvalTask) -> Page:
    context = await chromium.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    await page.goto(site.url(job.page))
    assert site.observe(job).last, "state.js reported nothing on load"
    return page


async def person_solves(chromium: Browser, task_id: str, person: Person) -> None:
    job = task(task_id)
    assert job.satisfiable
    with EvalSite() as site:
        page = await _open(chromium, site, job)
        try:
            assert not job.check(site.observe(job, answer="", status="SUCCESS")), "passes untouched"
            await person.steps(page)
            text = await page.locator("body").inner_text()
            for fact in person.shows:
                assert fact in text, f"the page does not show {fact!r}"
            seen = site.observe(job, answer=person.answer, status="SUCCESS")
            assert job.solved(seen), (seen.store, seen.sent, seen.last, seen.pages)
            assert not job.solved(site.observe(job, answer=person.answer, status="PARTIAL"))
            if person.wrong:
                assert not job.check(site.observe(job, answer=person.wrong, status="SUCCESS"))
        finally:
            await page.context.close()


async def refusal_solves(chromium: Browser, task_id: str, refusal: Refusal) -> None:
    job = task(task_id)
    assert not job.satisfiable
    with EvalSite() as site:
        page = await _open(chromium, site, job)
        try:

            def seen(answer: str, status: str) -> Observed:
                return site.observe(job, answer=answer, status=status)

            assert job.solved(seen(refusal.answer, "FAILED"))
            assert job.solved(seen(refusal.answer, "NEEDS_CLARIFICATION"))
            assert not job.solved(seen(refusal.answer, "SUCCESS"))
            assert not job.solved(seen("", "FAILED"))
            assert not job.solved(seen("Ran 1 steps; no evidence was gathered.", "FAILED"))
            if refusal.breaks is not None:
                await refusal.breaks(page)
                assert not job.check(seen(refusal.answer, "FAILED")), "the forbidden effect went unseen"
        finally:
            await page.context.close()
