from __future__ import annotations

import pytest

from executor.research.ranking import RRF_K, bm25_rank, cosine_rank, dedupe, relevant, rrf

DOCS = [
    "Acme Data pricing: Starter $49 per month, Professional $99 per month.",
    "Acme Data terms: commercial use is allowed on Professional.",
    "Our office coffee subscription: beans, milk and a kettle. Pricing did not matter.",
    "Beta Feeds packages priced monthly in VND; commercial use allowed on Beta Plus.",
]


def test_bm25_ranks_each_query_over_every_document() -> None:
    pricing, terms = bm25_rank(DOCS, ["Acme Data pricing", "commercial use terms"])
    assert pricing[0][0] == 0
    assert terms[0][0] == 1
    assert sorted(doc for doc, _ in pricing) == [0, 1, 2, 3]


def test_bm25_on_nothing() -> None:
    assert bm25_rank([], ["q"]) == [[]]
    assert all(score == 0 for _, score in bm25_rank(DOCS, ["the of and"])[0])


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf([[(1, 9.0), (2, 5.0)], [(2, 0.9), (1, 0.1)]])
    assert fused[0][1] == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))
    assert fused[0][0] == 1  # equal sums: the lower index first
    only = rrf([[(1, 1.0), (2, 1.0)]], eligible={2})
    assert [doc for doc, _ in only] == [2]
    assert only[0][1] == pytest.approx(1 / (RRF_K + 1))


def test_relevance_floor_keeps_an_off_topic_page_out() -> None:
    queries = ["Acme Data pricing packages", "Beta Feeds commercial use"]
    keep = relevant(bm25_rank(DOCS, queries), DOCS, queries)
    assert 2 not in keep
    assert {0, 3} <= keep


def test_cosine_rank() -> None:
    assert [i for i, _ in cosine_rank([[1, 0], [0, 1], [1, 1]], [1, 0])] == [0, 2, 1]


def test_dedupe_drops_near_copies_in_order() -> None:
    texts = {
        0: "Acme Data sells end of day and intraday market datafeeds for HOSE and HNX exchanges.",
        1: "Acme Data sells end of day and intraday market datafeeds for HOSE and HNX exchanges!",
        2: "Beta Feeds provides Vietnamese stock market datafeeds priced in VND every month.",
    }
    assert dedupe([1, 0, 2], texts) == [1, 2]
