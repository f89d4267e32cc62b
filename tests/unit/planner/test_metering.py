"""Token meters: nested scopes, estimates, and planning charged to a run exactly once."""

from __future__ import annotations

import pytest

from executor.errors import BudgetExceeded
from executor.models import BudgetStateV1
from executor.run.budget import BudgetEnforcer
from planner.metering import IMAGE_TOKENS, ModelUsage, estimate_prompt, metered, report
from planner.models import Budget, ExecutionPlan


def test_a_call_counts_in_every_open_scope() -> None:
    report(5, 5)  # no scope open: nobody is charged, nothing breaks
    with metered() as run:
        report(10, 2)
        with metered() as step:
            report(100, 20, estimated=True)
        report(1, 1)
    assert (run.usage.calls, run.usage.total, run.usage.estimated_calls) == (3, 134, 1)
    assert (step.usage.calls, step.usage.total) == (1, 120)


def test_estimates_count_text_and_images() -> None:
    text = [{"role": "user", "content": "x" * 400}]
    image = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:,"}}]}]
    assert estimate_prompt(text) == 104
    assert estimate_prompt(image) == IMAGE_TOKENS + 4


def _plan(max_tokens: int = 10_000) -> ExecutionPlan:
    return ExecutionPlan.model_validate(
        {
            "mode": "A",
            "steps": [{"step_id": "s1", "type": "WEB_SEARCH", "inputs": {"query": "x"}}],
            "budget": Budget(max_tokens=max_tokens),
            "planning_usage": ModelUsage(calls=1, tokens_in=900, tokens_out=250),
        }
    )


def test_planning_is_charged_once_not_again_on_resume() -> None:
    fresh = BudgetEnforcer.for_run(_plan())
    assert fresh.tokens == 1150 and fresh.model_usage.calls == 1
    resumed = BudgetEnforcer.for_run(_plan(), fresh.state())
    assert resumed.tokens == 1150 and resumed.model_usage.calls == 1


def test_a_model_call_past_the_token_limit_stops_the_run() -> None:
    budget = BudgetEnforcer.for_run(_plan(max_tokens=1200), BudgetStateV1())
    with metered(budget.charge_model_call), pytest.raises(BudgetExceeded, match="tokens"):
        report(1000, 300)
    assert budget.model_usage.calls == 1
