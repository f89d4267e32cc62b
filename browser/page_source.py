"""Reading pages for research: a page's rendered HTML after navigation, and a URL's raw bytes.

Research tools need the DOM as HTML (for main-text extraction and tables) and the bytes of files a
tab would not render (PDFs). Both go through the session, so the URL policy applies: a navigation
is checked before it starts and every request passes the context route; a byte fetch checks the
URL and every redirect hop itself, because the context's request API bypasses page routes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, runtime_checkable
from urllib.parse import urljoin

from playwright.async_api import Error, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browser.capture import capture
from browser.error_words import error_line
from browser.models import Contract, PageCapture
from browser.navigation import open_url
from browser.session import BrowserSession

MAX_BODY_BYTES = 20 * 1024 * 1024
MAX_REDIRECTS = 5
_RETRYABLE_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})


class PageHtml(Contract):
    """A page as the browser rendered it: where it ended up, its status, title and serialised DOM."""

    requested_url: str
    url: str
    status: int | None = None
    title: str = ""
    html: str = ""
    #: The page's masked picture, when one was asked for (the window's Live view shows reads).
    screenshot_path: str | None = None


class FetchedBody(Contract):
    """The raw bytes behind a URL (after redirects), with the content type the server declared."""

    requested_url: str
    url: str
    status: int
    content_type: str = ""
    body: bytes = b""


class PageLoadError(Exception):
    """The page could not be read; `retryable` says whether trying again may help (timeouts, 5xx)."""

    def __init__(self, reason: str, *, url: str, retryable: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.url = url
        self.retryable = retryable


class UrlRefused(PageLoadError):
    """The URL policy refused the URL or a redirect hop; never retryable."""

    def __init__(self, reason: str, *, url: str) -> None:
        super().__init__(reason, url=url, retryable=False)


@runtime_checkable
class PageSource(Protocol):
    """What research needs from a browser beyond BrowserDriver: HTML of a page, bytes of a URL."""

    async def load_page(
        self, url: str, *, new_tab: bool = False, timeout_ms: float | None = None, picture: Path | None = None
    ) -> PageHtml: ...

    async def fetch_body(self, url: str, *, timeout_ms: float | None = None) -> FetchedBody: ...

    async def current_page(self) -> PageHtml: ...


async def load_page(
    session: BrowserSession,
    url: str,
    *,
    new_tab: bool = False,
    timeout_ms: float | None = None,
    picture: Path | None = None,
) -> PageHtml:
    """Navigates the active tab (or a throwaway tab, so background reads leave it alone) and reads it;
    with `picture`, also takes its masked screenshot there."""
    reason = session.url_policy.check(url)
    if reason is not None:
        raise UrlRefused(reason, url=url)
    timeout = float(timeout_ms or session.navigation_timeout_ms)
    page: Page = await session.new_tab() if new_tab else session.page
    mark = len(session.guard_events)
    try:
        with session.quarantine.own(url):  # Waypost's own navigation may leave a quarantine
            response = await open_url(page, url, wait_until="load", timeout_ms=timeout)
        status = response.status if response is not None else None
        if status is not None and status >= 400:
            raise PageLoadError(f"HTTP {status} for {url}", url=url, retryable=status in _RETRYABLE_STATUS)
        html = await page.content()
        shot = await _picture(session, page, picture) if picture is not None else None
        if shot is not None and not new_tab:
            session.last_picture = shot
        return PageHtml(
            requested_url=url,
            url=page.url,
            status=status,
            title=await page.title(),
            html=html,
            screenshot_path=shot.screenshot_path if shot is not None else None,
        )
    except PlaywrightTimeout as exc:
        raise PageLoadError(f"timed out loading {url}: {error_line(exc)}", url=url, retryable=True) from exc
    except Error as exc:
        if not session.alive:
            raise  # the browser went away: the driver's BrowserLost, not a page that failed to load
        refused = [e.detail for e in session.guard_events[mark:] if e.kind == "url"]
        if refused:
            raise UrlRefused(refused[0], url=url) from exc
        raise PageLoadError(f"could not load {url}: {error_line(exc)}", url=url) from exc
    finally:
        if new_tab:
            await page.close()


async def _picture(session: BrowserSession, page: Page, path: Path) -> PageCapture | None:
    """The read page's masked screenshot (browser/capture.py) with the state it shows; none when the
    page will not give one."""
    vault = session.vault
    try:
        shot = await capture(page, path=path, redact=vault.redact, secrets=vault.redactor.values())
    except (PlaywrightTimeout, Error):
        return None
    return shot if shot.screenshot_path is not None else None


async def current_page(session: BrowserSession) -> PageHtml:
    """The active tab as it is now, without navigating (EXTRACT_DOM after an ACT keeps its state)."""
    page = session.page
    try:
        return PageHtml(
            requested_url=page.url, url=page.url, title=await page.title(), html=await page.content()
        )
    except Error as exc:
        raise PageLoadError(f"could not read the current page: {error_line(exc)}", url=page.url) from exc


async def fetch_body(session: BrowserSession, url: str, *, timeout_ms: float | None = None) -> FetchedBody:
    """GETs `url` with the context's cookies, following redirects itself so each hop meets the policy."""
    timeout = float(timeout_ms or session.navigation_timeout_ms)
    current = url
    for _ in range(MAX_REDIRECTS + 1):
        reason = session.url_policy.check(current)
        if reason is not None:
            raise UrlRefused(reason, url=current)
        try:
            response = await session.context.request.get(current, timeout=timeout, max_redirects=0)
            headers = response.headers
            location = headers.get("location")
            if 300 <= response.status < 400 and location:
                current = urljoin(current, location)
                continue
            if response.status >= 400:
                raise PageLoadError(
                    f"HTTP {response.status} for {current}",
                    url=current,
                    retryable=response.status in _RETRYABLE_STATUS,
                )
            body = await response.body()
        except PlaywrightTimeout as exc:
            raise PageLoadError(f"timed out fetching {current}", url=current, retryable=True) from exc
        except Error as exc:
            raise PageLoadError(f"could not fetch {current}: {error_line(exc)}", url=current) from exc
        if len(body) > MAX_BODY_BYTES:
            raise PageLoadError(f"{current} is larger than {MAX_BODY_BYTES} bytes", url=current)
        return FetchedBody(
            requested_url=url,
            url=current,
            status=response.status,
            content_type=headers.get("content-type", ""),
            body=body,
        )
    raise PageLoadError(f"more than {MAX_REDIRECTS} redirects from {url}", url=url)
