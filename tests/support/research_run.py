"""Research runs through RunConductor on the fixture site: the conductor, a run, a plan from compact steps,
and the evidence a run read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from executor.models import RunBundleV1, RuntimeCtxV1
from executor.research.factory import research_tools
from executor.research.search import SearchProvider
from executor.run.conductor import RunConductor
from executor.run.resources import RunResources
from executor.store.checkpoint_store import CheckpointStore
from planner.models import ExecutionPlan
from tests.support.site import FixtureSite


def search_template(site: FixtureSite) -> str:
    """WAYPOST_SEARCH_URL for the fixture search engine."""
    return site.url("/research/search.html?q={query}")


def conductor(store: CheckpointStore, provider: SearchProvider) -> RunConductor:
    return RunConductor(
        tools=research_tools(search=provider, llm=None),
        store=store,
        resources=lambda run_id, run_dir: RunResources(run_id=run_id, run_dir=run_dir, fsync=False),
    )


async def run(
    plan: ExecutionPlan, store: CheckpointStore, provider: SearchProvider, runs_dir: Path
) -> RunBundleV1:
    runtime = RuntimeCtxV1(runs_dir=str(runs_dir))
    return await conductor(store, provider).run(plan, runtime)


def plan_of(steps: list[dict[str, Any]], **extra: Any) -> ExecutionPlan:
    """A hand-written mode A plan (compact step dicts), without min_evidence unless given."""
    return ExecutionPlan.model_validate({"mode": "A", "steps": steps, **extra})


def evidence_reads(run_dir: Path) -> list[dict[str, Any]]:
    """The evidence_read records of a run's receipts, in order."""
    lines = (run_dir / "receipts.jsonl").read_text(encoding="utf-8").splitlines()
    return [r for r in map(json.loads, lines) if r.get("kind") == "evidence_read"]
