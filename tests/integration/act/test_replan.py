"""Critic and replan in a run: the model's first plan fails a step, the replan finishes the goal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from executor.journal.events import PlanRevised, StepRecorded
from executor.models import RunStatus, RuntimeCtxV1, StepStatus
from executor.run.revision import LLMReplanner, PlanReviser
from planner.context import build_context
from planner.draft import plan_to_draft
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from planner.rules import plan_rules
from planner.service import make_plan
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.support.act_harness import ActHarness, Answer
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.site import FixtureSite
from ui.plan_view import PlanTableModel, revision_line

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _schema_name(body: dict[str, Any]) -> str:
    fmt = body.get("response_format") or {}
    return str((fmt.get("json_schema") or {}).get("name", ""))


def _draft(task: str, url: str) -> dict[str, Any]:
    draft = plan_to_draft(plan_rules(task, build_context(task))).model_dump(mode="json")
    for step in draft["steps"]:
        if step["type"] == "ACT":
            step["url"] = url
    return draft


class Model:
    """The architect's first plan opens the wrong page; its replan the right one. Cognition fills
    the name where there is a Name field and otherwise claims it is done (a claim the step's check
    refuses: the name is not on the page). A "noop" would go back to the rules instead."""

    def __init__(self, task: str, wrong: str, right: str) -> None:
        self.plans = [_draft(task, wrong), _draft(task, right)]
        self.architect_calls = 0

    def __call__(self, body: dict[str, Any]) -> Reply:
        if _schema_name(body) == "plan_draft":
            self.architect_calls += 1
            return Reply.json(self.plans[min(self.architect_calls, 2) - 1], usage=(800, 200))
        page = page_of(body)
        if "Create your account" not in page:
            return done("no form here")
        if "'kind': 'fill'" in page.split("Page:")[0]:
            return done("name filled")
        return act({"kind": "fill", "index": index_of(page, "Name"), "value": "Ada Lovelace"})


async def test_failed_first_plan_is_replanned_to_success(
    act_harness: ActHarness,
    site: FixtureSite,
    llm_server: ScriptedLLMServer,
    llm_settings: LLMSettings,
) -> None:
    task = f"Open {site.url('/signup.html')} and fill the signup form with name Ada Lovelace, do not submit"
    model = Model(task, wrong=site.url("/index.html"), right=site.url("/signup.html"))
    llm_server.responder = model
    first = (await make_plan(task, planner="llm", llm=llm_settings)).plan
    act_step = next(s for s in first.steps if s.type_name == "ACT")
    assert act_step.inputs["url"].endswith("/index.html")  # the model's mistake survived the floor

    conductor = act_harness.conductor(cognition=LLMCognition(LLMClient(llm_settings)), confirm=Answer())
    conductor.reviser = PlanReviser(LLMReplanner(llm_settings))
    bundle = await conductor.run(first, _runtime(act_harness))

    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert model.architect_calls == 2
    final = act_harness.store.load_plan(bundle.run_id)
    assert final.version == 2 and final.plan_id == first.plan_id
    assert "REPLAN:v2" in final.reason_codes
    assert [r.status for r in bundle.step_runs] == [StepStatus.SUCCESS]  # the failure was replaced
    # every gate and blocked action of v1 is still there in v2
    v1_gates = {g.gate_id: set(g.blocked_actions) for g in first.policy_gates}
    v2_gates = {g.gate_id: set(g.blocked_actions) for g in final.policy_gates}
    assert all(gid in v2_gates and blocked <= v2_gates[gid] for gid, blocked in v1_gates.items())
    # the replan's tokens were charged to the run
    assert bundle.budget_used.model_usage.calls == len(llm_server.chat_requests())

    # receipts: the critic's decision and the replan are records of their own; run.json has v2
    notes = act_harness.notes(bundle)
    assert any(n.startswith("critic: replan (STEP_FAILED)") for n in notes), notes
    assert any(n.startswith(f"plan v2 replaces {act_step.step_id}") for n in notes), notes
    meta = json.loads((act_harness.runs_dir / bundle.run_id / "run.json").read_text())
    assert meta["plan_v2"]["version"] == 2

    # the plan view's model and header show the new version, with the replacing step's result
    table = PlanTableModel()
    table.set_plan(first)
    header = ""
    for event in act_harness.bus.history:
        if isinstance(event, PlanRevised):
            table.revise(event.plan)
            header = revision_line(event)
        elif isinstance(event, StepRecorded):
            table.set_step_run(event.step_run)
    assert "Plan v2" in header and act_step.step_id in header
    assert table.status_of(final.steps[-1].step_id) == StepStatus.SUCCESS


async def test_replans_stop_at_two_and_keep_the_failure_honest(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    task = f"Open {site.url('/signup.html')} and fill the signup form with name Ada Lovelace, do not submit"
    wrong = _draft(task, site.url("/index.html"))
    model = Model(task, wrong=site.url("/index.html"), right=site.url("/index.html"))
    model.plans = [wrong, wrong]
    llm_server.responder = model
    first = (await make_plan(task, planner="llm", llm=llm_settings)).plan
    conductor = act_harness.conductor(cognition=LLMCognition(LLMClient(llm_settings)), confirm=Answer())
    conductor.reviser = PlanReviser(LLMReplanner(llm_settings))
    bundle = await conductor.run(first, _runtime(act_harness))
    assert bundle.run_status is RunStatus.FAILED, bundle.reason
    assert model.architect_calls == 3  # the first plan and two replans, never a third
    assert act_harness.store.load_plan(bundle.run_id).version == 3
    assert any("REPLAN_LIMIT" in n for n in act_harness.notes(bundle))


def _runtime(harness: ActHarness) -> RuntimeCtxV1:
    return RuntimeCtxV1(runs_dir=str(harness.runs_dir))
