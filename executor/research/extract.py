"""HTML -> readable content: main text (trafilatura removes navigation, banners and footers), title,
headings, tables as records and links.

Tables are kept out of the main text and appended as one readable line per row ("Starter - Price:
$49/mo; ..."), so BM25 and summaries see a row's facts together instead of pipe-separated cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urldefrag, urljoin

from lxml import html as lxml_html
from lxml.etree import ParserError

from executor.research.text import normalise

Record = dict[str, str]


@dataclass(frozen=True, slots=True)
class Link:
    url: str
    text: str
    #: The list row or card the link sits in, its words spaced ("Helen Park Rent from July ..."):
    #: what a person reads to know what the link is about.
    context: str = ""


@dataclass(slots=True)
class PageContent:
    """What a research step read from one page or document; `text` is what gets chunked and cited."""

    url: str
    title: str = ""
    text: str = ""
    headings: list[str] = field(default_factory=list)
    tables: list[list[Record]] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    #: For PDFs: text of each page, page 1 first, so citations can name a page.
    pages: list[str] = field(default_factory=list)


def _cell(node: lxml_html.HtmlElement) -> str:
    return normalise(node.text_content())


def table_records(table: lxml_html.HtmlElement) -> list[Record]:
    """Rows of a <table> as dicts keyed by the header row (th cells, or the first row)."""
    rows = [r for r in table.iter("tr") if r.xpath("./td|./th")]
    if not rows:
        return []
    first = rows[0].xpath("./td|./th")
    has_header = all(c.tag == "th" for c in first) or bool(table.xpath("./thead"))
    if has_header:
        header = [_cell(c) or f"col{i + 1}" for i, c in enumerate(first)]
        body = rows[1:]
    else:
        header = [f"col{i + 1}" for i in range(len(first))]
        body = rows
    records: list[Record] = []
    for row in body:
        cells = [_cell(c) for c in row.xpath("./td|./th")]
        if not any(cells):
            continue
        keys = header + [f"col{i + 1}" for i in range(len(header), len(cells))]
        records.append(dict(zip(keys, cells, strict=False)))
    return records


_MADE_UP = re.compile(r"^col\d+$")


def label(key: object) -> str:
    """A column's header as a person reads it; "" for a name made up for a table without one (col2),
    which never reaches an answer."""
    return "" if _MADE_UP.match(str(key)) else str(key)


def record_line(record: Record) -> str:
    """One readable sentence for a record: its first value, then the other fields."""
    items = list(record.items())
    if not items:
        return ""
    head = items[0][1]
    rest = "; ".join(f"{label(k)}: {v}" if label(k) else str(v) for k, v in items[1:] if v)
    return f"{head} - {rest}." if rest else f"{head}."


_ROW_TAGS = frozenset({"li", "tr", "article"})


def _row_of(a: Any) -> str:
    """The words of the row or card an element sits in (three levels up at most), spaced."""
    node = a.getparent()
    for _ in range(3):
        if node is None:
            return ""
        role = (node.get("role") or "").lower()
        classes = (node.get("class") or "").lower()
        if (
            node.tag in _ROW_TAGS
            or role in ("listitem", "row")
            or re.search(r"\b(?:row|card|item)\b", classes)
        ):
            return normalise(" ".join(t for t in node.itertext() if isinstance(t, str)))[:200]
        node = node.getparent()
    return ""


def _disclosures(tree: Any) -> list[str]:
    """Each <details> as its summary, then what opening it shows: a help centre's question with its
    answer (main-text extraction keeps the answer and drops the question)."""
    out: list[str] = []
    for details in tree.iter("details"):
        summary = details.find("summary")
        asked = _cell(summary) if summary is not None else ""
        texts = (t for part in details if part is not summary for t in part.itertext())
        shown = normalise(" ".join(t for t in texts if isinstance(t, str)))
        if asked and shown:
            out += [asked, shown]
    return out


def parse_html(html: str, url: str) -> PageContent:
    """Everything research reads from one HTML document; a page with no markup yields its text."""
    try:
        tree = lxml_html.document_fromstring(html)
    except (ParserError, ValueError):
        return PageContent(url=url, text=normalise(html))
    title = normalise(tree.findtext(".//title") or "")
    headings = [t for t in (_cell(h) for h in tree.iter("h1", "h2", "h3")) if t]
    tables = [recs for recs in (table_records(t) for t in tree.iter("table")) if recs]
    links: list[Link] = []
    seen: set[str] = set()
    for a in tree.iter("a"):
        href = a.get("href")
        if not href or href.startswith(("#", "javascript:", "mailto:")):
            continue
        target = urldefrag(urljoin(url, href))[0]
        if target not in seen:
            seen.add(target)
            links.append(Link(url=target, text=_cell(a), context=_row_of(a)))
    import trafilatura  # loaded on first use: it pulls in dateparser and friends, not needed at startup

    main = trafilatura.extract(html, url=url, include_tables=False, favor_recall=True) or ""
    if not main.strip():
        main = " ".join(t for t in tree.itertext() if isinstance(t, str))
    lines = [main.strip()] + [record_line(r) for recs in tables for r in recs] + _disclosures(tree)
    return PageContent(
        url=url,
        title=title,
        text="\n".join(line for line in lines if line),
        headings=headings,
        tables=tables,
        links=links,
    )
