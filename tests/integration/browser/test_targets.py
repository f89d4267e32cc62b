"""Target resolution on real pages: tolerant matching, misses with candidates, ambiguity, indices."""

from __future__ import annotations

import pytest

from browser.driver import PlaywrightDriver
from browser.models import OutcomeStatus
from tests.integration.browser._helpers import act, text_of
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_case_whitespace_and_near_miss_spellings_resolve(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    assert (await act(driver, "fill", target={"label": "  FULL   name: "}, value="Ann")).ok
    near = await act(driver, "fill", target={"label": "Emial adress"}, value="a@b.co")
    assert near.ok, near.message
    assert near.resolved is not None
    assert near.resolved.selector == "input#email"
    assert near.resolved.score < 1
    assert (await act(driver, "click", target={"role": "BUTTON", "name": "save  DRAFT"})).ok
    assert await text_of(driver, "#status") == "Saved draft for Ann"


async def test_not_found_names_the_closest_candidates(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    miss = await act(driver, "click", target={"role": "button", "name": "Submit order"}, timeout_ms=200)
    assert miss.status is OutcomeStatus.NOT_FOUND
    assert "Save draft" in miss.candidates
    assert "Submit order" in miss.message
    typo = await act(driver, "fill", target={"label": "Telephone"}, value="1", timeout_ms=200)
    assert typo.status is OutcomeStatus.NOT_FOUND
    assert typo.candidates
    assert set(typo.candidates) <= {"Full name", "Email address", "Company", "Message", "Card number"}


async def test_selector_that_matches_nothing_times_out_to_not_found(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    miss = await act(driver, "click", target={"selector": "#no-such-id"}, timeout_ms=200)
    assert miss.status is OutcomeStatus.NOT_FOUND


async def test_equal_matches_are_ambiguous_and_an_index_settles_it(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/prices.html"))
    ambiguous = await act(driver, "click", target={"role": "button", "name": "Buy"})
    assert ambiguous.status is OutcomeStatus.AMBIGUOUS
    assert len(ambiguous.candidates) == 3
    observation = await driver.observe()
    buys = [e for e in observation.elements if e.name == "Buy"]
    assert len(buys) == 3
    # mark which row was clicked, then click the second Buy by its index
    await driver.session.page.evaluate(
        """() => document.querySelectorAll('#prices button').forEach((b, i) =>
             b.addEventListener('click', () => { document.body.dataset.clicked = String(i); }))"""
    )
    outcome = await act(driver, "click", target={"index": buys[1].index})
    assert outcome.ok
    assert outcome.resolved is not None
    assert outcome.resolved.index == buys[1].index
    assert await driver.session.page.evaluate("document.body.dataset.clicked") == "1"


async def test_an_index_not_in_the_last_observation_is_not_found(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    observation = await driver.observe()
    stale = await act(driver, "click", target={"index": len(observation.elements) + 5})
    assert stale.status is OutcomeStatus.NOT_FOUND
    assert "observe" in stale.message


async def test_a_fill_prefers_the_text_box_over_a_radio_with_the_same_word(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    outcome = await act(driver, "fill", target={"label": "email"}, value="x@y.z")
    assert outcome.ok
    assert await driver.session.page.locator("#email").input_value() == "x@y.z"


async def test_targets_inside_an_iframe_and_a_shadow_root(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/iframe.html"))
    fill = await act(driver, "fill", target={"label": "Newsletter email"}, value="n@l.io")
    assert fill.ok
    assert fill.resolved is not None
    assert fill.resolved.frame_url == site.url("/frame_form.html")
    assert (await act(driver, "click", target={"role": "button", "name": "Subscribe"})).ok
    frame = driver.session.page.frames[1]
    await frame.get_by_text("Subscribed n@l.io").wait_for()

    await act(driver, "navigate", url=site.url("/shadow.html"))
    assert (await act(driver, "fill", target={"placeholder": "e.g. SAVE10"}, value="SAVE10")).ok
    assert (await act(driver, "click", target={"role": "button", "name": "Apply coupon"})).ok
    assert (await act(driver, "wait", text="Applied SAVE10")).ok


async def test_a_near_miss_inside_an_iframe_resolves_in_that_frame(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/iframe.html"))
    near = await act(driver, "fill", target={"label": "Newsleter emial"}, value="n@l.io")
    assert near.ok, near.message
    assert near.resolved is not None
    assert near.resolved.frame_url == site.url("/frame_form.html")
    assert near.resolved.score < 1
    assert await driver.session.page.frames[1].locator("#nl-email").input_value() == "n@l.io"
