"""A question about a page the task names: the page answers it, even with no search engine reachable."""

from __future__ import annotations

from pathlib import Path

import pytest

from executor.models import RunStatus
from executor.research.search import BrowserSearchProvider
from executor.store.checkpoint_store import CheckpointStore
from planner.service import make_plan
from tests.support.research_run import run
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser


async def test_the_price_is_answered_from_the_named_page_when_search_fails(
    site: FixtureSite, store: CheckpointStore, tmp_path: Path
) -> None:
    task = f"What does the Enterprise package cost? {site.url('/research/acme/pricing.html')}"
    plan = (await make_plan(task, planner="rules")).plan
    unreachable = BrowserSearchProvider("http://127.0.0.1:9/search?q={query}")
    bundle = await run(plan, store, unreachable, tmp_path / "runs")

    # a question about the page it names is read there: no web search is planned, so none can fail it
    assert not [r for r in bundle.step_runs if r.step_type == "RETRIEVE"]
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert bundle.final_answer is not None
    assert "$299" in bundle.final_answer.split(".")[0], bundle.final_answer
    assert bundle.citations[0].source_url.startswith(site.url("/research/acme/pricing.html"))
