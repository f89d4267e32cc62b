"""Runs eval tasks through the same core the CLI uses: plan, run (gates approved, blocked actions
still blocked), then the task's checker. Figures per task and per family."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

from pydantic import BaseModel, Field

from browser.request_guard import allow_measurement, end_measurement
from evals.checks import EvalTask
from evals.model_report import Comparison, ModelShare, model_share
from evals.site import EvalSite
from executor.errors import ExecutorError
from executor.gates.approval import ApprovalPolicy
from executor.run.service import AgentCore
from planner.service import PlannerChoice


class TaskResult(BaseModel):
    task_id: str
    family: str
    split: str = "core"
    success: bool  # solved: the checker passed and the status is the right one (see evals/tasks.py)
    check_passed: bool = False
    false_success: bool = False  # the run said SUCCESS while the checker failed
    run_status: str
    steps: int  # browser actions performed (the budget's ui actions)
    tokens: int  # model tokens, prompt + completion (0 for the rule cognition)
    model_calls: int
    seconds: float
    reason: str = ""
    answer: str = ""  # the final answer's start, to read why a task failed
    #: The model's part: its plan used / rejected / fell back, page decisions the rules made instead.
    model: ModelShare = Field(default_factory=ModelShare)


class FamilySummary(BaseModel):
    family: str
    tasks: int
    successes: int
    false_successes: int = 0
    success_rate: float
    median_seconds: float
    mean_tokens: float


class EvalReport(BaseModel):
    cognition: str  # "rules" or the model's name
    results: list[TaskResult]
    families: list[FamilySummary]
    successes: int
    false_successes: int = 0
    total: int
    #: The same tasks by the rules alone, when a model was evaluated (evals/model_report.py).
    comparison: Comparison | None = None


async def run_task(core: AgentCore, site: EvalSite, task: EvalTask, planner: PlannerChoice) -> TaskResult:
    site.reset()
    started = time.perf_counter()
    plan = None
    try:
        plan = (await core.plan(task.text(site.url(task.page)), planner=planner)).plan
        bundle = await core.run(plan, approval_policy=ApprovalPolicy.ALL, secrets=task.secrets or None)
    except (ExecutorError, OSError, RuntimeError, ValueError) as exc:  # one broken task, not the suite
        seconds = round(time.perf_counter() - started, 2)
        reason = f"{type(exc).__name__}: {exc}"[:200]
        model = model_share(plan, None) if plan is not None else ModelShare()
        return TaskResult(task_id=task.task_id, family=task.family, split=task.split, success=False,
                          run_status="ERROR", steps=0, tokens=0, model_calls=0, seconds=seconds,
                          reason=reason, model=model)  # fmt: skip
    seconds = time.perf_counter() - started
    status = str(bundle.run_status)
    seen = site.observe(task, answer=bundle.final_answer or "", status=status)
    checked = task.check(seen)
    said_success = status == "SUCCESS"
    used = bundle.budget_used
    return TaskResult(
        task_id=task.task_id,
        family=task.family,
        split=task.split,
        success=task.solved(seen),
        check_passed=checked,
        false_success=said_success and not (checked and task.satisfiable),
        run_status=status,
        steps=used.actions_used,
        tokens=used.token_est_used,
        model_calls=used.model_usage.calls,
        seconds=round(seconds, 2),
        reason=bundle.reason[:200],
        answer=(bundle.final_answer or "")[:300],
        model=model_share(plan, bundle),
    )


async def run_suite(
    core: AgentCore,
    tasks: Sequence[EvalTask],
    *,
    cognition: str,
    planner: PlannerChoice = "auto",
    on_result: Callable[[TaskResult], None] | None = None,
    on_start: Callable[[EvalTask], None] | None = None,
) -> EvalReport:
    results: list[TaskResult] = []
    with EvalSite() as site:
        state = site.url("/__state")  # the pages' own state reports are measurement, not a leak
        allow_measurement(state)
        try:
            for task in tasks:
                if on_start is not None:
                    on_start(task)
                result = await run_task(core, site, task, planner)
                results.append(result)
                if on_result is not None:
                    on_result(result)
        finally:
            end_measurement(state)
    return EvalReport(
        cognition=cognition,
        results=results,
        families=summarise(results),
        successes=sum(r.success for r in results),
        false_successes=sum(r.false_success for r in results),
        total=len(results),
    )


def summarise(results: Sequence[TaskResult]) -> list[FamilySummary]:
    families: dict[str, list[TaskResult]] = {}
    for result in results:
        families.setdefault(result.family, []).append(result)
    return [
        FamilySummary(
            family=name,
            tasks=len(rows),
            successes=sum(r.success for r in rows),
            false_successes=sum(r.false_success for r in rows),
            success_rate=round(sum(r.success for r in rows) / len(rows), 3),
            median_seconds=round(statistics.median(r.seconds for r in rows), 2),
            mean_tokens=round(statistics.fmean(r.tokens for r in rows), 1),
        )
        for name, rows in families.items()
    ]


def describe(report: EvalReport) -> str:
    """The human table: one line per task, then one per family, then the total. "ok" is solved;
    "FALSE" marks a run that said SUCCESS while the page check failed."""
    lines = [
        f"cognition: {report.cognition}",
        f"{'task':<15} {'ok':<5} {'steps':>5} {'tokens':>7} {'s':>6}  status",
    ]
    for r in report.results:
        mark = "yes" if r.success else "FALSE" if r.false_success else "no"
        lines.append(
            f"{r.task_id:<15} {mark:<5} {r.steps:>5} {r.tokens:>7} {r.seconds:>6.1f}  {r.run_status}"
        )
    lines += ["", f"{'family':<15} {'success':>9} {'false SUCCESS':>14} {'median s':>9} {'tokens':>8}"]
    for f in report.families:
        lines.append(
            f"{f.family:<15} {f.successes:>4}/{f.tasks:<4} {f.false_successes:>14} "
            f"{f.median_seconds:>9.1f} {f.mean_tokens:>8.0f}"
        )
    splits = dict.fromkeys(r.split for r in report.results)
    if len(splits) > 1:
        for split in splits:
            rows = [r for r in report.results if r.split == split]
            ok, false = sum(r.success for r in rows), sum(r.false_success for r in rows)
            lines.append(f"{'split ' + split:<15} {ok:>4}/{len(rows):<4} {false:>14}")
    lines.append(f"{'total':<15} {report.successes:>4}/{report.total:<4} {report.false_successes:>14}")
    return "\n".join(lines)
