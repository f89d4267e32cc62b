"""The planner's front door for the app: `make_plan(task, ...) -> PlanResult` (the plan, which
planner made it, the declared secrets)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import SecretStr

from planner.context import build_context
from planner.metering import metered
from planner.models import ContextPack, ExecutionPlan
from planner.rules import plan_rules
from planner.understand import Understanding, understand

if TYPE_CHECKING:
    from planner.llm_settings import LLMSettings

PlannerChoice = Literal["rules", "llm", "auto"]


class PlannerConfigError(ValueError):
    """`--planner llm` was asked for but no model endpoint or key is configured."""


@dataclass(frozen=True)
class PlanResult:
    """The plan, how it was made, and the declared secrets (for the browser layer only)."""

    plan: ExecutionPlan
    planner_used: Literal["rules", "llm"]
    secrets: dict[str, SecretStr] = field(default_factory=dict, repr=False)


async def make_plan(
    task: str,
    *,
    context: ContextPack | None = None,
    planner: PlannerChoice = "auto",
    llm: LLMSettings | None = None,
) -> PlanResult:
    """`auto` uses the model when one is configured (falling back to the rules on any failure)."""
    understood = understand(task, context or build_context(task))
    ctx = context or understood.context
    use_llm = llm is not None and llm.configured and planner != "rules"
    if planner == "llm" and not use_llm:
        raise PlannerConfigError("the llm planner needs a model: set a base URL or an API key")
    if not use_llm or llm is None:
        return _by_rules(understood, ctx)
    from planner.architect import LLMPlanner  # the model's path: its client loads only for a model

    if llm.deadline_s is None:  # a slow model never holds planning longer than its setting
        llm = llm.model_copy(update={"deadline_s": llm.planning_deadline_s})
    architect = LLMPlanner(llm)
    started = time.monotonic()
    try:
        with metered() as meter:
            plan = await architect.plan(understood, ctx)
    finally:
        await architect.aclose()
    spent_ms = int((time.monotonic() - started) * 1000)  # shown beside the run's own time budget
    deadline_ms = int((llm.deadline_s or llm.planning_deadline_s) * 1000)
    plan = plan.model_copy(
        update={"planning_usage": meter.usage, "planning_ms": spent_ms, "planning_deadline_ms": deadline_ms}
    )
    used: Literal["rules", "llm"] = (
        "rules" if any(c.startswith("LLM_FALLBACK:") for c in plan.reason_codes) else "llm"
    )
    return PlanResult(plan=plan, planner_used=used, secrets=understood.secrets)


def plan_by_rules(task: str, *, context: ContextPack | None = None) -> PlanResult:
    """The rules' plan, without an event loop: what `waypost plan --planner rules` needs, and all."""
    understood = understand(task, context or build_context(task))
    return _by_rules(understood, context or understood.context)


def _by_rules(understood: Understanding, ctx: ContextPack) -> PlanResult:
    return PlanResult(plan=plan_rules(understood, ctx), planner_used="rules", secrets=understood.secrets)
