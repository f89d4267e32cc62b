"""DOM hashes and page captures: stable across reloads, sensitive to typing, masked screenshots."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from browser.capture import plain_screenshot
from browser.dom_hash import normalised_dom
from browser.driver import PlaywrightDriver
from receipts.png import compact_png
from tests.integration.browser._helpers import act
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_reload_of_an_unchanged_page_keeps_the_hash(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    for path in ("/form.html", "/shadow.html", "/iframe.html", "/prices.html"):
        await act(driver, "navigate", url=site.url(path))
        before = await driver.dom_hash()
        await driver.observe()  # the index markers it leaves must not count
        await driver.session.page.reload()
        assert await driver.dom_hash() == before, path


async def test_typing_checking_and_selecting_change_the_hash(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    seen = {await driver.dom_hash()}
    await act(driver, "fill", target={"label": "Full name"}, value="A")
    seen.add(await driver.dom_hash())
    await act(driver, "check", target={"label": "Subscribe to the newsletter"})
    seen.add(await driver.dom_hash())
    await act(driver, "select", target={"label": "Country"}, value="Germany")
    seen.add(await driver.dom_hash())
    assert len(seen) == 4
    await act(driver, "fill", target={"label": "Full name"}, value="")
    await act(driver, "check", target={"label": "Subscribe to the newsletter"}, checked=False)
    await act(driver, "select", target={"label": "Country"}, value="")
    await act(driver, "navigate", url=site.url("/form.html"))
    assert await driver.dom_hash() in seen


async def test_password_changes_the_hash_but_never_enters_it(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/login.html"))
    empty = await driver.dom_hash()
    await act(driver, "fill", target={"label": "Password"}, value="s3cr3t-value")
    assert await driver.dom_hash() != empty
    assert "s3cr3t-value" not in await normalised_dom(driver.session.page)


async def test_capture_masks_password_fields_in_screenshots(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    page = driver.session.page
    await act(driver, "navigate", url=site.url("/login.html"))
    await act(driver, "fill", target={"label": "Password"}, value="aaaa")
    first = await driver.capture()
    raw_first = await page.screenshot(animations="disabled", caret="hide")
    await act(driver, "fill", target={"label": "Password"}, value="bbbbbbbbbbbbbbbbbbbb")
    second = await driver.capture()
    raw_second = await page.screenshot(animations="disabled", caret="hide")
    assert raw_first != raw_second  # unmasked, the dots differ: the comparison below can fail
    assert first.screenshot is not None
    assert first.screenshot == second.screenshot
    assert first.screenshot.startswith(b"\x89PNG")
    assert first.dom_hash != second.dom_hash
    assert (first.url, first.title) == (site.url("/login.html"), "Sign in")


async def test_capture_can_write_the_screenshot_to_a_file(
    driver: PlaywrightDriver, site: FixtureSite, tmp_path
) -> None:
    await act(driver, "navigate", url=site.url("/prices.html"))
    shot = tmp_path / "shot.png"
    capture = await driver.capture(path=shot)
    assert capture.screenshot is None
    assert capture.screenshot_path == str(shot)
    assert shot.read_bytes().startswith(b"\x89PNG")
    no_shot = await driver.capture(screenshot=False)
    assert no_shot.screenshot is None
    assert no_shot.dom_hash == capture.dom_hash


async def test_a_capture_without_screenshot_hashes_like_dom_hash(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    for path in ("/prices.html", "/iframe.html", "/shadow.html"):
        await act(driver, "navigate", url=site.url(path))
        capture = await driver.capture(screenshot=False)
        assert capture.dom_hash == await driver.dom_hash(), path
        assert capture.title == await driver.session.page.title()
        shot = await driver.capture()
        assert shot.screenshot is not None and shot.screenshot.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("path", "mark"),
    [
        ("/iframe.html", "document.getElementById('nl-email').setAttribute('data-sensitive', '')"),
        (
            "/shadow.html",
            "document.querySelector('coupon-widget').shadowRoot.getElementById('code')"
            ".setAttribute('data-sensitive', '')",
        ),
    ],
    ids=["iframe", "shadow_root"],
)
async def test_sensitive_fields_in_frames_and_shadow_roots_are_masked(
    driver: PlaywrightDriver, site: FixtureSite, path: str, mark: str
) -> None:
    page = driver.session.page
    await act(driver, "navigate", url=site.url(path))
    frame = page.frames[-1]  # the iframe's form, or the main frame of the shadow page
    field = frame.locator("#nl-email, #code")
    await frame.evaluate(mark)
    shots, raws = [], []
    for value in ("a@b.io", "a-much-longer-value@example.org"):
        await field.fill(value)
        capture = await driver.capture()
        shots.append(capture.screenshot)
        raws.append(await page.screenshot(animations="disabled", caret="hide"))
    assert raws[0] != raws[1]  # unmasked, the typed text shows
    assert shots[0] is not None and shots[0] == shots[1]


async def test_a_stored_screenshot_is_smaller_with_the_same_pixels(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    for path in ("/order_desk.html", "/prices.html", "/form.html"):
        await act(driver, "navigate", url=site.url(path))
        fast = await plain_screenshot(driver.session.page)  # Chromium's fast PNG, as a run stores it
        small = compact_png(fast)
        assert len(small) < len(fast), path
        decoded = [
            QImage.fromData(data).convertToFormat(QImage.Format.Format_RGBA8888) for data in (fast, small)
        ]
        assert not decoded[0].isNull() and decoded[0] == decoded[1], path
