"""The model's share of a run's time (executor/run/model_share.py): at most 60% of the time budget for
model calls between them, never the last 20% (at least 10 s), planning's calls not counted."""

from __future__ import annotations

import pytest

from executor.run.budget import BudgetEnforcer
from executor.run.model_share import run_share, tool_part
from planner.metering import ModelUsage
from planner.models import Budget, ExecutionPlan, PlanMode, Step, StepType
from tests.support.virtual_time import ManualClock


def _plan(planning_ms: int = 0) -> ExecutionPlan:
    usage = ModelUsage(calls=1, tokens_in=900, ms=planning_ms) if planning_ms else None
    step = Step(step_id="a1", type=StepType.ACT, inputs={"goal": "fill the form"})
    return ExecutionPlan(
        mode=PlanMode.B, steps=[step], budget=Budget(max_time_ms=100_000), planning_usage=usage
    )


def test_model_calls_share_sixty_percent_and_planning_is_not_the_runs() -> None:
    clock = ManualClock(0.0)
    plan = _plan(planning_ms=40_000)  # a slow plan: its 40 s are planning's, not the run's
    budget = BudgetEnforcer.for_run(plan, clock=clock)
    left = run_share(budget, plan)
    assert left() == pytest.approx(60.0)
    clock.now += 30
    budget.charge_model_call(ModelUsage(calls=1, tokens_in=700, tokens_out=90, ms=25_000))
    assert left() == pytest.approx(35.0)  # 60 - 25 s of calls
    budget.charge_model_call(ModelUsage(calls=1, tokens_in=700, tokens_out=90, ms=40_000))
    assert left() <= 0  # spent: the rules decide from here on


def test_the_last_fifth_of_the_run_is_never_the_models() -> None:
    clock = ManualClock(0.0)
    plan = _plan()
    budget = BudgetEnforcer.for_run(plan, clock=clock)
    left = run_share(budget, plan)
    clock.now += 75  # 25 s left of 100: 20 s are kept for the rules
    assert left() == pytest.approx(5.0)
    clock.now += 5
    assert left() <= 0


def test_a_tools_model_calls_leave_it_time_to_answer() -> None:
    assert tool_part(30.0) == pytest.approx(24.0)
