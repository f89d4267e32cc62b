"""Mode A on the fixture site: the rule planner's plan, run through RunConductor in real Chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from executor.models import RunStatus, StepStatus
from executor.research.search import SearchProvider
from executor.store.checkpoint_store import CheckpointStore
from planner.service import make_plan
from receipts.verify import verify
from tests.support.research_run import run
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser

TASK = "Compare pricing of Acme Data and Beta Feeds datafeed packages and their commercial use terms"


async def test_mode_a_answer_cites_the_vendor_pages_and_never_the_irrelevant_one(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    plan = (await make_plan(TASK, planner="rules")).plan
    assert plan.mode.value == "A"
    bundle = await run(plan, store, provider, tmp_path / "runs")

    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    cited = {c.source_url.split("#")[0] for c in bundle.citations}
    assert site.url("/research/acme/pricing.html") in cited
    assert any("/research/beta/" in url for url in cited)
    assert not any("coffee" in url for url in cited)
    assert bundle.final_answer is not None
    for number in map(int, re.findall(r"\[(\d+)\]", bundle.final_answer)):
        assert 1 <= number <= len(bundle.citations)
    retrieve = next(r for r in bundle.step_runs if r.step_type == "RETRIEVE")
    assert retrieve.status is StepStatus.SUCCESS
    mirror = site.url("/research/mirror/acme-pricing.html")
    assert mirror in retrieve.outputs["duplicates"]  # read, recognised as a copy, never cited
    assert mirror not in cited
    assert bundle.budget_used.sources_used <= plan.budget.max_sources
    report = verify(tmp_path / "runs" / bundle.run_id)
    assert report.ok, report
