"""RulePlanner: the offline default (understand -> signals -> router -> builders), deterministic."""

from __future__ import annotations

from planner.builders import TOP_K, build_plan
from planner.models import ContextPack, ExecutionPlan, StepType
from planner.router import select_mode
from planner.signals import extract_signals
from planner.understand import Understanding, understand

_WIDER_TOP_K = TOP_K * 2


def plan_rules(task: str | Understanding, context: ContextPack | None = None) -> ExecutionPlan:
    """Synchronous core of RulePlanner, also the safety floor under the LLM architect."""
    understood = task if isinstance(task, Understanding) else understand(task, context)
    ctx = context or understood.context
    signals = extract_signals(understood.spec, ctx, understood.flags)
    route = select_mode(understood.spec, signals)
    return build_plan(understood.spec, ctx, signals, route)


def widen_research(plan: ExecutionPlan) -> ExecutionPlan:
    """The same plan reaching for more sources: larger top_k and source budget."""
    steps = []
    for step in plan.steps:
        if step.type is StepType.RETRIEVE:
            step = step.model_copy(
                update={
                    "inputs": {**step.inputs, "top_k": _WIDER_TOP_K},
                    "config": {**step.config, "top_k": _WIDER_TOP_K},
                }
            )
        steps.append(step)
    budget = plan.budget.model_copy(update={"max_sources": plan.budget.max_sources + TOP_K})
    return plan.model_copy(update={"steps": steps, "budget": budget})


class RulePlanner:
    """Implements Planner with rules only: no model, no network, well under a millisecond a task."""

    async def plan(self, task: str | Understanding, context: ContextPack | None = None) -> ExecutionPlan:
        return plan_rules(task, context)

    async def replan(
        self, task: str | Understanding, context: ContextPack | None, previous: ExecutionPlan, reason: str
    ) -> ExecutionPlan:
        """A fresh rule plan; when evidence ran short, one that searches wider. Ids stay comparable."""
        plan = plan_rules(task, context).model_copy(update={"trace_id": previous.trace_id})
        if "INSUFFICIENT_EVIDENCE" in reason:
            plan = widen_research(plan)
        return plan.model_copy(update={"reason_codes": [*plan.reason_codes, f"REPLAN:{reason[:80]}"]})
