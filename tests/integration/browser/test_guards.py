"""Guards enforced in the browser: URL policy and the submit guard, proved by the server's POST count."""

from __future__ import annotations

import pytest

from browser.driver import PlaywrightDriver
from browser.models import OutcomeStatus
from browser.options import BrowserPolicy
from tests.integration.browser._helpers import act
from tests.support.make_driver import MakeDriver
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

NO_SUBMIT = [BrowserPolicy(no_submit=True), BrowserPolicy(blocked_actions=["Submit"])]


@pytest.mark.parametrize(
    "url", ["file:///etc/passwd", "data:text/html,<h1>x</h1>", "javascript:alert(1)", "chrome://version"]
)
async def test_refused_schemes_are_blocked_before_navigating(
    driver: PlaywrightDriver, site: FixtureSite, url: str
) -> None:
    await act(driver, "navigate", url=site.url("/index.html"))
    outcome = await act(driver, "navigate", url=url)
    assert outcome.status is OutcomeStatus.BLOCKED
    assert outcome.url_after == site.url("/index.html")


async def test_about_blank_is_allowed_and_schemes_can_be_allowed(
    make_driver: MakeDriver, site: FixtureSite
) -> None:
    driver = await make_driver(policy=BrowserPolicy(allowed_schemes=["data"]))
    assert (await act(driver, "navigate", url="about:blank")).ok
    allowed = await act(driver, "navigate", url="data:text/html,<title>inline</title>")
    assert allowed.ok
    assert allowed.title_after == "inline"


async def test_domain_allow_list_holds_for_navigate_and_for_clicks(
    make_driver: MakeDriver, site: FixtureSite
) -> None:
    driver = await make_driver(policy=BrowserPolicy(allowed_domains=["127.0.0.1"]))
    other_host = site.url("/form.html").replace("127.0.0.1", "localhost")
    refused = await act(driver, "navigate", url=other_host)
    assert refused.status is OutcomeStatus.BLOCKED
    assert "allow-list" in refused.message

    await act(driver, "navigate", url=site.url("/index.html"))
    await driver.session.page.evaluate(
        """url => { const a = document.createElement('a'); a.href = url; a.textContent = 'Elsewhere';
                    document.body.appendChild(a); }""",
        other_host,
    )
    async with driver.session.page.expect_event("requestfailed") as failed:
        click = await act(driver, "click", target={"text": "Elsewhere"})
    assert (await failed.value).url == other_host
    assert not driver.url.startswith("http://localhost")
    assert any(e.kind == "url" and e.url == other_host for e in driver.guard_events)
    assert click.status in {OutcomeStatus.BLOCKED, OutcomeStatus.OK}  # the click itself happened


@pytest.mark.parametrize("policy", NO_SUBMIT, ids=["no_submit", "blocked_submit"])
async def test_no_post_leaves_the_page_with_submit_blocked(
    make_driver: MakeDriver, site: FixtureSite, policy: BrowserPolicy
) -> None:
    driver = await make_driver(policy=policy)
    site.clear_posts()
    await act(driver, "navigate", url=site.url("/signup.html"))
    await act(driver, "fill", target={"label": "Name"}, value="Ann")
    await act(driver, "fill", target={"label": "Email"}, value="a@b.co")

    by_click = await act(driver, "click", target={"role": "button", "name": "Create account"})
    by_enter = await act(driver, "press", target={"label": "Email"}, key="Enter")
    by_script = await act(driver, "click", target={"role": "button", "name": "Submit by script"})
    by_request = await act(driver, "click", target={"role": "button", "name": "Request submit"})
    for outcome in (by_click, by_enter, by_script, by_request):
        assert outcome.status is OutcomeStatus.BLOCKED, outcome
        assert "submit" in outcome.message
    await act(driver, "click", target={"role": "button", "name": "Send by fetch"})
    assert (await act(driver, "wait", text="fetch failed")).ok
    assert any(e.kind == "submit" for e in driver.guard_events)

    # still on the form, nothing received: a later allowed navigation proves the server is up
    assert driver.url == site.url("/signup.html")
    assert (await act(driver, "navigate", url=site.url("/index.html"))).ok
    assert site.post_count() == 0


async def test_enter_in_a_login_password_field_is_blocked(make_driver: MakeDriver, site: FixtureSite) -> None:
    driver = await make_driver(policy=BrowserPolicy(no_submit=True))
    site.clear_posts()
    await act(driver, "navigate", url=site.url("/login.html"))
    await act(driver, "fill", target={"label": "Password"}, value="pw")
    outcome = await act(driver, "press", target={"label": "Password"}, key="Enter")
    assert outcome.status is OutcomeStatus.BLOCKED
    assert site.post_count("/login") == 0


async def test_submit_goes_through_when_allowed(driver: PlaywrightDriver, site: FixtureSite) -> None:
    site.clear_posts()
    await act(driver, "navigate", url=site.url("/signup.html"))
    await act(driver, "fill", target={"label": "Name"}, value="Ann")
    outcome = await act(driver, "click", target={"role": "button", "name": "Create account"})
    assert outcome.ok
    assert (await act(driver, "wait", text="Received")).ok
    assert site.post_count("/signup") == 1
    assert site.post_bodies("/signup")[0].startswith(b"name=Ann")


async def test_a_refused_subresource_is_recorded_but_does_not_block_the_action(
    make_driver: MakeDriver, site: FixtureSite
) -> None:
    driver = await make_driver(policy=BrowserPolicy(allowed_domains=["127.0.0.1"]))
    await act(driver, "navigate", url=site.url("/index.html"))
    image = site.url("/files/report.csv").replace("127.0.0.1", "localhost")
    page = driver.session.page
    async with page.expect_event("requestfailed") as failed:
        await page.evaluate(
            "url => { const i = new Image(); i.src = url; document.body.appendChild(i); }", image
        )
    assert (await failed.value).url == image
    event = next(e for e in driver.guard_events if e.url == image)
    assert not event.navigation
    assert (await act(driver, "click", target={"text": "Labelled form"})).ok
