"""WEB_SEARCH providers behind one protocol: a results page read in the run's browser (a URL template
with {query}, e.g. a DuckDuckGo HTML results page), a SearXNG-style JSON API over HTTP, and a local
folder of documents.

A provider returns SearchResults; the local provider also returns each document's text, since its
documents are not web pages the browser should (or, under the URL policy, may) open.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, quote_plus, urljoin, urlsplit

import httpx2
from lxml import html as lxml_html
from lxml.etree import ParserError

from browser.url_policy import UrlPolicy
from common.bounded_read import FILE_BYTES, FileTooLarge, read_bytes
from executor.errors import FatalToolError, RetryableToolError
from executor.research.extract import parse_html
from executor.research.pdf import PdfUnreadable, parse_pdf
from executor.research.ranking import bm25_rank
from executor.research.reader import Reader, record_read
from executor.research.text import normalise, tokens


@dataclass(frozen=True, slots=True)
class SearchResult:
    url: str
    title: str
    snippet: str = ""
    rank: int = 0
    #: Full text when the provider holds the document itself (local folder); None for web results.
    content: str | None = None


class SearchProvider(Protocol):
    """Answers a query with ranked results. `reader` is the step's reader (browser, receipts)."""

    name: str

    async def search(self, query: str, *, limit: int, reader: Reader) -> list[SearchResult]: ...


def has_class(name: str) -> str:
    """An XPath predicate for a class token (what CSS `.name` means)."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


@dataclass(frozen=True, slots=True)
class ResultSelectors:
    """XPaths to a results page's results; the defaults fit DuckDuckGo's HTML results page."""

    result: str = f"//*[{has_class('result')}]"
    link: str = f".//a[{has_class('result__a')}]"
    snippet: str = f".//*[{has_class('result__snippet')}]"


def _unwrap(href: str) -> str:
    """Results pages often link through a redirector (…/l/?uddg=<target>); return the target."""
    query = parse_qs(urlsplit(href).query)
    for key in ("uddg", "u", "url", "q"):
        values = query.get(key)
        if values and values[0].startswith(("http://", "https://")):
            return values[0]
    return href


def _elements(node: lxml_html.HtmlElement, xpath: str) -> list[lxml_html.HtmlElement]:
    return [e for e in node.xpath(xpath) if isinstance(e, lxml_html.HtmlElement)]


def parse_results_page(
    html: str, base_url: str, selectors: ResultSelectors | None = None, *, limit: int = 10
) -> list[SearchResult]:
    """Titles, URLs and snippets of a results page, in page order, web URLs only, no repeats."""
    sel = selectors or ResultSelectors()
    try:
        tree = lxml_html.document_fromstring(html)
    except (ParserError, ValueError):
        return []
    out: list[SearchResult] = []
    seen: set[str] = set()
    for box in _elements(tree, sel.result):
        links = _elements(box, sel.link)
        if not links or not links[0].get("href"):
            continue
        url = _unwrap(urljoin(base_url, links[0].get("href", "")))
        if urlsplit(url).scheme not in {"http", "https"} or url in seen:
            continue
        seen.add(url)
        snippet_nodes = _elements(box, sel.snippet)
        snippet = normalise(snippet_nodes[0].text_content()) if snippet_nodes else ""
        out.append(SearchResult(url, normalise(links[0].text_content()), snippet, rank=len(out) + 1))
        if len(out) >= limit:
            break
    return out


class BrowserSearchProvider:
    """Opens `url_template` (WAYPOST_SEARCH_URL, with {query}) in the run's browser and parses it."""

    name = "browser"

    def __init__(self, url_template: str, selectors: ResultSelectors | None = None) -> None:
        if "{query}" not in url_template:
            raise ValueError("the search URL template needs a {query} placeholder")
        self.url_template = url_template
        self.selectors = selectors or ResultSelectors()

    def url_for(self, query: str) -> str:
        return self.url_template.replace("{query}", quote_plus(query))

    async def search(self, query: str, *, limit: int, reader: Reader) -> list[SearchResult]:
        page = await reader.read(self.url_for(query), new_tab=True, source=False)
        return parse_results_page(page.html, page.url, self.selectors, limit=limit)


