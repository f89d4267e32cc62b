"""PageSource (browser/page_source.py): rendered HTML, raw bytes and the current tab, under the policy."""

from __future__ import annotations

import socket

import pytest

from browser.driver import PlaywrightDriver
from browser.options import BrowserPolicy
from browser.page_source import PageLoadError, PageSource, UrlRefused
from tests.support.make_driver import MakeDriver
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_load_page_returns_the_rendered_dom(driver: PlaywrightDriver, site: FixtureSite) -> None:
    assert isinstance(driver, PageSource)
    page = await driver.load_page(site.url("/research/search.html?q=acme+pricing"))
    assert page.status == 200
    assert page.title == "Fixture search"
    assert 'class="result__a"' in page.html  # written by the page's script, so this is the live DOM
    assert driver.url == page.url


async def test_a_background_tab_leaves_the_active_tab_alone(
    driver: PlaywrightDriver, site: FixtureSite
) -> None:
    await driver.load_page(site.url("/research/acme/pricing.html"))
    other = await driver.load_page(site.url("/research/gamma/pricing.html"), new_tab=True)
    assert other.title == "Gamma Quotes - Market data plans"
    assert driver.url == site.url("/research/acme/pricing.html")
    assert len(driver.session.tabs) == 1
    current = await driver.current_page()
    assert current.title == "Acme Data - Datafeed pricing and packages"


async def test_http_errors_and_refusals(make_driver: MakeDriver, site: FixtureSite) -> None:
    driver = await make_driver(BrowserPolicy(allowed_domains=["127.0.0.1"]))
    with pytest.raises(PageLoadError, match="HTTP 404") as missing:
        await driver.load_page(site.url("/research/none.html"))
    assert not missing.value.retryable
    with pytest.raises(UrlRefused, match="refused file"):
        await driver.load_page("file:///etc/passwd")
    with pytest.raises(UrlRefused, match="allow-list"):
        await driver.fetch_body("http://localhost:1/terms.pdf")
    with pytest.raises(PageLoadError, match="HTTP 404"):
        await driver.fetch_body(site.url("/research/none.pdf"))


async def test_a_page_that_never_loads_is_said_in_words(driver: PlaywrightDriver) -> None:
    """Before: "could not load http://127.0.0.1:9/: Page.goto: net::ERR_UNSAFE_PORT at http://..."."""
    with socket.socket() as free:  # a port nothing listens on once it is closed
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(PageLoadError) as refused:
        await driver.load_page(f"http://127.0.0.1:{port}/")
    assert str(refused.value) == (
        f"could not load http://127.0.0.1:{port}/: nothing is listening at that address "
        "(net::ERR_CONNECTION_REFUSED)"
    )
    with pytest.raises(PageLoadError, match=r"refuses that port, .*\(net::ERR_UNSAFE_PORT\)$") as unsafe:
        await driver.load_page("http://127.0.0.1:9/")
    assert "Page.goto" not in str(unsafe.value)


async def test_fetch_body_gets_a_pdf_as_bytes(driver: PlaywrightDriver, site: FixtureSite) -> None:
    body = await driver.fetch_body(site.url("/research/beta/terms.pdf"))
    assert body.status == 200
    assert body.content_type == "application/pdf"
    assert body.body.startswith(b"%PDF-")
    assert body.url == site.url("/research/beta/terms.pdf")
