"""Research with a model endpoint (the local scripted server): hybrid ranking and grounded answers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from executor.models import RunBundleV1, RunStatus, RuntimeCtxV1
from executor.research.factory import research_tools
from executor.research.search import SearchProvider
from executor.run.conductor import RunConductor
from executor.run.resources import RunResources
from executor.store.checkpoint_store import CheckpointStore
from planner.llm import LLMClient
from planner.llm_settings import LLMSettings
from tests.support.llm_server import Reply, ScriptedLLMServer, unreachable_url
from tests.support.research_run import plan_of
from tests.support.site import FixtureSite

pytestmark = pytest.mark.browser

QUERIES = [{"q": "Acme Data commercial use terms"}, {"q": "Beta Feeds license terms"}]


async def run_with(
    llm: LLMClient,
    plan_steps: list[dict[str, Any]],
    store: CheckpointStore,
    provider: SearchProvider,
    runs: Path,
) -> RunBundleV1:
    conductor = RunConductor(
        tools=research_tools(search=provider, llm=llm),
        store=store,
        resources=lambda run_id, run_dir: RunResources(run_id=run_id, run_dir=run_dir, fsync=False),
    )
    plan = plan_of(plan_steps, sub_queries=QUERIES)
    return await conductor.run(plan, RuntimeCtxV1(runs_dir=str(runs)))


async def test_embeddings_join_the_ranking_and_the_model_answer_cites_only_real_evidence(
    site: FixtureSite,
    store: CheckpointStore,
    provider: SearchProvider,
    llm_server: ScriptedLLMServer,
    llm_settings: LLMSettings,
    tmp_path: Path,
) -> None:
    llm_server.script(
        Reply.json(
            {
                "claims": [
                    {
                        "text": "Acme Professional and Enterprise allow commercial SaaS use.",
                        "citations": [1, 2],
                    },
                    {"text": "This claim cites nothing that exists.", "citations": [77]},
                ]
            }
        )
    )
    llm = LLMClient(llm_settings.model_copy(update={"embedding_model": "test-embed"}))
    try:
        bundle = await run_with(
            llm,
            [
                {"step_id": "r1", "type": "RETRIEVE", "inputs": {"top_k": 4}},
                {
                    "step_id": "s1",
                    "type": "SUMMARIZE",
                    "depends_on": ["r1"],
                    "inputs": {"question": "Which packages allow commercial use?"},
                },
            ],
            store,
            provider,
            tmp_path / "runs",
        )
    finally:
        await llm.aclose()
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    retrieve, summary = bundle.step_runs
    assert retrieve.outputs["ranking"] == "bm25+embeddings"
    assert any(r.path.endswith("/embeddings") for r in llm_server.requests)
    assert summary.outputs["method"] == "model"
    assert summary.outputs["summary"] == "Acme Professional and Enterprise allow commercial SaaS use [1][2]."
    assert not any("coffee" in c.source_url for c in bundle.citations)
    answer = bundle.final_answer or ""
    assert all(1 <= int(n) <= len(bundle.citations) for n in re.findall(r"\[(\d+)\]", answer))


async def test_an_embeddings_outage_falls_back_to_bm25(
    site: FixtureSite, store: CheckpointStore, provider: SearchProvider, tmp_path: Path
) -> None:
    llm = LLMClient(LLMSettings(base_url=unreachable_url(), embedding_model="e", max_retries=0, timeout_s=2))
    try:
        bundle = await run_with(
            llm, [{"step_id": "r1", "type": "RETRIEVE"}], store, provider, tmp_path / "runs"
        )
    finally:
        await llm.aclose()
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert bundle.step_runs[0].outputs["ranking"] == "bm25"
