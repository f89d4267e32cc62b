"""Ranking for RETRIEVE: BM25 (bm25s) per query, reciprocal rank fusion across queries and the
embedding ranking, and near-duplicate removal.

RRF fuses ranks, not scores, so BM25 and cosine similarities need no calibration against each
other; k=60 is the constant of Cormack et al. (2009), which later work keeps as the default.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from executor.research.text import jaccard, shingles, tokens

RRF_K = 60
Ranking = list[tuple[int, float]]


def bm25_rank(docs: Sequence[str], queries: Sequence[str]) -> list[Ranking]:
    """For each query, (doc index, BM25 score) best first; every document appears in every list."""
    import bm25s  # type: ignore[import-untyped]  # numpy comes with it: loaded on first use, not at startup

    if not docs:
        return [[] for _ in queries]
    corpus = [tokens(d) or ["\u2205"] for d in docs]  # an empty document still needs one token
    index = bm25s.BM25()
    index.index(corpus, show_progress=False)
    out: list[Ranking] = []
    for query in queries:
        terms = tokens(query)
        scores = index.get_scores(terms) if terms else [0.0] * len(docs)
        ranked = sorted(((i, float(s)) for i, s in enumerate(scores)), key=lambda p: (-p[1], p[0]))
        out.append(ranked)
    return out


def cosine_rank(doc_vectors: Sequence[Sequence[float]], query_vector: Sequence[float]) -> Ranking:
    """(doc index, cosine similarity) best first."""

    def norm(v: Sequence[float]) -> float:
        return math.sqrt(sum(x * x for x in v)) or 1.0

    qn = norm(query_vector)
    scored = [
        (i, sum(a * b for a, b in zip(v, query_vector, strict=False)) / (norm(v) * qn))
        for i, v in enumerate(doc_vectors)
    ]
    return sorted(scored, key=lambda p: (-p[1], p[0]))


def rrf(rankings: Sequence[Ranking], *, k: int = RRF_K, eligible: set[int] | None = None) -> Ranking:
    """Reciprocal rank fusion: sum of 1/(k + rank) over the lists; only `eligible` docs rank."""
    fused: dict[int, float] = {}
    for ranking in rankings:
        rank = 0
        for doc, _ in ranking:
            if eligible is not None and doc not in eligible:
                continue
            rank += 1
            fused[doc] = fused.get(doc, 0.0) + 1.0 / (k + rank)
    return sorted(fused.items(), key=lambda p: (-p[1], p[0]))


def relevant(
    bm25: Sequence[Ranking],
    docs: Sequence[str],
    queries: Sequence[str],
    *,
    floor: float = 0.25,
    coverage: float = 0.6,
) -> set[int]:
    """Docs that, for some query, score at least `floor` x that query's top BM25 score and hold at
    least `coverage` of the query's IDF weight.

    Rank fusion alone would still rank a page that shares common words ("data", "pricing") with a
    query. Weighting coverage by IDF means the rare, distinguishing terms (a vendor's name) must be
    there: a page about another vendor's "commercial use terms" does not answer "Acme Data
    commercial use terms".
    """
    doc_terms = [set(tokens(d)) for d in docs]
    n = len(docs)
    df: dict[str, int] = {}
    for terms in doc_terms:
        for term in terms:
            df[term] = df.get(term, 0) + 1

    def idf(term: str) -> float:
        d = df.get(term, 0)
        return math.log(1 + (n - d + 0.5) / (d + 0.5))

    keep: set[int] = set()
    for ranking, query in zip(bm25, queries, strict=True):
        wanted = {t: idf(t) for t in tokens(query)}
        total = sum(wanted.values())
        if not ranking or ranking[0][1] <= 0 or total <= 0:
            continue
        top = ranking[0][1]
        for doc, score in ranking:
            if score <= 0 or score < floor * top:
                break
            if sum(w for t, w in wanted.items() if t in doc_terms[doc]) >= coverage * total:
                keep.add(doc)
    return keep


def dedupe(order: Sequence[int], texts: Mapping[int, str], *, threshold: float = 0.7) -> list[int]:
    """`order` without near-duplicates: a text whose 5-gram Jaccard with a kept one is >= threshold."""
    kept: list[int] = []
    kept_shingles: list[frozenset[str]] = []
    for doc in order:
        sh = shingles(texts[doc])
        if any(jaccard(sh, other) >= threshold for other in kept_shingles):
            continue
        kept.append(doc)
        kept_shingles.append(sh)
    return kept
