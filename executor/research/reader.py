"""Reader: how research steps read a URL through the run's browser, with receipts, a per-run cache
and the source budget.

- Every read is written to the run's receipts (URL, time, content hash) before it is used, so an
  answer can be traced to exactly what was read.
- Pages read by one step (RETRIEVE) are cached for the run, so FETCH_DATA over the same evidence
  neither loads them again nor counts them twice against max_sources.
- Browser failures become tool errors: a refused URL or a dead page fails the step with the reason;
  timeouts and 5xx are retryable.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit
from weakref import WeakKeyDictionary

from browser.page_source import PageLoadError, PageSource, UrlRefused
from common.contracts import utc_now
from executor.errors import FatalToolError, RetryableToolError
from executor.journal.run_journal import SourceRead
from executor.research.extract import PageContent, parse_html
from executor.research.pdf import PdfUnreadable, parse_pdf
from executor.run.budget import BudgetEnforcer
from executor.run.resources import RunResources
from executor.tools.boundary import ToolContext


@dataclass(slots=True)
class ReadResult:
    """One read: the parsed content, the raw bytes' hash, and the HTML when it was a page."""

    requested_url: str
    url: str
    content: PageContent
    content_hash: str
    retrieved_at: datetime
    raw: bytes = b""
    html: str = ""
    is_pdf: bool = False
    #: The page's picture in the run folder (the Live view shows it), when the read took one.
    picture: str | None = None


@dataclass(slots=True)
class RunCache:
    """What this run has read already, by requested and final URL."""

    reads: dict[str, ReadResult] = field(default_factory=dict)
    sources: set[str] = field(default_factory=set)


_CACHES: WeakKeyDictionary[RunResources, RunCache] = WeakKeyDictionary()


def run_cache(ctx: ToolContext) -> RunCache:
    """The run's cache, kept as long as the run's resources live (a fresh one without resources)."""
    if ctx.resources is None:
        return RunCache()
    cache = _CACHES.get(ctx.resources)
    if cache is None:
        cache = _CACHES[ctx.resources] = RunCache()
    return cache


def sha256_hex(data: str | bytes) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


async def record_read(
    ctx: ToolContext,
    *,
    url: str,
    content: str | bytes,
    title: str,
    snippet: str,
    picture: str | None = None,
    shown: bool = False,
) -> None:
    """Journals one read: the receipts keep it, and a `shown` read reaches the live view (no-op
    outside a conductor's run)."""
    if ctx.journal is None:
        return
    read = SourceRead(step_id=ctx.step.step_id, url=url, content=content, title=title, snippet=snippet,
                      shown=shown, picture=picture)  # fmt: skip
    await ctx.journal.append(read)


def looks_like_pdf(url: str) -> bool:
    return urlsplit(url).path.lower().endswith(".pdf")


