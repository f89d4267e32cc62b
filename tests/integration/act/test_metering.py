"""Every model call is counted: planning, each step's cognition, into budget, step runs and bundle."""

from __future__ import annotations

import json
from typing import Any

import pytest

from executor.models import RunStatus
from planner.context import build_context
from planner.draft import plan_to_draft
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from planner.rules import plan_rules
from planner.service import make_plan
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.support.act_harness import ActHarness, Answer
from tests.support.llm_server import Reply, ScriptedLLMServer, _completion
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _task(site: FixtureSite) -> str:
    return f"Open {site.url('/signup.html')} and fill the signup form with name Ada Lovelace, do not submit"


async def test_bundle_tokens_equal_the_servers_reported_usage(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    task = _task(site)
    draft = plan_to_draft(plan_rules(task, build_context(task))).model_dump(mode="json")
    llm_server.script(Reply.json(draft, usage=(900, 250)))
    result = await make_plan(task, planner="llm", llm=llm_settings)
    assert result.planner_used == "llm"
    assert result.plan.planning_usage is not None and result.plan.planning_usage.total == 1150

    usages = iter([(1000, 40), (1200, 33), (1300, 21)])

    def respond(body: dict[str, Any]) -> Reply:
        page = page_of(body)
        reply = (
            act({"kind": "fill", "index": index_of(page, "Name"), "value": "Ada Lovelace"})
            if "'kind': 'fill'" not in page.split("Page:")[0]
            else done("name filled")
        )
        reply.usage = next(usages)
        return reply

    llm_server.responder = respond
    client = LLMClient(llm_settings)
    bundle = await act_harness.run(result.plan, confirm=Answer(), cognition=LLMCognition(client))
    await client.aclose()
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    calls = llm_server.chat_requests()
    cognition_calls = len(calls) - 1
    served = [(900, 250), *[(1000, 40), (1200, 33), (1300, 21)][:cognition_calls]]
    total = sum(a + b for a, b in served)
    used = bundle.budget_used
    assert used.token_est_used == total
    assert used.model_usage.calls == len(calls)
    assert used.model_usage.tokens_in == sum(a for a, _ in served)
    assert used.model_usage.estimated_calls == 0
    step_usage = bundle.step_runs[0].model_usage
    assert step_usage.calls == cognition_calls and step_usage.total == total - 1150
    # the run summary read back from the store says the same
    stored = act_harness.store.bundle(bundle.run_id)
    assert stored is not None and stored.budget_used.token_est_used == total
    # and so do the receipts (run.json holds the bundle, per step)
    meta = json.loads((act_harness.runs_dir / bundle.run_id / "run.json").read_text())
    assert meta["bundle"]["budget_used"]["token_est_used"] == total
    assert meta["bundle"]["step_runs"][0]["model_usage"]["calls"] == cognition_calls


async def test_a_server_without_usage_is_estimated_and_still_charged(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        page = page_of(body)
        if "'kind': 'fill'" in page.split("Page:")[0]:
            reply = done("name filled")
        else:
            reply = act({"kind": "fill", "index": index_of(page, "Name"), "value": "Ada Lovelace"})
        # a server that sends no usage object at all
        reply.raw_body = _without_usage(body, reply)
        return reply

    llm_server.responder = respond
    task = _task(site)
    plan = plan_rules(task, build_context(task))
    client = LLMClient(llm_settings)
    bundle = await act_harness.run(plan, confirm=Answer(), cognition=LLMCognition(client))
    await client.aclose()
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    usage = bundle.budget_used.model_usage
    assert usage.calls == len(llm_server.chat_requests()) >= 2
    assert usage.estimated_calls == usage.calls
    prompt_chars = sum(len(m["content"]) for r in llm_server.chat_requests() for m in r.body["messages"])
    assert usage.tokens_in >= prompt_chars // 4  # an estimate, never zero
    assert bundle.budget_used.token_est_used == usage.total


def _without_usage(body: dict[str, Any], reply: Reply) -> str:
    completion = _completion(body, reply)
    del completion["usage"]
    return json.dumps(completion)
