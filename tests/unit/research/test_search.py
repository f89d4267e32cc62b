from __future__ import annotations

from pathlib import Path

import pytest

from browser.url_policy import UrlPolicy
from executor.errors import FatalToolError
from executor.research.reader import Reader
from executor.research.search import (
    BrowserSearchProvider,
    LocalFolderProvider,
    ResultSelectors,
    SearxngProvider,
    parse_results_page,
)
from tests.support.pdf import make_pdf
from tests.support.site import FixtureSite
from tests.unit.research._helpers import context

DDG_PAGE = """<html><body>
<div class="result results_links web-result">
  <h2 class="result__title"><a class="result__a"
     href="//duckduckgo.com/l/?uddg=https%3A%2F%2Facme.example%2Fpricing&amp;rut=abc">Acme pricing</a></h2>
  <a class="result__snippet" href="#">Starter <b>$49</b>/mo</a>
</div>
<div class="result"><a class="result__a" href="/relative">Relative</a></div>
<div class="result"><a class="result__a" href="javascript:alert(1)">Script</a></div>
<div class="result"><a class="result__a" href="https://acme.example/pricing">Repeat</a></div>
<div class="result result--ad"><span>no link</span></div>
</body></html>"""


def test_results_page_titles_urls_snippets() -> None:
    results = parse_results_page(DDG_PAGE, "https://search.example/html/?q=x")
    assert [(r.url, r.title, r.snippet, r.rank) for r in results] == [
        ("https://acme.example/pricing", "Acme pricing", "Starter $49/mo", 1),
        ("https://search.example/relative", "Relative", "", 2),
    ]
    assert parse_results_page(DDG_PAGE, "https://s.example/", limit=1)[0].title == "Acme pricing"


def test_custom_selectors() -> None:
    page = '<ol><li class="hit"><a href="https://a.example/">A</a><p>about a</p></li></ol>'
    sel = ResultSelectors(result="//li[@class='hit']", link=".//a", snippet=".//p")
    assert parse_results_page(page, "https://s.example/", sel)[0].snippet == "about a"


def test_template_needs_a_query_placeholder() -> None:
    with pytest.raises(ValueError, match="query"):
        BrowserSearchProvider("https://s.example/?q=")
    provider = BrowserSearchProvider("https://s.example/html/?q={query}")
    assert provider.url_for("acme data & co") == "https://s.example/html/?q=acme+data+%26+co"


def test_searxng_parse_keeps_allowed_web_results_in_order() -> None:
    provider = SearxngProvider("http://searx.local", policy=UrlPolicy())
    data = {
        "results": [
            {"url": "https://a.example/1", "title": "One", "content": "first"},
            {"url": "file:///etc/passwd", "title": "Local file"},
            {"title": "no url"},
            "junk",
            {"url": "https://b.example/2", "content": "second"},
        ]
    }
    results = provider.parse(data, limit=5)
    assert [(r.url, r.title, r.rank) for r in results] == [
        ("https://a.example/1", "One", 1),
        ("https://b.example/2", "https://b.example/2", 2),
    ]
    assert provider.url_for("a b") == "http://searx.local/search?q=a+b&format=json"
    assert provider.parse([], limit=3) == []


async def test_searxng_over_http(site: FixtureSite) -> None:
    provider = SearxngProvider(site.url("/research/searx.json?q={query}&format=json"))
    results = await provider.search("datafeed pricing", limit=5, reader=Reader(context()))
    assert [r.title for r in results] == [
        "Acme Data - Datafeed pricing and packages",
        "Beta Feeds - Bảng giá gói datafeed",
    ]


async def test_searxng_http_errors_are_tool_errors(site: FixtureSite) -> None:
    provider = SearxngProvider(site.url("/research/missing.json?q={query}"))
    with pytest.raises(FatalToolError, match="HTTP 404"):
        await provider.search("x", limit=5, reader=Reader(context()))


async def test_local_folder_provider(tmp_path: Path) -> None:
    (tmp_path / "acme.md").write_text("# Acme pricing\nStarter costs $49 per month.\nPro costs $99.\n")
    (tmp_path / "coffee.txt").write_text("Coffee beans and milk.\n")
    (tmp_path / "terms.pdf").write_bytes(make_pdf([["Acme commercial use terms."]], title="Acme terms"))
    (tmp_path / "page.html").write_text("<title>Beta</title><p>Beta Feeds pricing in VND.</p>")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    provider = LocalFolderProvider(tmp_path)
    results = await provider.search("acme pricing", limit=5, reader=Reader(context()))
    assert results[0].title == "Acme pricing"
    assert results[0].snippet == "# Acme pricing"
    assert results[0].content is not None and "$49" in results[0].content
    assert results[0].url.startswith("file://")
    assert all("coffee" not in r.url for r in results)
    terms = await provider.search("commercial use terms", limit=5, reader=Reader(context()))
    assert terms[0].title == "Acme terms"
