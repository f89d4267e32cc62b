"""Per-action safety inside an approved step: refusals, questions, pauses and a resume that goes on."""

from __future__ import annotations

from typing import Any

import pytest

from executor.gates.confirm import ConfirmAnswer
from executor.models import Approval, RunStatus
from planner.llm import LLMClient
from planner.llm_cognition import LLMCognition
from planner.llm_settings import LLMSettings
from tests.integration.act.test_model import act, done, index_of, page_of
from tests.support.act_harness import ActHarness, Answer, act_plan, worded
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]


def buy_once(body: dict[str, Any]) -> Reply:
    page = page_of(body)
    if "'kind': 'click'" in page.split("Page:")[0]:
        return done("nothing else to do")
    return act({"kind": "click", "index": index_of(page, "Buy")}, confidence=0.95)


async def test_page_text_cannot_make_the_agent_buy(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.responder = buy_once  # a model that obeys the page's "ignore your instructions"
    inputs = {"url": site.url("/injection.html"), "goal": "Read the offer", "payload": {}}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}])  # purchase stays blocked
    answers = Answer()
    bundle = await act_harness.run(plan, confirm=answers, cognition=LLMCognition(LLMClient(llm_settings)))
    assert bundle.run_status is RunStatus.FAILED, bundle.reason  # a refused action is not a success
    assert "was refused: purchase is blocked" in bundle.reason
    clicks = [r for r in act_harness.actions(bundle) if r.action["kind"] == "click"]
    assert [c.outcome.status for c in clicks] == ["blocked"]
    assert "purchase" in clicks[0].outcome.message
    assert [r.decision.gate_id for r in answers.requests] == ["gate_action"]  # nobody was asked to buy
    assert bundle.step_runs[0].outputs["refused"][0]["risk"] == "purchase"


async def test_unblocked_purchase_waits_for_its_own_approval(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    llm_server.responder = buy_once
    inputs = {"url": site.url("/injection.html"), "goal": "Read the offer", "payload": {}}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
    plan = worded(plan, "buy the offer")  # a task that asks to buy: else a purchase is blocked outright
    cognition = LLMCognition(LLMClient(llm_settings))
    bundle = await act_harness.run(plan, cognition=cognition, confirmed_gates={"gate_action": True})
    assert bundle.run_status is RunStatus.NEEDS_CONFIRMATION, bundle.reason
    assert bundle.pending_user_input is not None
    assert bundle.pending_user_input.gate_id == "gate_action:purchase:2"
    assert bundle.checkpoint_ref is not None
    assert [r.action["kind"] for r in act_harness.actions(bundle)] == ["navigate"]  # Buy never clicked


async def test_declined_action_is_recorded_and_skipped(act_harness: ActHarness, site: FixtureSite) -> None:
    site.clear_posts()
    actions = [
        {"kind": "fill", "target": {"label": "Name"}, "value": "Ada"},
        {"kind": "click", "target": {"role": "button", "name": "Create account"}},
    ]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/signup.html"), "actions": actions}}],
        gates=OPEN_GATE,
    )
    answers = Answer(ConfirmAnswer.APPROVE, submit=ConfirmAnswer.DENY)
    bundle = await act_harness.run(plan, confirm=answers)
    assert bundle.run_status is RunStatus.FAILED, bundle.reason  # the listed click never happened
    assert 'click button "Create account" was refused: submit declined by user' in bundle.reason
    _, action_ask = answers.requests
    assert action_ask.decision.gate_kind == "submit"
    assert action_ask.target == 'click role=button name="Create account"'
    assert action_ask.screenshot_path is not None and action_ask.screenshot_path.endswith(".png")
    assert site.post_count() == 0
    assert act_harness.actions(bundle)[-1].outcome.status == "blocked"


