"""RulePlanner: the offline default (understand -> signals -> router -> builders), deterministic."""

from __future__ import annotations

from planner import lexicon as lx
from planner._text import Text, has_terms
from planner.ask_reader import VERB_OBJECT
from planner.asks import meaningful_unread
from planner.builders import TOP_K, build_plan
from planner.models import ContextPack, ExecutionPlan, Intent, PlanMode, PlanStatus, StepType, TaskSpecV1
from planner.router import Route, select_mode
from planner.task_signals import extract_signals
from planner.understand import Understanding, understand

_WIDER_TOP_K = TOP_K * 2


def plan_rules(task: str | Understanding, context: ContextPack | None = None) -> ExecutionPlan:
    """Synchronous core of RulePlanner, also the safety floor under the LLM architect."""
    understood = task if isinstance(task, Understanding) else understand(task, context)
    ctx = context or understood.context
    signals = extract_signals(understood.spec, ctx, understood.flags)
    route = unread_route(understood.spec) or select_mode(understood.spec, signals)
    return build_plan(understood.spec, ctx, signals, route)


def unread_route(spec: TaskSpecV1) -> Route | None:
    """A task on a page that the rules could not read at all is a question up front ("what should I
    click for 'frobnicate the synergies'?"), never a plan that does something else."""
    asks = spec.asks
    if asks.asks or not meaningful_unread(asks) or has_terms(Text(spec.user_query), lx.CHANGE):
        return None  # a verb the older rules know ("upload my CV") is theirs to plan
    if spec.intent is Intent.RESEARCH:
        return None  # a question is researched; what it did not name is said with the answer
    if spec.intent not in (Intent.UNCLEAR, Intent.ACTION) and not any(
        VERB_OBJECT.match(part) for part in meaningful_unread(asks)
    ):
        return None  # "check my account and explain": reading the state answers it
    said = "; ".join(f'"{u}"' for u in meaningful_unread(asks))
    if spec.constraints.language == "vi":
        question = (
            f"Tôi không hiểu phải làm gì với {said} trên trang này. Bạn muốn tôi điền gì hoặc bấm vào đâu?"
        )
    else:
        question = f"I could not tell what to do for {said} on this page. What should I fill in or click?"
    return Route(PlanMode.CLARIFY, PlanStatus.NEEDS_CLARIFICATION, ["CLARIFY:unread_task"], question)


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
