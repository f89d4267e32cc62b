"""What the person ruled out or asked first shapes the plan (planner/builders.py, planner/task_signals.py):
a verb after "do not" is never a step's goal, and a question about the named page asked before
acting is answered from that page before anything is done."""

from __future__ import annotations

from planner.models import StepType
from planner.rules import plan_rules


def test_a_ruled_out_verb_is_never_a_step() -> None:
    plan = plan_rules(
        "Free up some storage on https://x.test/account/data, but do not delete any of my files"
    )
    assert plan.task is not None and plan.task.asks.forbidden == ["delete"]
    assert not [s for s in plan.steps if s.type is StepType.ACT]
    assert all("delete" not in f"{s.name} {s.inputs.get('goal', '')}".lower() for s in plan.steps)


def test_a_need_asked_on_the_named_page_is_answered_there_before_acting() -> None:
    plan = plan_rules(
        "On https://x.test/pricing, sign me up for a plan that covers 80 users for under $50 a month."
    )
    kinds = [s.type for s in plan.steps]
    assert kinds[0] is StepType.OPEN_URL and StepType.RETRIEVE not in kinds  # the page, not the web
    compute = next(s for s in plan.steps if s.type is StepType.COMPUTE)
    act = next(s for s in plan.steps if s.type is StepType.ACT)
    assert not compute.optional and compute.step_id in act.depends_on
