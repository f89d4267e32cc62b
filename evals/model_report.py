"""What the model did in an eval, per task and against the rules on the same tasks.

Per task: whether the model's plan was used, rejected (why) or fell back to the rules (why), how many
page decisions the rules made in its place, model calls, tokens and seconds. Then one line comparing
the suite with the model to the rule baseline run on the same tasks: what the model gained and, the
number that matters most, what it lost (docs/architecture.md, "Slow models").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from planner.model_words import plan_verdict

if TYPE_CHECKING:
    from evals.runner import EvalReport, TaskResult
    from executor.models import RunBundleV1
    from planner.models import ExecutionPlan


class ModelShare(BaseModel):
    """The model's part in one task."""

    plan: str = "rules"  # used | rejected | fell_back | skipped | rules
    plan_why: str = ""
    decisions: int = 0  # page decisions asked of the cognition
    rules_decided: int = 0  # ... of which the rules made in the model's place
    fallback_reasons: dict[str, int] = Field(default_factory=dict)
    model_seconds: float = 0.0


class Comparison(BaseModel):
    """The same tasks with the model and with the rules alone."""

    tasks: int
    model_solved: int
    rules_solved: int
    lost: list[str]  # solved by the rules, not with the model
    gained: list[str]  # solved with the model, not by the rules


def model_share(plan: ExecutionPlan, bundle: RunBundleV1 | None) -> ModelShare:
    verdict, why = plan_verdict(plan)
    share = ModelShare(plan=verdict, plan_why=why)
    if bundle is None:
        return share
    share.model_seconds = round(bundle.budget_used.model_usage.ms / 1000, 1)
    for run in bundle.step_runs:
        summary = run.outputs.get("model_fallback")  # a summary the rules wrote instead
        if isinstance(summary, str):
            key = f"summary {summary}"
            share.fallback_reasons[key] = share.fallback_reasons.get(key, 0) + 1
        cognition = run.outputs.get("cognition")
        if not isinstance(cognition, Mapping):
            continue
        share.decisions += int(cognition.get("decisions") or 0)
        share.rules_decided += int(cognition.get("fallbacks") or 0)
        for reason, count in dict(cognition.get("fallback_reasons") or {}).items():
            share.fallback_reasons[reason] = share.fallback_reasons.get(reason, 0) + int(count)
    return share


def compare(with_model: Sequence[TaskResult], rules: Sequence[TaskResult]) -> Comparison:
    baseline = {r.task_id: r.success for r in rules}
    ids = [r.task_id for r in with_model if r.task_id in baseline]
    solved = {r.task_id for r in with_model if r.success}
    return Comparison(
        tasks=len(ids),
        model_solved=sum(1 for t in ids if t in solved),
        rules_solved=sum(1 for t in ids if baseline[t]),
        lost=[t for t in ids if baseline[t] and t not in solved],
        gained=[t for t in ids if t in solved and not baseline[t]],
    )


def comparison_line(c: Comparison) -> str:
    lost = ", ".join(c.lost) if c.lost else "none"
    gained = ", ".join(c.gained) if c.gained else "none"
    return (
        f"with the model {c.model_solved}/{c.tasks}, rules alone {c.rules_solved}/{c.tasks} on the same "
        f"tasks; lost to the model: {lost}; gained: {gained}"
    )


_PLAN_WORDS = {"used": "model's", "rejected": "rejected", "fell_back": "fell back", "skipped": "skipped"}


def describe_model(report: EvalReport) -> str:
    """The model's table: one line per task, the plan verdict's reasons below it, then the totals."""
    lines = [f"{'task':<15} {'plan':<10} {'rules/dec':>9} {'calls':>5} {'tokens':>7} {'model s':>7}"]
    for r in report.results:
        m = r.model
        plan = _PLAN_WORDS.get(m.plan, m.plan)
        lines.append(
            f"{r.task_id:<15} {plan:<10} {m.rules_decided:>4}/{m.decisions:<4} {r.model_calls:>5} "
            f"{r.tokens:>7} {m.model_seconds:>7.1f}"
        )
        why = [m.plan_why] if m.plan_why else []
        why += [f"{reason} x{n}" for reason, n in m.fallback_reasons.items()]
        if why:
            lines.append(f"{'':<15} why: {'; '.join(why)}")
    lines.append(plan_totals(r.model for r in report.results))
    if report.comparison is not None:
        lines.append(comparison_line(report.comparison))
    return "\n".join(lines)


def plan_totals(shares: Iterable[ModelShare]) -> str:
    counts: dict[str, int] = {}
    decided = decisions = 0
    for m in shares:
        counts[m.plan] = counts.get(m.plan, 0) + 1
        decided, decisions = decided + m.rules_decided, decisions + m.decisions
    plans = ", ".join(f"{_PLAN_WORDS.get(k, k)} {n}" for k, n in counts.items())
    return f"plans: {plans}; page decisions made by the rules in the model's place: {decided} of {decisions}"


def progress_line(result: TaskResult) -> str:
    """One line per finished task, for the terminal."""
    mark = "ok " if result.success else "-- "
    line = f"{mark}{result.task_id} ({result.seconds:.1f} s, {result.run_status}"
    m = result.model
    if m.plan != "rules":
        plan = _PLAN_WORDS.get(m.plan, m.plan)
        line += f"; plan: {plan}, model {result.model_calls} calls {m.model_seconds:.0f} s"
    return line + ")"
