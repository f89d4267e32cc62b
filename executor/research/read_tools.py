"""WEB_SEARCH, OPEN_URL / EXTRACT_DOM, READ_PDF and FETCH_DATA as Tools over a Reader.

None of them writes `answer`/`summary`/`text` outputs: those keys make the final answer, which is
SUMMARIZE's and COMPUTE's job. Page text goes out as `content`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from executor.errors import FatalToolError, ToolError
from executor.models import EvidenceItem
from executor.research.common import arg_int, arg_str, evidence_from, queries_from, require_url
from executor.research.data import extract_records
from executor.research.extract import record_line
from executor.research.pdf import page_url
from executor.research.reader import Reader, ReadResult
from executor.research.search import SearchProvider
from executor.tools.boundary import ToolContext, ToolOutput

MAX_CONTENT_CHARS = 20_000
MAX_LINKS = 50


def _page_outputs(read: ReadResult) -> dict[str, Any]:
    content = read.content
    return {
        "url": read.requested_url,
        "title": content.title,
        "content": content.text[:MAX_CONTENT_CHARS],
        "content_truncated": len(content.text) > MAX_CONTENT_CHARS,
        "headings": content.headings,
        "tables": content.tables,
        "links": [
            {"url": link.url, "text": link.text, "context": link.context}
            for link in content.links[:MAX_LINKS]
        ],
        "content_hash": read.content_hash,
    }


def _state_text(read: ReadResult) -> str:
    """'Current plan<TAB>Pro' for each two-cell table row (a label and its value), then the text."""
    rows = [list(r.values()) for table in read.content.tables for r in table]
    pairs = [f"{row[0]}\t{row[1]}" for row in rows if len(row) == 2 and all(row)]
    return "\n".join([*pairs, read.content.text])[:MAX_CONTENT_CHARS]


class WebSearchTool:
    """Runs the step's query (or the plan's sub_queries) through the provider; results, no evidence."""

    def __init__(self, provider: SearchProvider) -> None:
        self.provider = provider

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        queries = queries_from(args, ctx.plan.sub_queries)
        if not queries:
            raise FatalToolError("WEB_SEARCH needs a `query` (or plan sub_queries)", code="bad_args")
        limit = arg_int(args, "limit", 8, high=50)
        reader = Reader(ctx)
        lists = await asyncio.gather(*(self.provider.search(q, limit=limit, reader=reader) for q in queries))
        results = [
            {"query": q, "url": r.url, "title": r.title, "snippet": r.snippet, "rank": r.rank}
            for q, found in zip(queries, lists, strict=True)
            for r in found
        ]
        return ToolOutput(outputs={"queries": queries, "provider": self.provider.name, "results": results})


class OpenUrlTool:
    """OPEN_URL (navigates the run's tab) and EXTRACT_DOM (the current tab when no `url` is given)."""

    def __init__(self, *, navigate_required: bool = True) -> None:
        self.navigate_required = navigate_required

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        reader = Reader(ctx)
        url = arg_str(args, "url", "href", "source_url")
        if url is None and self.navigate_required:
            url = require_url(args)
        read = await (reader.read(url) if url is not None else reader.current())
        snippet = read.content.text[:1000]
        evidence = [evidence_from(read, snippet, confidence=0.6)] if snippet.strip() else []
        outputs = _page_outputs(read)
        if args.get("purpose") == "read_state":  # mode D: the person's own page, read as the state
            outputs.update(state_text=_state_text(read), state_url=read.url)
        return ToolOutput(outputs=outputs, evidence=evidence, sources=reader.sources, final_url=read.url)


class ReadPdfTool:
    """Text per page; one evidence item per page, cited as <url>#page=<n>."""

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        url = require_url(args)
        reader = Reader(ctx)
        read = await reader.read(url, as_pdf=True)
        pages = read.content.pages
        evidence = [
            evidence_from(
                read,
                text,
                confidence=0.6,
                url=page_url(read.url, n),
                title=f"{read.content.title} (page {n})",
            )
            for n, text in enumerate(pages, start=1)
            if text.strip()
        ]
        outputs = {
            "url": url,
            "title": read.content.title,
            "page_count": len(pages),
            "pages": [{"page": n, "text": t, "url": page_url(read.url, n)} for n, t in enumerate(pages, 1)],
            "content_hash": read.content_hash,
        }
        return ToolOutput(outputs=outputs, evidence=evidence, sources=reader.sources)


def _urls_for_data(args: dict[str, Any], ctx: ToolContext) -> list[str]:
    urls: list[str] = []
    single = arg_str(args, "url")
    if single:
        urls.append(single)
    listed = args.get("urls")
    if isinstance(listed, list):
        urls.extend(str(u) for u in listed if isinstance(u, str))
    copies: set[str] = set()
    if not urls:  # "from": "evidence" (the planner's default): the pages evidence came from
        urls = [e.source_url for e in ctx.evidence]
        for outputs in ctx.step_outputs.values():
            urls.extend(u for u in outputs.get("pages_read", []) or [] if isinstance(u, str))
            # A page RETRIEVE recognised as a copy of another is never read for data (or cited).
            copies.update(u for u in outputs.get("duplicates", []) or [] if isinstance(u, str))
    return [u for u in dict.fromkeys(u.split("#", 1)[0] for u in urls) if u not in copies]


class FetchDataTool:
    """Tables and repeated price blocks -> typed records, kept under a data_ref for COMPUTE."""

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        urls = [u for u in _urls_for_data(args, ctx) if not u.lower().endswith(".pdf")]
        if not urls:
            raise FatalToolError(
                "FETCH_DATA found no page to read (no `url` and no evidence)", code="bad_args"
            )
        reader = Reader(ctx)
        records: list[dict[str, Any]] = []
        evidence: list[EvidenceItem] = []
        failed: list[dict[str, str]] = []
        for url in urls[: arg_int(args, "max_pages", 8, high=50)]:
            try:
                read = await reader.read(url, new_tab=True)
            except ToolError as exc:
                failed.append({"url": url, "error": str(exc)})
                continue
            found = extract_records(read.html, read.url)
            records.extend(found)
            if found:
                lines = " ".join(record_line({k: str(v) for k, v in r["raw"].items()}) for r in found[:4])
                evidence.append(evidence_from(read, lines, confidence=0.7))
        if not records and failed and len(failed) == len(urls):
            raise FatalToolError(f"no page could be read: {failed[0]['error']}", code="page_load")
        outputs = {
            "data_ref": f"data_{ctx.step.step_id}",
            "records": records,
            "record_count": len(records),
            "sources": list(dict.fromkeys(r["source_url"] for r in records)),
            "failed": failed,
        }
        return ToolOutput(outputs=outputs, evidence=evidence, sources=reader.sources)
