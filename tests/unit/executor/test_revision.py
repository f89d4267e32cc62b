"""Revision decisions and plan merging: bounds, budget, kept steps, and a safety floor on replans."""

from __future__ import annotations

from typing import Any

from executor.models import StepRunV1, StepStatus
from executor.run.budget import BudgetEnforcer
from executor.run.revision import PlanReviser, merge_plan, reviewed
from planner.critic import review_plan
from planner.models import Budget, ExecutionPlan
from planner.service import PlanResult

GATE = {"gate_id": "gate_action", "kind": "action", "blocked_actions": ["submit", "delete"]}


def _plan(
    steps: list[dict[str, Any]], gates: list[dict[str, Any]] | None = None, **extra: Any
) -> ExecutionPlan:
    return ExecutionPlan.model_validate(
        {"mode": "C", "steps": steps, "policy_gates": [GATE] if gates is None else gates, **extra}
    )


SEARCH = {"step_id": "s1", "type": "WEB_SEARCH", "inputs": {"query": "ada"}}
ACT = {"step_id": "a1", "type": "ACT", "depends_on": ["s1"], "policy_gate_id": "gate_action",
       "inputs": {"goal": "fill", "url": "http://x/"}}  # fmt: skip


class FakeReplanner:
    def __init__(self, plan: ExecutionPlan) -> None:
        self.plan = plan
        self.reasons: list[str] = []

    async def replan(self, plan: ExecutionPlan, reason: str) -> ExecutionPlan:
        self.reasons.append(reason)
        return self.plan


def _failed(step_id: str, code: str = "goal_not_met") -> StepRunV1:
    return StepRunV1(step_id=step_id, step_type="ACT", status=StepStatus.FAILED, error="x", error_code=code)


def test_merge_keeps_finished_steps_and_never_loosens_a_gate() -> None:
    previous = _plan([SEARCH, ACT])
    loose_gate = {"gate_id": "gate_loose", "kind": "action", "blocked_actions": []}
    fresh = _plan(
        [{**SEARCH, "inputs": {"query": "other"}}, {**ACT, "step_id": "a2", "policy_gate_id": "gate_loose"}],
        gates=[{**GATE, "blocked_actions": []}, loose_gate],
    )
    done = {"s1": StepRunV1(step_id="s1", step_type="WEB_SEARCH", status=StepStatus.SUCCESS)}
    merged = merge_plan(previous, fresh, done, previous.steps[1])
    assert merged is not None and merged.version == 2 and merged.plan_id == previous.plan_id
    assert [s.step_id for s in merged.steps] == ["s1", "a2"]
    assert merged.steps[0].inputs == {"query": "ada"}  # the finished step as it ran
    assert merged.steps[1].policy_gate_id == "gate_action"  # held to the failed step's gate
    gates = {g.gate_id: g.blocked_actions for g in merged.policy_gates}
    assert gates["gate_action"] == ["submit", "delete"]


def test_merge_with_nothing_new_is_none() -> None:
    previous = _plan([SEARCH, ACT])
    done = {"s1": StepRunV1(step_id="s1", step_type="WEB_SEARCH", status=StepStatus.SUCCESS)}
    assert merge_plan(previous, _plan([SEARCH]), done, previous.steps[1]) is None


def test_decisions_retry_replan_ask_stop() -> None:
    plan = _plan([SEARCH, ACT])
    reviser = PlanReviser(FakeReplanner(plan))
    budget = BudgetEnforcer(plan.budget)
    assert reviser.decide(plan, _failed("a1", "page_load"), budget, "r").decision == "retry"
    assert reviser.decide(plan, _failed("a1"), budget, "r").decision == "replan"
    assert reviser.decide(plan, _failed("a1", "cognition_rejected"), budget, "r").decision == "ask"
    third = plan.model_copy(update={"version": 3})
    stop = reviser.decide(third, _failed("a1"), budget, "r")
    assert stop.decision == "stop" and stop.reason_code.startswith("REPLAN_LIMIT")
    assert PlanReviser(None).decide(plan, _failed("a1"), budget, "r").reason_code.startswith("NO_MODEL")


def test_no_replan_when_the_budget_cannot_pay_for_it() -> None:
    plan = _plan([SEARCH, ACT], budget=Budget(max_tokens=3_000))
    budget = BudgetEnforcer(plan.budget)
    budget.tokens = 2_000
    revision = PlanReviser(FakeReplanner(plan)).decide(plan, _failed("a1"), budget, "r")
    assert revision.decision == "stop" and revision.reason_code.startswith("BUDGET")


async def test_a_wrong_model_plan_is_reviewed_and_replanned_before_it_runs() -> None:
    ungated = _plan([SEARCH, {**ACT, "policy_gate_id": None}])
    assert review_plan(ungated).reason_code == "UNGATED_ACTION"
    good = _plan([SEARCH, ACT])
    replanner = FakeReplanner(good)
    result = await reviewed(PlanResult(plan=ungated, planner_used="llm"), replanner)
    assert result.plan.steps[1].policy_gate_id == "gate_action"
    assert result.plan.plan_id == ungated.plan_id
    assert result.plan.reason_codes[-1] == "CRITIC:replan:UNGATED_ACTION:replanned"
    rules = await reviewed(PlanResult(plan=ungated, planner_used="rules"), replanner)
    assert rules.plan is ungated and len(replanner.reasons) == 1  # rule plans are not reviewed
