from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from executor.errors import FatalToolError
from executor.research.extract import PageContent
from executor.research.factory import research_tools
from executor.research.reader import Reader, ReadResult
from executor.research.retrieve import RetrieveTool, candidate_urls, diverse, docs_of, local_read
from executor.research.search import (
    BrowserSearchProvider,
    LocalFolderProvider,
    SearchResult,
)
from executor.run.resources import RunResources
from executor.tools.registry import DEFAULT_TOOL_KEYS
from planner.models import StepType
from tests.support.fake_driver import FakeDriver
from tests.unit.research._helpers import context, ev

RESEARCH_SITE = Path(__file__).resolve().parents[2] / "fixtures" / "site" / "research"


def result(url: str, rank: int) -> SearchResult:
    return SearchResult(url=url, title=url, rank=rank)


def test_candidates_are_fused_across_queries_one_per_url() -> None:
    lists = [
        [result("http://a", 1), result("http://b", 2)],
        [result("http://b#x", 1), result("http://c", 2)],
    ]
    assert [r.url for r in candidate_urls(lists)] == ["http://b", "http://a", "http://c"]


def test_diverse_promotes_strong_sources_then_fills_by_rank() -> None:
    sources = ["a", "a", "a", "a", "b", "c"]
    scores = [1.0, 0.9, 0.8, 0.7, 0.6, 0.1]
    assert diverse(sources, scores, 3) == {0, 4, 1}  # b is strong enough to be promoted; c is not
    assert diverse(sources, scores, 10) == {0, 1, 2, 4, 5}  # at most three chunks from a


def test_pdf_reads_become_one_doc_per_page() -> None:
    read = ReadResult(
        requested_url="http://h/t.pdf",
        url="http://h/t.pdf",
        content=PageContent(url="http://h/t.pdf", title="Terms", pages=["one", "", "three"]),
        content_hash="0" * 64,
        retrieved_at=datetime.now(UTC),
        is_pdf=True,
    )
    assert [(d.url, d.title) for d in docs_of(read)] == [
        ("http://h/t.pdf#page=1", "Terms (page 1)"),
        ("http://h/t.pdf#page=3", "Terms (page 3)"),
    ]


def test_local_results_are_read_without_a_browser() -> None:
    read = local_read(SearchResult("file:///d/a.md", "A", content="Alpha text."))
    assert read.content.text == "Alpha text."
    assert len(read.content_hash) == 64


async def test_reading_without_run_resources_is_a_fatal_error() -> None:
    with pytest.raises(FatalToolError, match="no browser"):
        await Reader(context()).read("http://127.0.0.1/x")


async def test_a_driver_that_cannot_read_pages_is_a_fatal_error(tmp_path: Path) -> None:
    async def fake(_: RunResources) -> FakeDriver:
        return FakeDriver()

    resources = RunResources(run_id="r", run_dir=tmp_path, driver_factory=fake, fsync=False)
    ctx = context()
    ctx.resources = resources
    with pytest.raises(FatalToolError, match="PageSource"):
        await Reader(ctx).read("http://127.0.0.1/x")


def test_remaining_sources_count_evidence_urls_before_a_resume() -> None:
    ctx = context(evidence=[ev("http://a/1#page=1", "x"), ev("http://a/1#page=2", "y"), ev("http://b", "z")])
    assert Reader(ctx).remaining_sources() == ctx.plan.budget.max_sources - 2


def test_factory_covers_the_research_keys_of_the_registry() -> None:
    tools = research_tools(search=BrowserSearchProvider("http://s/?q={query}"))
    research = {
        StepType.WEB_SEARCH, StepType.OPEN_URL, StepType.EXTRACT_DOM, StepType.READ_PDF, StepType.SUMMARIZE,
        StepType.COMPARE_SOURCES, StepType.COMPUTE, StepType.FETCH_DATA, StepType.RETRIEVE,
    }  # fmt: skip
    assert set(tools) == {DEFAULT_TOOL_KEYS[t] for t in research}


async def test_retrieve_over_a_local_folder_needs_no_browser() -> None:
    ctx = context(step_type="RETRIEVE", sub_queries=["Beta Feeds redistribution", "Beta Plus price"])
    out = await RetrieveTool(LocalFolderProvider(RESEARCH_SITE))({"top_k": 4}, ctx)
    urls = {e.source_url.rsplit("/research/", 1)[1] for e in out.evidence}
    assert urls <= {"beta/terms.pdf", "beta/pricing.html"}
    assert "beta/terms.pdf" in urls
    assert out.sources == len(out.outputs["pages_read"])
    assert all(e.content_hash and len(e.content_hash) == 64 for e in out.evidence)
