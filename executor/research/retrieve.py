"""RETRIEVE: sub-queries -> search -> read the top pages -> drop duplicate pages ->
chunk -> BM25 (+ embeddings) -> reciprocal rank fusion -> near-duplicate chunk removal -> top_k
evidence items.

Embeddings re-rank the chunks BM25 found on topic; they never admit a chunk the relevance test
(ranking.relevant) turned away, so a page that merely sits near a query in vector space is never
cited. A mirror of a page is dropped whole (executor/research/copies.py: a page an earlier step
already read wins, else the most linked-to copy, else the better-ranked one): its chunk windows
rarely line up with the original's, so chunk-level dedupe alone would let it through.

Pages are read concurrently in throwaway tabs, capped by what is left of max_sources so a research
step never pushes the run over its source budget. A page that fails to load is reported in
`failed` and skipped; the step fails only when nothing at all could be read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from common.contracts import utc_now
from executor.errors import FatalToolError, ToolError
from executor.journal.observability import log
from executor.models import EvidenceItem
from executor.research.common import arg_int, evidence_from, queries_from
from executor.research.copies import drop_copies, known_pages, url_key
from executor.research.extract import PageContent
from executor.research.pdf import page_url
from executor.research.ranking import Ranking, bm25_rank, cosine_rank, dedupe, relevant, rrf
from executor.research.reader import Reader, ReadResult, sha256_hex
from executor.research.search import SearchProvider, SearchResult
from executor.research.text import Chunk, chunk_text
from executor.tools.boundary import ToolContext, ToolOutput
from planner.llm_settings import LLMError

READ_CONCURRENCY = 4
MAX_CHUNKS_PER_SOURCE = 3
#: Per page, well under the tool call's own timeout, so one slow page costs a `failed` entry, not
#: the whole step.
PAGE_TIMEOUT_MS = 10_000


class Embedder(Protocol):
    """An embeddings endpoint (planner.llm.LLMClient.embed fits): one vector per text."""

    async def embed(self, texts: list[str]) -> list[list[float]]: ...


@dataclass(frozen=True, slots=True)
class Doc:
    """A citable unit: a page, or one page of a PDF."""

    url: str
    title: str
    text: str
    read: ReadResult


def docs_of(read: ReadResult) -> list[Doc]:
    if read.is_pdf:
        return [
            Doc(page_url(read.url, n), f"{read.content.title} (page {n})", text, read)
            for n, text in enumerate(read.content.pages, start=1)
            if text.strip()
        ]
    return [Doc(read.url, read.content.title, read.content.text, read)]


def candidate_urls(result_lists: Sequence[Sequence[SearchResult]]) -> list[SearchResult]:
    """Results of all queries fused by rank (RRF), one per URL, best first."""
    by_url: dict[str, SearchResult] = {}
    rankings: list[Ranking] = []
    index: dict[str, int] = {}
    for results in result_lists:
        ranking: Ranking = []
        for r in results:
            key = r.url.split("#", 1)[0]
            by_url.setdefault(key, r)
            ranking.append((index.setdefault(key, len(index)), 1.0))
        rankings.append(ranking)
    urls = list(index)
    return [by_url[urls[doc]] for doc, _ in rrf(rankings)]


def diverse(
    sources: Sequence[str],
    scores: Sequence[float],
    top_k: int,
    *,
    cap: int = MAX_CHUNKS_PER_SOURCE,
    promote: float = 0.5,
) -> set[int]:
    """Positions to keep from a ranked list: first the best chunk of every source scoring at least
    `promote` x the top score (so top_k spans the strong sources), then the rest in rank order with
    at most `cap` chunks per source. A weak source is never promoted over strong chunks."""
    picked: set[int] = set()
    taken: dict[str, int] = {}
    top = scores[0] if scores else 0.0
    for pos, source in enumerate(sources):
        if len(picked) < top_k and source not in taken and scores[pos] >= promote * top:
            picked.add(pos)
            taken[source] = 1
    for pos, source in enumerate(sources):
        if len(picked) >= top_k:
            break
        if pos not in picked and taken.get(source, 0) < cap:
            picked.add(pos)
            taken[source] = taken.get(source, 0) + 1
    return picked


def local_read(result: SearchResult) -> ReadResult:
    """A provider-held document (local folder) as a read, without a browser."""
    text = result.content or ""
    return ReadResult(
        requested_url=result.url,
        url=result.url,
        content=PageContent(url=result.url, title=result.title, text=text),
        content_hash=sha256_hex(text),
        retrieved_at=utc_now(),
        raw=text.encode("utf-8"),
    )


class RetrieveTool:
    def __init__(self, provider: SearchProvider, *, embedder: Embedder | None = None) -> None:
        self.provider = provider
        self.embedder = embedder

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        queries = queries_from(args, ctx.plan.sub_queries)[: max(1, ctx.plan.budget.max_queries)]
        if not queries:
            raise FatalToolError("RETRIEVE needs sub_queries (step inputs or the plan)", code="bad_args")
        top_k = arg_int(args, "top_k", 8, high=50)
        per_query = arg_int(args, "results_per_query", 5, high=20)
        reader = Reader(ctx, timeout_ms=arg_int(args, "page_timeout_ms", PAGE_TIMEOUT_MS, high=120_000))
        lists = await asyncio.gather(
            *(self.provider.search(q, limit=per_query, reader=reader) for q in queries),
            return_exceptions=True,
        )
        errors: list[tuple[str, ToolError]] = []
        found: list[list[SearchResult]] = []
        for query, outcome in zip(queries, lists, strict=True):
            if isinstance(outcome, ToolError):
                errors.append((query, outcome))
            elif isinstance(outcome, BaseException):
                raise outcome
            else:
                found.append(outcome)
        if not found:
            raise errors[0][1]
        known = known_pages(
            ctx.step_outputs,
            ctx.evidence,
            {url_key(u): (r.content.text, r.content_hash) for u, r in reader.cache.reads.items()},
        )
        budget = min(arg_int(args, "max_pages", 8, high=50), reader.remaining_sources())
        candidates = candidate_urls(found)[:budget]
        reads, failed = await self._read_all(reader, candidates)
        if not reads and candidates:
            raise FatalToolError(f"none of {len(candidates)} results could be read: {failed[0]['error']}")
        all_docs = [doc for read in reads for doc in docs_of(read)]
        unique, duplicates = drop_copies(
            all_docs,
            known,
            links={r.url: [link.url for link in r.content.links] for r in reads},
            hashes=[d.read.content_hash if not d.read.is_pdf else None for d in all_docs],
        )
        docs = [all_docs[i] for i in unique]
        evidence, chunk_count, ranking = await self._rank(docs, queries, top_k)
        outputs = {
            "queries": queries,
            "provider": self.provider.name,
            "results": sum(len(x) for x in found),
            "pages_read": [r.url for r in reads],
            "duplicates": duplicates,
            "failed": failed + [{"query": q, "error": str(e)} for q, e in errors],
            "chunks": chunk_count,
            "evidence_count": len(evidence),
            "ranking": ranking,
        }
        return ToolOutput(outputs=outputs, evidence=evidence, sources=reader.sources)

    async def _read_all(
        self, reader: Reader, candidates: list[SearchResult]
    ) -> tuple[list[ReadResult], list[dict[str, str]]]:
        gate = asyncio.Semaphore(READ_CONCURRENCY)

        async def one(result: SearchResult) -> ReadResult | dict[str, str]:
            if result.content is not None:
                reader.sources += 1
                return local_read(result)
            async with gate:
                try:
                    return await reader.read(result.url, new_tab=True)
                except ToolError as exc:
                    return {"url": result.url, "error": str(exc)}

        outcomes = await asyncio.gather(*(one(c) for c in candidates))
        reads = [o for o in outcomes if isinstance(o, ReadResult)]
        failed = [o for o in outcomes if isinstance(o, dict)]
        return reads, failed

    async def _vectors(self, texts: list[str]) -> list[list[float]] | None:
        """Embeddings of `texts`, or None (BM25 alone) when there is no endpoint or it fails."""
        if self.embedder is None or not texts:
            return None
        try:
            return await self.embedder.embed(texts)
        except LLMError as exc:
            log.warning("embeddings unavailable, ranking with BM25 only", extra={"reason": exc.reason})
            return None

    async def _rank(
        self, docs: list[Doc], queries: list[str], top_k: int
    ) -> tuple[list[EvidenceItem], int, str]:
        chunks: list[tuple[Doc, Chunk]] = [
            (doc, chunk) for i, doc in enumerate(docs) for chunk in chunk_text(i, doc.text, max_words=60)
        ]
        texts = [f"{doc.title}. {chunk.text}" for doc, chunk in chunks]
        bm25 = bm25_rank(texts, queries)
        eligible = relevant(bm25, texts, queries)
        rankings = list(bm25)
        vectors = await self._vectors([c.text for _, c in chunks] + queries)
        if vectors is not None:
            chunk_vectors, query_vectors = vectors[: len(chunks)], vectors[len(chunks) :]
            cosine = [cosine_rank(chunk_vectors, q) for q in query_vectors]
            rankings += cosine  # embeddings re-rank; which chunks may rank at all stays lexical
        fused = rrf(rankings, eligible=eligible)
        order = dedupe([i for i, _ in fused], {i: chunks[i][1].text for i in eligible})
        best = fused[0][1] if fused else 1.0
        score = dict(fused)
        picked = diverse([chunks[i][0].url for i in order], [score[i] for i in order], top_k)
        evidence = []
        for pos in sorted(picked):  # fused order, so evidence numbers follow relevance
            doc, chunk = chunks[order[pos]]
            confidence = 0.5 + 0.45 * score[order[pos]] / best
            evidence.append(
                evidence_from(doc.read, chunk.text, confidence=confidence, url=doc.url, title=doc.title)
            )
        return evidence, len(chunks), "bm25+embeddings" if vectors is not None else "bm25"