class Reader:
    """Reads URLs for one step; `sources` counts the new pages it fetched (for ToolOutput.sources)."""

    def __init__(self, ctx: ToolContext, *, timeout_ms: float | None = None) -> None:
        self.ctx = ctx
        self.timeout_ms = timeout_ms
        self.cache = run_cache(ctx)
        self.sources = 0
        self._recorded: set[str] = set()

    def remaining_sources(self) -> int:
        """Sources left in the plan's budget: the run's own count when the context carries the
        budget, else this run's reads, with evidence URLs standing in for reads before a resume."""
        budget = getattr(self.ctx, "budget", None)
        if isinstance(budget, BudgetEnforcer):
            used = budget.sources + self.sources
        else:
            known = {e.source_url.split("#", 1)[0] for e in self.ctx.evidence}
            used = len(known | self.cache.sources)
        return max(0, self.ctx.plan.budget.max_sources - used)

    def cached(self, url: str) -> ReadResult | None:
        return self.cache.reads.get(url.split("#", 1)[0])

    async def _source(self) -> PageSource:
        resources = self.ctx.resources
        if resources is None:
            raise FatalToolError(
                "no browser for this run: research tools need run resources", code="no_browser"
            )
        driver = await resources.driver()
        if not isinstance(driver, PageSource):
            raise FatalToolError("the run's browser cannot read pages (no PageSource)", code="no_browser")
        return driver

    async def read(
        self, url: str, *, new_tab: bool = False, source: bool = True, as_pdf: bool = False
    ) -> ReadResult:
        """The content at `url` (an HTML page or a PDF). Background reads and PDFs come from the run
        cache when already read; a read in the active tab always navigates, since a later ACT
        expects the tab to be on that page."""
        key = url.split("#", 1)[0]
        hit = self.cached(key)
        if hit is not None and (new_tab or hit.is_pdf):
            await self._record(hit)  # this step read it too, from the run's cache
            return hit
        browser = await self._source()
        try:
            if as_pdf or looks_like_pdf(key):
                result = await self._pdf(browser, key)
            else:
                result = await self._page(browser, url, new_tab)
        except UrlRefused as exc:
            raise FatalToolError(exc.reason, code="url_refused") from exc
        except PageLoadError as exc:
            if exc.retryable:
                raise RetryableToolError(exc.reason, code="page_load") from exc
            raise FatalToolError(exc.reason, code="page_load") from exc
        await self._record(result)
        self.cache.reads[key] = self.cache.reads[result.url.split("#", 1)[0]] = result
        if source and key not in self.cache.sources:
            self.cache.sources.add(key)
            self.sources += 1
        return result

    async def current(self) -> ReadResult:
        """The run's active tab as it is now (never cached: an ACT may have changed it)."""
        browser = await self._source()
        try:
            page = await browser.current_page()
        except PageLoadError as exc:
            raise FatalToolError(exc.reason, code="page_load") from exc
        result = ReadResult(
            requested_url=page.url,
            url=page.url,
            content=parse_html(page.html, page.url),
            content_hash=sha256_hex(page.html),
            retrieved_at=utc_now(),
            raw=page.html.encode("utf-8"),
            html=page.html,
        )
        await self._record(result)
        return result

    async def _page(self, browser: PageSource, url: str, new_tab: bool) -> ReadResult:
        try:
            page = await browser.load_page(
                url, new_tab=new_tab, timeout_ms=self.timeout_ms, picture=self._picture()
            )
        except UrlRefused:
            raise
        except PageLoadError as exc:
            if "download" not in exc.reason.lower():
                raise
            return await self._pdf(browser, url)  # a file the tab would not render, a PDF most likely
        return ReadResult(
            requested_url=url,
            url=page.url,
            content=parse_html(page.html, page.url),
            content_hash=sha256_hex(page.html),
            retrieved_at=utc_now(),
            raw=page.html.encode("utf-8"),
            html=page.html,
            picture=page.screenshot_path,
        )

    def _picture(self) -> Path | None:
        """Where a read page's picture goes: the run folder's reads/ (none without a run folder)."""
        resources = self.ctx.resources
        return resources.run_dir / "reads" / f"read-{time.time_ns()}.png" if resources is not None else None

    async def _pdf(self, browser: PageSource, url: str) -> ReadResult:
        body = await browser.fetch_body(url, timeout_ms=self.timeout_ms)
        try:
            content = parse_pdf(body.body, body.url)
        except PdfUnreadable as exc:
            raise FatalToolError(str(exc), code="pdf_unreadable") from exc
        return ReadResult(
            requested_url=url,
            url=body.url,
            content=content,
            content_hash=sha256_hex(body.body),
            retrieved_at=utc_now(),
            raw=body.body,
            is_pdf=True,
        )

    async def _record(self, result: ReadResult) -> None:
        """Once per URL and step: the receipts say which step read what, when, and its hash."""
        if result.url in self._recorded:
            return
        self._recorded.add(result.url)
        await record_read(
            self.ctx,
            url=result.url,
            content=result.raw,
            title=result.content.title,
            snippet=result.content.text[:200],
            picture=result.picture,
            shown=True,
        )
