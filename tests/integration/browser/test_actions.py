"""Every action kind against the fixture site in a real headless Chromium."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from browser.driver import PlaywrightDriver
from browser.models import OutcomeStatus
from tests.integration.browser._helpers import act, text_of
from tests.support.site import SITE_DIR, FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_navigate_reports_status_url_and_title(driver: PlaywrightDriver, site: FixtureSite) -> None:
    outcome = await act(driver, "navigate", url=site.url("/form.html"))
    assert outcome.status is OutcomeStatus.OK
    assert outcome.message == "HTTP 200"
    assert outcome.url_after == site.url("/form.html")
    assert outcome.title_after == "Contact form"
    assert outcome.duration_ms > 0


async def test_fill_select_check_then_click_updates_the_page(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    assert (await act(driver, "fill", target={"label": "Full name"}, value="Ann Lee")).ok
    assert (await act(driver, "fill", target={"label": "Email"}, value="a@b.co")).ok
    select = await act(driver, "select", target={"label": "Country"}, value="France")
    assert select.ok
    assert select.value == "fr"
    assert (await act(driver, "select", target={"label": "Plan"}, value=["pro", "Team"])).ok
    assert (await act(driver, "check", target={"label": "Subscribe to the newsletter"})).ok
    assert (await act(driver, "check", target={"label": "I accept the terms"}, checked=False)).ok
    assert (await act(driver, "check", target={"label": "By phone"})).ok
    click = await act(driver, "click", target={"role": "button", "name": "Save draft"})
    assert click.ok
    assert click.resolved is not None
    assert click.resolved.name == "Save draft"

    page = driver.session.page
    assert await page.locator("#email").input_value() == "a@b.co"
    assert await page.locator("#country").input_value() == "fr"
    assert await page.locator("#plan").evaluate("e => Array.from(e.selectedOptions).map(o => o.value)") == [
        "pro",
        "team",
    ]
    assert await page.locator("#newsletter").is_checked()
    assert not await page.locator("#terms").is_checked()
    assert await text_of(driver, "#status") == "Saved draft for Ann Lee"


async def test_select_tolerates_a_near_miss_and_names_options_on_a_miss(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    near = await act(driver, "select", target={"label": "Country"}, value="Frnace")
    assert near.ok
    assert near.value == "fr"
    miss = await act(driver, "select", target={"label": "Country"}, value="Atlantis")
    assert miss.status is OutcomeStatus.NOT_FOUND
    assert "Germany" in miss.candidates
    wrong = await act(driver, "select", target={"selector": "#email"}, value="x")
    assert wrong.status is OutcomeStatus.ERROR
    assert "not a <select>" in wrong.message


async def test_form_without_labels_by_placeholder_title_and_aria(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/form_nolabels.html"))
    assert (await act(driver, "fill", target={"placeholder": "First name"}, value="Ann")).ok
    assert (await act(driver, "fill", target={"placeholder": "phone NUMBER "}, value="555")).ok
    assert (await act(driver, "fill", target={"label": "Postal code"}, value="10115")).ok
    assert (await act(driver, "fill", target={"selector": "input[name=nickname]"}, value="annie")).ok
    assert (await act(driver, "check", target={"label": "Gift wrap"})).ok
    assert (await act(driver, "select", target={"selector": "select[name=size]"}, value="Large")).ok
    assert (await act(driver, "click", target={"role": "button", "name": "Reset"})).ok
    assert await text_of(driver, "#out") == "Reset done"
    assert (await act(driver, "click", target={"text": "Get quote"})).ok
    assert await text_of(driver, "#out") == "Quote requested"
    page = driver.session.page
    assert await page.locator("input[name=first]").input_value() == "Ann"
    assert await page.locator("input[name=phone]").input_value() == "555"
    assert await page.locator("input[name=zip]").input_value() == "10115"
    assert await page.locator("input[name=gift]").is_checked()


async def test_press_keys_with_and_without_a_target(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    await act(driver, "fill", target={"label": "Full name"}, value="abc")
    assert (await act(driver, "press", target={"label": "Full name"}, key="Backspace")).ok
    assert await driver.session.page.locator("#full-name").input_value() == "ab"
    assert (await act(driver, "press", key="Tab")).ok
    focused = await driver.session.page.evaluate("document.activeElement.id")
    assert focused == "email"


async def test_scroll_page_and_scroll_target_into_view(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/prices.html"))
    down = await act(driver, "scroll", direction="down", amount=500)
    assert down.ok
    assert down.value == "0,500"
    assert (await act(driver, "scroll", target={"text": "End of price list"})).ok
    in_view = await driver.session.page.locator("#footer").evaluate(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    assert in_view


async def test_wait_for_a_late_element_text_url_and_load_state(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/moving.html"))
    assert (await act(driver, "wait", target={"role": "button", "name": "Late button"})).ok
    assert (await act(driver, "click", target={"text": "Late button"})).ok
    assert (await act(driver, "wait", text="Late clicked")).ok
    assert (await act(driver, "wait", url_contains="moving")).ok
    assert (await act(driver, "wait", load_state="load")).ok
    never = await act(driver, "wait", text="This text never appears", timeout_ms=300)
    assert never.status is OutcomeStatus.TIMEOUT


async def test_click_on_a_button_that_moves_after_load(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/moving.html"))
    assert (await act(driver, "click", target={"role": "button", "name": "Continue"})).ok
    assert (await act(driver, "wait", text="Clicked")).ok


async def test_extract_text_table_and_attribute(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/prices.html"))
    text = await act(driver, "extract", what="text", target={"selector": "h1"})
    assert text.value == "Datafeed packages"
    page_text = await act(driver, "extract")
    assert page_text.value is not None
    assert "Prices are per month" in page_text.value
    table = await act(driver, "extract", what="table")
    assert table.table is not None
    assert table.table[0][:3] == ["Package", "Price", "Symbols"]
    assert table.table[2][:2] == ["Pro", "$49"]
    await act(driver, "navigate", url=site.url("/download.html"))
    href = await act(
        driver, "extract", what="attribute", attribute="href", target={"text": "Download report"}
    )
    assert href.value == "/files/report.csv"


async def test_extracting_a_password_value_is_redacted(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/login.html"))
    await act(driver, "fill", target={"label": "Password"}, value="hunter2")
    out = await act(driver, "extract", what="attribute", attribute="value", target={"label": "Password"})
    assert out.value == "[REDACTED]"
    assert "hunter2" not in out.model_dump_json()


async def test_download_is_saved_in_the_downloads_folder_with_its_hash(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await act(driver, "navigate", url=site.url("/download.html"))
    outcome = await act(driver, "download", target={"text": "Download report"})
    assert outcome.ok, outcome.message
    assert outcome.download is not None
    saved = Path(outcome.download.path)
    assert saved.parent == driver.session.downloads_dir
    assert saved.name == "report.csv"
    expected = (SITE_DIR / "files" / "report.csv").read_bytes()
    assert saved.read_bytes() == expected  # noqa: ASYNC240 (a small local file)
    assert outcome.download.sha256 == hashlib.sha256(expected).hexdigest()
    again = await act(driver, "download", target={"text": "Download report"}, save_as="copy.csv")
    assert again.download is not None
    assert Path(again.download.path).name == "copy.csv"


async def test_upload_sets_the_file_input(
    driver: PlaywrightDriver, site: FixtureSite, tmp_path: Path
) -> None:
    doc = tmp_path / "cv.txt"
    doc.write_text("hello")
    await act(driver, "navigate", url=site.url("/upload.html"))
    assert (await act(driver, "upload", target={"label": "Document"}, files=[str(doc)])).ok
    assert (await act(driver, "wait", text="Chosen cv.txt")).ok
    missing = await act(driver, "upload", target={"label": "Document"}, files=[str(tmp_path / "nope")])
    assert missing.status is OutcomeStatus.ERROR


async def test_done_touches_nothing(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/form.html"))
    before = await driver.dom_hash()
    outcome = await act(driver, "done", summary="filled the form")
    assert outcome.ok
    assert outcome.value == "filled the form"
    assert await driver.dom_hash() == before


async def test_three_step_wizard(driver: PlaywrightDriver, site: FixtureSite) -> None:
    await act(driver, "navigate", url=site.url("/wizard1.html"))
    await act(driver, "fill", target={"label": "Email"}, value="w@x.io")
    assert (await act(driver, "click", target={"role": "button", "name": "Next"})).ok
    assert (await act(driver, "wait", url_contains="wizard2")).ok
    await act(driver, "select", target={"label": "Plan"}, value="Pro")
    assert (await act(driver, "click", target={"role": "button", "name": "Next"})).ok
    assert (await act(driver, "wait", url_contains="wizard3")).ok
    assert (await act(driver, "click", target={"role": "button", "name": "Finish"})).ok
    assert (await act(driver, "wait", text="All set")).ok
    assert await text_of(driver, "#r-email") == "w@x.io"
    assert await text_of(driver, "#r-plan") == "pro"


async def test_blocked_action_kind_is_refused_before_touching_the_page(
    make_driver, site: FixtureSite
) -> None:
    from browser.options import BrowserPolicy

    driver = await make_driver(policy=BrowserPolicy(blocked_actions=["download"]))
    await act(driver, "navigate", url=site.url("/download.html"))
    outcome = await act(driver, "download", target={"text": "Download report"})
    assert outcome.status is OutcomeStatus.BLOCKED
    assert not any(driver.session.downloads_dir.glob("*"))