class SearxngProvider:
    """A SearXNG JSON API (`/search?q=…&format=json`); `endpoint` is its base URL or a {query} template."""

    name = "searxng"

    def __init__(self, endpoint: str, *, timeout_s: float = 10.0, policy: UrlPolicy | None = None) -> None:
        self.endpoint = endpoint
        self.timeout_s = timeout_s
        self.policy = policy or UrlPolicy()

    def url_for(self, query: str) -> str:
        if "{query}" in self.endpoint:
            return self.endpoint.replace("{query}", quote_plus(query))
        return f"{self.endpoint.rstrip('/')}/search?q={quote_plus(query)}&format=json"

    async def search(self, query: str, *, limit: int, reader: Reader) -> list[SearchResult]:
        url = self.url_for(query)
        try:
            async with httpx2.AsyncClient(timeout=self.timeout_s, follow_redirects=True) as client:
                response = await client.get(url, headers={"Accept": "application/json"})
        except httpx2.TimeoutException as exc:
            raise RetryableToolError(f"search API timed out: {url}", code="search_timeout") from exc
        except httpx2.HTTPError as exc:
            raise RetryableToolError(f"search API unreachable: {exc}", code="search_unreachable") from exc
        if response.status_code == 429 or response.status_code >= 500:
            raise RetryableToolError(f"search API answered HTTP {response.status_code}", code="search_http")
        if response.status_code >= 400:
            raise FatalToolError(f"search API answered HTTP {response.status_code}", code="search_http")
        try:
            data = response.json()
        except ValueError as exc:
            raise FatalToolError(f"search API sent no JSON: {exc}", code="search_bad_json") from exc
        await record_read(
            reader.ctx, url=url, content=response.content, title="search results", snippet=query
        )
        return self.parse(data, limit=limit)

    def parse(self, data: Any, *, limit: int) -> list[SearchResult]:
        """Results with a web URL the policy allows, in the API's order."""
        items = data.get("results", []) if isinstance(data, dict) else []
        out: list[SearchResult] = []
        for item in items:
            if not isinstance(item, dict):
                continue
            url = str(item.get("url") or "")
            if not url or self.policy.check(url) is not None:
                continue
            title = normalise(str(item.get("title") or url))
            snippet = normalise(str(item.get("content") or ""))
            out.append(SearchResult(url, title, snippet, rank=len(out) + 1))
            if len(out) >= limit:
                break
        return out


_TEXT_SUFFIXES = {".txt", ".md", ".rst", ".csv"}
_HTML_SUFFIXES = {".html", ".htm"}


def _read_document(path: Path) -> tuple[str, str] | None:
    """(title, text) of a document in the folder, or None for a file type it does not read."""
    suffix = path.suffix.lower()
    try:
        if suffix in _TEXT_SUFFIXES:
            text = _text(path)
            first = next((line for line in text.splitlines() if line.strip()), path.stem)
            return normalise(first.lstrip("# "))[:120], text
        if suffix in _HTML_SUFFIXES:
            page = parse_html(_text(path), path.as_uri())
            return page.title or path.stem, page.text
        if suffix == ".pdf":
            doc = parse_pdf(read_bytes(path, FILE_BYTES, what="document"), path.as_uri())
            return doc.title or path.stem, doc.text
    except (OSError, PdfUnreadable, FileTooLarge):
        return None
    return None


def _text(path: Path) -> str:
    return read_bytes(path, FILE_BYTES, what="document").decode("utf-8", errors="replace")


class LocalFolderProvider:
    """BM25 over a folder of documents (txt, md, html, pdf); results carry the document text."""

    name = "local"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._docs: list[tuple[Path, str, str]] | None = None

    def _load(self) -> list[tuple[Path, str, str]]:
        if self._docs is None:
            docs = []
            for path in sorted(p for p in self.folder.rglob("*") if p.is_file()):
                read = _read_document(path)
                if read is not None and read[1].strip():
                    docs.append((path, read[0], read[1]))
            self._docs = docs
        return self._docs

    async def search(self, query: str, *, limit: int, reader: Reader) -> list[SearchResult]:
        docs = await asyncio.to_thread(self._load)
        ranked = bm25_rank([f"{title}\n{text}" for _, title, text in docs], [query])
        out: list[SearchResult] = []
        for index, score in ranked[0]:
            if score <= 0 or len(out) >= limit:
                break
            path, title, text = docs[index]
            snippet = _best_line(text, query)
            out.append(SearchResult(path.as_uri(), title, snippet, rank=len(out) + 1, content=text))
        return out


def _best_line(text: str, query: str) -> str:
    wanted = set(tokens(query))
    lines = [normalise(line) for line in text.splitlines() if line.strip()]
    if not lines:
        return ""
    return max(lines, key=lambda line: len(wanted & set(tokens(line))))[:300]
