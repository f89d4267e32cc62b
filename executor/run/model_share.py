"""The model's share of a run's time: a slow or stalled model never costs a run its answer.

Model calls inside a run (step decisions, summaries, embeddings, a replan) may use at most
MODEL_SHARE of the run's time budget between them, and never its last part (RESERVE_PART, at least
MIN_RESERVE_S): that time is kept for the rules to finish the step and the run. A tool's model calls
also end before the tool's own timeout, with TOOL_RESERVE_PART of it left for the tool's rule path
(an extractive summary instead of the model's). Past either limit planner/llm.py sends nothing more
and cuts the call in progress; the caller answers with its rules (docs/architecture.md, "Slow models").
"""

from __future__ import annotations

from executor.run.budget import BudgetEnforcer
from planner.model_time import SecondsLeft
from planner.models import ExecutionPlan

MODEL_SHARE = 0.6
RESERVE_PART = 0.2
MIN_RESERVE_S = 10.0
TOOL_RESERVE_PART = 0.2


def run_share(budget: BudgetEnforcer, plan: ExecutionPlan) -> SecondsLeft:
    """Seconds the run's model calls may still take (planning's calls are not the run's)."""
    max_s = budget.budget.max_time_ms / 1000
    reserve = max(MIN_RESERVE_S, RESERVE_PART * max_s)
    planning_ms = plan.planning_usage.ms if plan.planning_usage is not None else 0

    def left() -> float:
        used_s = max(0, budget.model_usage.ms - planning_ms) / 1000
        return min(MODEL_SHARE * max_s - used_s, budget.remaining_s() - reserve)

    return left


def tool_part(timeout_s: float) -> float:
    """Of a tool's timeout, the seconds its model calls may take."""
    return timeout_s * (1 - TOOL_RESERVE_PART)
