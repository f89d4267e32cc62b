"""A stalled model never costs a run its answer: the model's share of the run's time is bounded and
the rules answer when it runs out (docs/architecture.md, "Slow models").

A real `waypost run` on the eval site's bridge page, with a model endpoint (the scripted local
server) that takes every request and never answers. Before: planning waited its deadline out of the
run's budget, and the answer step's model call outlived the tool's timeout, was retried with the same
request, and the read task ended ABORTED_BUDGET with no answer.
"""

from __future__ import annotations

import threading
from pathlib import Path

from evals.site import EvalSite
from tests.faults.harness import home_env, waypost
from tests.support.llm_server import Reply, ScriptedLLMServer


def test_a_stalled_model_leaves_the_read_task_its_rule_answer(
    tmp_path: Path, llm_server: ScriptedLLMServer, table: list[tuple[str, float, str]]
) -> None:
    held = threading.Event()
    llm_server.responder = lambda body: Reply(content="{}", wait=held)
    env = home_env(
        tmp_path,
        OPENAI_BASE_URL=llm_server.url,
        OPENAI_API_KEY="test-key",
        WAYPOST_MODEL="test-model",
        WAYPOST_PLANNING_DEADLINE_S="3",
    )
    try:
        with EvalSite() as site:
            task = f"According to {site.url('bridge.html')}, in which year did the Harbor Bridge open?"
            outcome = waypost(tmp_path, "run", task, "--approve", "all", "--json", limit_s=150, env=env)
    finally:
        held.set()
    table.append((outcome.status, outcome.seconds, f"{len(llm_server.chat_requests())} model requests"))
    assert outcome.status == "SUCCESS", outcome.sentence
    answer = str(outcome.document.get("final_answer", ""))
    assert "1932" in answer
    assert "The model did not plan this run" in answer and "extractive, not the model's" in answer
    plan_calls = outcome.document["budget_used"]["model_usage"]
    assert plan_calls["calls"] >= 2 and plan_calls["estimated_calls"] >= 2  # cut calls are counted
    bodies = [r.text for r in llm_server.chat_requests()]
    assert len(bodies) == len(set(bodies))  # no request sent twice
