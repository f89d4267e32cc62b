"""The act loop's routing, termination and recovery, through the conductor on a scripted driver."""

from __future__ import annotations

from browser.models import OutcomeStatus
from executor.models import RunStatus, StepStatus
from planner.decisions import CognitionDecision
from tests.support.loop_harness import LoopHarness, plan_of
from tests.unit.act._scripted import ScriptedCognition, ScriptedDriver, act, answer

FORM = [
    {"tag": "button", "role": "button", "name": "Next"},
    {"tag": "input", "role": "textbox", "name": "Email"},
    {"tag": "input", "role": "textbox", "name": "Package"},
]


def goal_step(**inputs: object) -> dict[str, object]:
    return {"step_id": "a1", "type": "ACT", "inputs": {"goal": "fill the form", **inputs}}


async def test_payload_comes_from_the_compute_step(loop: LoopHarness) -> None:
    loop.tools["compute"].outputs = {"recommendation": {"name": "Pro"}, "payload": {"email": "x@example.com"}}
    cognition = ScriptedCognition(answer())
    plan = plan_of(
        {"step_id": "c1", "type": "COMPUTE"},
        {**goal_step(payload={"package": "{{step:c1.recommendation.name}}"}), "depends_on": ["c1"]},
    )
    bundle = await loop.run(plan, cognition=cognition)
    assert cognition.seen[0][0] == {"email": "x@example.com", "package": "Pro"}
    # The scripted cognition said "done" without typing: the page does not hold the values.
    assert bundle.run_status is not RunStatus.SUCCESS, bundle.reason
    assert "email, package" in bundle.reason


