"""Each research tool through RunConductor in real Chromium: outputs, failures, receipts, budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from executor.models import RunStatus, StepStatus
from executor.research.search import SearchProvider
from executor.store.checkpoint_store import CheckpointStore
from receipts.verify import verify
from tests.support.research_run import evidence_reads, plan_of, run
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser


async def test_open_extract_pdf_and_data_steps_read_and_record(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    acme, beta, pdf = (
        site.url(f"/research/{p}") for p in ("acme/pricing.html", "beta/pricing.html", "beta/terms.pdf")
    )
    plan = plan_of(
        [
            {"step_id": "o1", "type": "OPEN_URL", "inputs": {"url": acme}},
            {"step_id": "x1", "type": "EXTRACT_DOM", "depends_on": ["o1"]},
            {"step_id": "p1", "type": "READ_PDF", "inputs": {"url": pdf}},
            {"step_id": "f1", "type": "FETCH_DATA", "inputs": {"urls": [acme, beta]}, "depends_on": ["o1"]},
            {
                "step_id": "s1",
                "type": "SUMMARIZE",
                "inputs": {"query": "commercial use of datafeed packages"},
                "depends_on": ["x1", "p1", "f1"],
            },
        ]
    )
    bundle = await run(plan, store, provider, tmp_path / "runs")
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    runs = {r.step_id: r for r in bundle.step_runs}

    opened = runs["o1"].outputs
    assert opened["title"] == "Acme Data - Datafeed pricing and packages"
    assert "most popular choice for SaaS" in opened["content"]
    assert "cookies" not in opened["content"]
    assert opened["tables"][0][1]["Price"] == "$99/mo"
    assert (site.url("/research/acme/terms.html"), "Terms") in [
        (link["url"], link["text"]) for link in opened["links"]
    ]
    assert runs["o1"].outputs["final_url"] == acme
    assert runs["x1"].outputs["headings"][0] == "Acme Data datafeed packages"  # the tab as OPEN_URL left it

    pages = runs["p1"].outputs["pages"]
    assert [p["page"] for p in pages] == [1, 2]
    assert "Redistribution" in pages[1]["text"]
    assert [e.source_url for e in runs["p1"].evidence] == [f"{pdf}#page=1", f"{pdf}#page=2"]

    records = runs["f1"].outputs["records"]
    assert runs["f1"].outputs["data_ref"] == "data_f1"
    assert [(r["name"], r["price"], r["currency"]) for r in records] == [
        ("Starter", 49.0, "USD"),
        ("Professional", 99.0, "USD"),
        ("Enterprise", 299.0, "USD"),
        ("Beta Basic", 1200000.0, "VND"),
        ("Beta Plus", 2500000.0, "VND"),
        ("Beta Realtime", 6900000.0, "VND"),
    ]
    assert runs["s1"].outputs["summary"]
    assert bundle.budget_used.sources_used == 3  # acme, beta and the PDF: re-reads are not new sources

    run_dir = tmp_path / "runs" / bundle.run_id
    assert verify(run_dir).ok
    reads = evidence_reads(run_dir)
    by_step = {(r["step_id"], r["url"]) for r in reads}
    assert {("o1", acme), ("x1", acme), ("p1", pdf), ("f1", acme), ("f1", beta)} <= by_step
    assert all(len(r["content_sha256"]) == 64 for r in reads)
    pdf_read = next(r for r in reads if r["url"] == pdf)
    assert runs["p1"].evidence[0].content_hash == pdf_read["content_sha256"]


@pytest.mark.parametrize(
    ("url", "reason"),
    [("file:///etc/passwd", "refused file"), ("/research/nowhere.html", "HTTP 404")],
)
async def test_a_refused_or_missing_page_fails_the_step_with_the_reason(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path, url: str, reason: str
) -> None:
    target = site.url(url) if url.startswith("/") else url
    plan = plan_of([{"step_id": "o1", "type": "OPEN_URL", "inputs": {"url": target}}])
    bundle = await run(plan, store, provider, tmp_path / "runs")
    step = bundle.step_runs[0]
    assert step.status is StepStatus.FAILED
    assert reason in (step.error or "")
    assert bundle.run_status is RunStatus.FAILED


async def test_web_search_reads_the_results_page_in_the_browser(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    plan = plan_of([{"step_id": "w1", "type": "WEB_SEARCH", "inputs": {"query": "Beta Feeds license terms"}}])
    bundle = await run(plan, store, provider, tmp_path / "runs")
    results = bundle.step_runs[0].outputs["results"]
    assert results[0]["url"] == site.url("/research/beta/terms.pdf")
    assert results[0]["title"] == "Beta Feeds license terms (PDF)"
    assert results[0]["snippet"].startswith("Commercial use and redistribution terms")
    assert bundle.budget_used.sources_used == 0  # a results page is not a source


async def test_retrieve_stays_within_max_sources(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    plan = plan_of(
        [{"step_id": "r1", "type": "RETRIEVE", "inputs": {"top_k": 5}}],
        sub_queries=[{"q": "Acme Data pricing packages"}, {"q": "Beta Feeds pricing packages"}],
        budget={"max_sources": 2},
    )
    bundle = await run(plan, store, provider, tmp_path / "runs")
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert len(bundle.step_runs[0].outputs["pages_read"]) == 2
    assert bundle.budget_used.sources_used == 2


async def test_retrieve_fetch_compute_recommends_and_builds_the_payload(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    plan = plan_of(
        [
            {"step_id": "r1", "type": "RETRIEVE", "inputs": {"top_k": 8}},
            {"step_id": "f1", "type": "FETCH_DATA", "depends_on": ["r1"], "inputs": {"from": "evidence"}},
            {
                "step_id": "c1",
                "type": "COMPUTE",
                "depends_on": ["r1", "f1"],
                "inputs": {
                    "task": "score_and_prepare_payload",
                    "data_ref": "data_f1",
                    "constraints": {
                        "max_price": 100,
                        "currency": "USD",
                        "require": {"commercial_use": "allowed"},
                    },
                    "payload": {"company": "Waypost QA"},
                },
            },
        ],
        sub_queries=[{"q": "Acme Data pricing packages"}, {"q": "Beta Feeds pricing packages"}],
    )
    bundle = await run(plan, store, provider, tmp_path / "runs")
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    compute = next(r for r in bundle.step_runs if r.step_id == "c1").outputs
    assert compute["recommendation"]["name"] == "Professional"
    assert compute["payload"] == {"company": "Waypost QA", "package": "Professional"}
    number = compute["recommendation"]["citation"]
    assert bundle.citations[number - 1].source_url == site.url("/research/acme/pricing.html")
    assert f"Recommended: Professional at $99/mo [{number}]" in (bundle.final_answer or "")
    reads = evidence_reads(tmp_path / "runs" / bundle.run_id)
    assert {r["step_id"] for r in reads} == {"r1", "f1"}


async def test_open_url_after_retrieve_still_navigates_the_run_tab(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    terms = site.url("/research/acme/terms.html")
    plan = plan_of(
        [
            {"step_id": "r1", "type": "RETRIEVE"},
            {"step_id": "o1", "type": "OPEN_URL", "depends_on": ["r1"], "inputs": {"url": terms}},
            {"step_id": "x1", "type": "EXTRACT_DOM", "depends_on": ["o1"]},
        ],
        sub_queries=[{"q": "Acme Data terms of use redistribution"}],
    )
    bundle = await run(plan, store, provider, tmp_path / "runs")
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    runs = {r.step_id: r for r in bundle.step_runs}
    assert terms in runs["r1"].outputs["pages_read"]
    assert runs["x1"].outputs["headings"][0] == "Acme Data terms of use"  # the tab itself went there
    assert runs["o1"].outputs["final_url"] == terms
    assert bundle.budget_used.sources_used == len(runs["r1"].outputs["pages_read"])  # no double count