async def test_resume_after_a_per_action_pause_does_not_repeat_actions(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    site.clear_posts()
    actions = [
        {"kind": "fill", "target": {"label": "Name"}, "value": "Ada"},
        {"kind": "fill", "target": {"label": "Email"}, "value": "ada@example.com"},
        {"kind": "click", "target": {"role": "button", "name": "Create account"}},
    ]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/signup.html"), "actions": actions}}],
        gates=OPEN_GATE,
    )
    paused = await act_harness.run(plan, confirmed_gates={"gate_action": True})  # no one to ask
    assert paused.run_status is RunStatus.NEEDS_CONFIRMATION, paused.reason
    pending = paused.pending_user_input
    assert pending is not None and pending.gate_id == "gate_action:submit:4" and pending.step_id == "a1"
    assert site.post_count() == 0

    yes = Approval(run_id=paused.run_id, gate_id=pending.gate_id, step_id="a1", approved=True)
    resumed = await act_harness.run(plan, resume_checkpoint_ref=paused.run_id, approvals=[yes])
    assert resumed.run_status is RunStatus.SUCCESS, resumed.reason
    assert resumed.run_id == paused.run_id
    assert site.post_count("/signup") == 1  # the click happened once, on the restored form
    assert b"name=Ada" in site.post_bodies("/signup")[0]
    records = act_harness.actions(resumed)
    clicks = [r for r in records if r.action["kind"] == "click"]
    assert len(clicks) == 1 and clicks[0].gate is not None and clicks[0].gate.gate_id == pending.gate_id
    assert any("no click or other action is repeated" in n for n in act_harness.notes(resumed))
    assert resumed.step_runs[0].outputs["status"] == "done"


async def test_low_confidence_never_submits_without_a_person(
    act_harness: ActHarness, site: FixtureSite, llm_server: ScriptedLLMServer, llm_settings: LLMSettings
) -> None:
    site.clear_posts()

    def respond(body: dict[str, Any]) -> Reply:
        return act({"kind": "click", "index": index_of(page_of(body), "Create account")}, confidence=0.3)

    llm_server.responder = respond
    submit_gate = [{"gate_id": "gate_submit", "kind": "submit", "blocked_actions": ["purchase", "delete"]}]
    inputs = {"url": site.url("/signup.html"), "goal": "Submit: send the form", "payload": {}}
    plan = act_plan([{"step_id": "a2", "type": "ACT", "inputs": inputs}], gates=submit_gate)
    cognition = LLMCognition(LLMClient(llm_settings))
    bundle = await act_harness.run(plan, cognition=cognition, confirmed_gates={"gate_submit": True})
    # LLMCognition turns the low-confidence submit into a question; either way no POST and a person decides.
    assert bundle.run_status in (RunStatus.NEEDS_CONFIRMATION, RunStatus.NEEDS_CLARIFICATION), bundle.reason
    assert site.post_count() == 0


class LowConfidenceClick:
    """A cognition that wants a covered, irreversible click but is not sure of it."""

    async def decide(self, goal: str, payload: dict[str, str], observation: Any, history: Any) -> Any:
        from planner.decisions import CognitionDecision

        button = next(e for e in observation.elements if e.name == "Create account")
        action = {"kind": "click", "target": {"index": button.index}}
        return CognitionDecision(decision="act", actions=[action], confidence=0.2, rationale="maybe")


async def test_low_confidence_overrides_a_covering_gate(act_harness: ActHarness, site: FixtureSite) -> None:
    site.clear_posts()
    submit_gate = [{"gate_id": "gate_submit", "kind": "submit", "blocked_actions": ["purchase", "delete"]}]
    inputs = {"url": site.url("/signup.html"), "goal": "Finish the signup", "payload": {}}
    plan = act_plan([{"step_id": "a2", "type": "ACT", "inputs": inputs}], gates=submit_gate)
    bundle = await act_harness.run(
        plan, cognition=LowConfidenceClick(), confirmed_gates={"gate_submit": True}
    )
    assert bundle.run_status is RunStatus.NEEDS_CONFIRMATION, bundle.reason
    assert bundle.pending_user_input is not None
    assert "low confidence" in bundle.pending_user_input.message
    assert site.post_count() == 0