async def test_the_same_action_on_an_unchanged_page_is_a_loop(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver(FORM)
    bundle = await loop.run(
        plan_of(goal_step()), cognition=ScriptedCognition(act({"kind": "click", "target": {"index": 0}}))
    )
    assert bundle.run_status is RunStatus.FAILED
    (step,) = bundle.step_runs
    assert step.status is StepStatus.FAILED and step.error_code == "loop_detected", step.error
    assert [a.kind for a in loop.driver.performed] == ["click", "click"]


async def test_a_listed_action_not_found_stops_the_step_at_once(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver(FORM)
    loop.driver.outcomes = [OutcomeStatus.NOT_FOUND] * 10
    clicks = [{"kind": "click", "target": {"text": f"Button {n}"}} for n in range(4)]
    step = {"step_id": "a1", "type": "ACT", "inputs": {"actions": clicks}, "config": {"max_retries": 1}}
    bundle = await loop.run(plan_of(step))
    assert bundle.run_status is RunStatus.FAILED
    assert bundle.step_runs[0].error_code == "action_failed"
    assert 'nothing on the page matches the element reading "Button 0"' in bundle.reason
    assert len(loop.driver.performed) == 1  # absent from a settled page: no retry, nothing after it
    assert [r.outcome.status for r in loop.records(bundle)] == ["not_found"]


async def test_timeouts_are_retried_and_the_final_attempt_counts(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver(FORM)
    loop.driver.outcomes = [OutcomeStatus.TIMEOUT, OutcomeStatus.OK]
    step = {
        "step_id": "a1",
        "type": "ACT",
        "inputs": {"actions": [{"kind": "click", "target": {"text": "A"}}]},
    }
    bundle = await loop.run(plan_of(step))
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert [r.outcome.status for r in loop.records(bundle)] == ["timeout", "ok"]


async def test_a_missing_element_is_retried_after_a_fresh_observation(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver(FORM)
    loop.driver.outcomes = [OutcomeStatus.NOT_FOUND, OutcomeStatus.OK]
    step = {
        "step_id": "a1",
        "type": "ACT",
        "inputs": {"actions": [{"kind": "click", "target": {"index": 0}}]},
    }
    bundle = await loop.run(plan_of(step))
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert [r.outcome.status for r in loop.records(bundle)] == ["not_found", "ok"]


async def test_per_step_cap(loop: LoopHarness) -> None:
    fills = [{"kind": "fill", "target": {"index": 1}, "value": str(n)} for n in range(5)]
    step = {"step_id": "a1", "type": "ACT", "inputs": {"actions": fills}, "config": {"max_actions": 3}}
    bundle = await loop.run(plan_of(step))
    assert bundle.step_runs[0].error_code == "max_actions"
    assert len(loop.driver.performed) == 3


async def test_run_action_budget_ends_the_run_before_the_next_action(loop: LoopHarness) -> None:
    fills = [{"kind": "fill", "target": {"index": 1}, "value": str(n)} for n in range(4)]
    bundle = await loop.run(
        plan_of({"step_id": "a1", "type": "ACT", "inputs": {"actions": fills}}, budget={"max_actions": 2})
    )
    assert bundle.run_status is RunStatus.ABORTED_BUDGET
    assert "actions" in bundle.reason and len(loop.driver.performed) == 2
    assert bundle.budget_used.actions_used == 2


async def test_navigation_mid_batch_drops_the_rest_and_observes_again(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver(FORM)

    def navigate_on_click(action: object) -> None:
        if getattr(action, "kind", "") == "click":
            loop.driver._url = "http://127.0.0.1:9/next"

    loop.driver.on_perform = navigate_on_click
    batch = act(
        {"kind": "click", "target": {"index": 0}}, {"kind": "fill", "target": {"index": 1}, "value": "x"}
    )
    cognition = ScriptedCognition(batch, answer("moved on"))
    bundle = await loop.run(plan_of(goal_step()), cognition=cognition)
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert [a.kind for a in loop.driver.performed] == ["click"]
    assert len(cognition.seen) == 2 and cognition.seen[1][1][-1].action["kind"] == "click"
    assert bundle.step_runs[0].outputs["final_url"] == "http://127.0.0.1:9/next"


async def test_decisions_route_the_loop(loop: LoopHarness) -> None:
    noop = CognitionDecision(decision="noop", confidence=0.5, rationale="waiting")
    bundle = await loop.run(plan_of(goal_step()), cognition=ScriptedCognition(noop))
    assert bundle.step_runs[0].error_code == "no_progress"

    reject = CognitionDecision(decision="reject", confidence=1.0, rationale="unsafe")
    bundle = await loop.run(plan_of(goal_step()), cognition=ScriptedCognition(reject))
    assert bundle.step_runs[0].error_code == "cognition_rejected"

    ask = CognitionDecision(decision="request_info", confidence=0.2, question="Which plan?")
    bundle = await loop.run(plan_of(goal_step()), cognition=ScriptedCognition(ask))
    assert bundle.run_status is RunStatus.NEEDS_CLARIFICATION
    assert bundle.pending_user_input is not None and bundle.pending_user_input.question == "Which plan?"


async def test_every_action_is_published_live_with_its_gate(loop: LoopHarness) -> None:
    fills = [{"kind": "fill", "target": {"index": 1}, "value": "a@b.co"}]
    bundle = await loop.run(
        plan_of(
            {
                "step_id": "a1",
                "type": "FORM_FILL",
                "inputs": {"url": "http://127.0.0.1:9/f", "actions": fills},
            }
        )
    )
    events = [e for e in loop.bus.history if e.kind == "action_recorded"]
    assert [e.action["kind"] for e in events] == ["navigate", "fill"]
    assert all(e.screenshot_path and e.step_id == "a1" for e in events)
    assert all(r.gate is not None and r.gate.gate_id == "gate_action" for r in loop.records(bundle))
    assert bundle.budget_used.actions_used == 2


async def test_a_written_list_may_repeat_itself(loop: LoopHarness) -> None:
    scrolls = [{"kind": "scroll", "direction": "down"}] * 4  # same page state each time: not a loop
    bundle = await loop.run(plan_of({"step_id": "a1", "type": "ACT", "inputs": {"actions": scrolls}}))
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert len(loop.driver.performed) == 4


async def test_browser_guard_refusals_are_reported(loop: LoopHarness) -> None:
    loop.driver.outcomes = [OutcomeStatus.BLOCKED]
    step = {
        "step_id": "a1",
        "type": "ACT",
        "inputs": {"actions": [{"kind": "click", "target": {"text": "Go on"}, "optional": True}]},
    }
    bundle = await loop.run(plan_of(step))
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason  # optional: the step stands without it
    assert bundle.step_runs[0].outputs["refused"][0]["risk"] == "browser_guard"
    assert loop.records(bundle)[-1].action["optional"] is True  # the receipts say it was optional


async def test_a_refused_listed_action_fails_the_step_with_its_reason(loop: LoopHarness) -> None:
    loop.driver.outcomes = [OutcomeStatus.BLOCKED]
    step = {
        "step_id": "a1",
        "type": "ACT",
        "inputs": {"actions": [{"kind": "click", "target": {"text": "Go on"}}]},
    }
    bundle = await loop.run(plan_of(step))
    assert bundle.run_status is RunStatus.FAILED
    assert 'click the element reading "Go on" was refused' in bundle.reason
    assert bundle.step_runs[0].error and bundle.step_runs[0].error in (bundle.final_answer or "")
    assert bundle.step_runs[0].error in bundle.reason


async def test_insisting_on_a_refused_action_stops_the_step(loop: LoopHarness) -> None:
    loop.driver = ScriptedDriver([{"tag": "button", "role": "button", "name": "Buy now"}])
    cognition = ScriptedCognition(act({"kind": "click", "target": {"index": 0}}))
    bundle = await loop.run(plan_of(goal_step()), cognition=cognition)  # purchase is blocked by the gate
    assert bundle.step_runs[0].error_code == "refused_repeated"
    assert loop.driver.performed == []
    assert [r.outcome.status for r in loop.records(bundle)] == ["blocked"]
