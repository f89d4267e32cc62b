"""Plan revision inside a run: after a required step fails, retry it, replan, ask the person, or stop.

The critic (planner.critic) judges the failed step; this module decides and applies the decision:
- retry: a transient failure (a page or search that did not answer) runs the step once more;
- replan: the model writes a new plan for the same task (at most MAX_REPLANS per run, only while
  the budget has room); finished steps are kept as they are, and the safety floor is re-applied
  (`merge_plan`), so no gate and no blocked action of the previous version is lost;
- ask: the model refused the goal on the page (unsafe or impossible): a person decides;
- stop: anything else, and whenever the bounds are reached; the conductor ends the run as before.
Every decision is a note in the receipts; a new plan version is one PlanRevised journal entry, which
the run store keeps, the receipts note and write to run.json (`plan_v2`, ...), and the bus shows in
the plan view (executor/journal/views.py).
The plan's `version` counts the replans, so the bound holds across a resume.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from executor.journal.run_journal import Journal, Noted, PlanRevised
from executor.models import PendingUserInput, StepRunV1, StepStatus
from executor.run.budget import BudgetEnforcer
from planner.architect import LLMPlanner
from planner.critic import Critic, StepOutcome, review_plan
from planner.llm_settings import LLMSettings
from planner.metering import metered
from planner.models import ExecutionPlan, PolicyGate, Step
from planner.service import PlanResult

MAX_REPLANS = 2
#: Tokens a replan is assumed to need when the first plan's cost is unknown.
REPLAN_RESERVE_TOKENS = 2_000
MIN_REPLAN_SECONDS = 5.0
TRANSIENT_CODES = frozenset(
    {"page_load", "search_timeout", "search_unreachable", "search_http", "timeout", "tool_timeout"}
)
ASK_CODES = frozenset({"cognition_rejected"})

Decision = Literal["retry", "replan", "ask", "stop"]


class Replanner(Protocol):
    """Writes a new plan for the previous plan's task, told why the previous one failed."""

    async def replan(self, plan: ExecutionPlan, reason: str) -> ExecutionPlan: ...


class LLMReplanner:
    """The LLM architect's replan (a fresh client per call: replans are rare)."""

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings

    async def replan(self, plan: ExecutionPlan, reason: str) -> ExecutionPlan:
        settings = self.settings
        if settings.deadline_s is None:  # a replan is planning: it has planning's deadline
            settings = settings.model_copy(update={"deadline_s": settings.planning_deadline_s})
        architect = LLMPlanner(settings)
        try:
            task = plan.task.user_query if plan.task else ""
            return await architect.replan(task, plan.context, plan, reason)
        finally:
            await architect.aclose()


class RunView(Protocol):
    """What revision reads and changes of a run in progress (the conductor's run state)."""

    run_id: str
    plan: ExecutionPlan
    step_runs: dict[str, StepRunV1]
    outputs: dict[str, dict[str, Any]]


class Revision(BaseModel):
    decision: Decision
    reason_code: str
    reason: str = ""


class PlanReviser:
    """One per conductor; per-run facts live in the plan (its version) and in `_retried`."""

    def __init__(self, replanner: Replanner | None = None, *, critic: Critic | None = None) -> None:
        self.replanner = replanner
        self.critic = critic or Critic(max_replans=MAX_REPLANS)
        self._retried: set[tuple[str, str]] = set()

    def decide(
        self, plan: ExecutionPlan, step_run: StepRunV1, budget: BudgetEnforcer, run_id: str
    ) -> Revision:
        outcome = StepOutcome.model_validate(
            {**step_run.model_dump(mode="json"), "evidence_count": len(step_run.evidence)}
        )
        verdict = self.critic.judge(plan, outcome, plan.version - 1)
        code = step_run.error_code or "error"
        if verdict.verdict == "ok":
            return Revision(decision="stop", reason_code=f"CRITIC_OK:{code}")
        if code in TRANSIENT_CODES and (run_id, step_run.step_id) not in self._retried:
            return Revision(decision="retry", reason_code=f"TRANSIENT:{code}", reason=verdict.reason)
        if code in ASK_CODES:
            return Revision(
                decision="ask", reason_code=f"ASK:{code}", reason=step_run.error or verdict.reason
            )
        if verdict.verdict != "replan":
            return Revision(decision="stop", reason_code=verdict.reason_code, reason=verdict.reason)
        if self.replanner is None:
            return Revision(
                decision="stop", reason_code=f"NO_MODEL:{verdict.reason_code}", reason=verdict.reason
            )
        short = _budget_short(plan, budget)
        if short:
            return Revision(decision="stop", reason_code=f"BUDGET:{verdict.reason_code}", reason=short)
        return Revision(decision="replan", reason_code=verdict.reason_code, reason=verdict.reason)

    async def after_failure(
        self,
        run: RunView,
        step: Step,
        step_run: StepRunV1,
        budget: BudgetEnforcer,
        journal: Journal,
    ) -> ExecutionPlan | PendingUserInput | None:
        """The plan to continue with (the same one for a retry), a question for the person, or
        None to let the conductor end the run as it would have."""
        revision = self.decide(run.plan, step_run, budget, run.run_id)
        said = f"critic: {revision.decision} ({revision.reason_code}) {revision.reason}"
        await journal.append(Noted(text=said, step_id=step.step_id))
        if revision.decision == "retry":
            self._retried.add((run.run_id, step.step_id))
            _forget(run, {step.step_id})
            return run.plan
        if revision.decision == "ask":
            question = f"{step.name or step.step_id} stopped: {revision.reason}. How should I proceed?"
            return PendingUserInput(
                kind="CLARIFICATION", message=revision.reason, question=question, step_id=step.step_id
            )
        if revision.decision != "replan" or self.replanner is None:
            return None
        with metered(budget.charge_model_call):
            fresh = await self.replanner.replan(run.plan, f"{revision.reason_code}: {revision.reason}")
        revised = _usable(run.plan, fresh, run.step_runs, step)
        if revised is None:
            said = "critic: the replan offered nothing new to run; stopping"
            await journal.append(Noted(text=said, step_id=step.step_id))
            return None
        _forget(run, {sid for sid in run.step_runs if sid not in {s.step_id for s in revised.steps}})
        _forget(run, {step.step_id})
        run.plan = revised
        reason = f"{revision.reason_code}: {revision.reason}"
        await journal.append(PlanRevised(plan=revised, replaced_step_id=step.step_id, reason=reason))
        return revised


def _usable(
    previous: ExecutionPlan, fresh: ExecutionPlan, step_runs: dict[str, StepRunV1], failed: Step
) -> ExecutionPlan | None:
    if any(code.startswith("LLM_FALLBACK:") for code in fresh.reason_codes):
        return None  # the model did not answer: the rules would only repeat the failed plan
    revised = merge_plan(previous, fresh, step_runs, failed)
    if revised is None or review_plan(revised).verdict != "ok":
        return None
    return revised


def _budget_short(plan: ExecutionPlan, budget: BudgetEnforcer) -> str:
    """Why the budget cannot take a replan now ('' when it can)."""
    if budget.exceeded():
        return budget.exceeded() or ""
    need = plan.planning_usage.total if plan.planning_usage and plan.planning_usage.total else 0
    need = max(need, REPLAN_RESERVE_TOKENS)
    if budget.tokens + need > budget.budget.max_tokens:
        return f"a replan needs about {need} tokens; {budget.budget.max_tokens - budget.tokens} left"
    if budget.remaining_s() < MIN_REPLAN_SECONDS:
        return f"{budget.remaining_s():.1f} s left"
    return ""


def merge_plan(
    previous: ExecutionPlan, fresh: ExecutionPlan, step_runs: dict[str, StepRunV1], failed: Step
) -> ExecutionPlan | None:
    """The next version: the previous plan's finished steps as they were, then the new plan's
    other steps. Gates are the union of both versions (blocked actions merged, never dropped);
    a new acting step is held to at least the failed step's gate. None when nothing new is left."""
    finished = {StepStatus.SUCCESS, StepStatus.SKIPPED}
    done = {
        s.step_id
        for s in previous.steps
        if s.step_id in step_runs and step_runs[s.step_id].status in finished
    }
    kept = [s for s in previous.steps if s.step_id in done]
    new = [s for s in fresh.steps if s.step_id not in done]
    if not new:
        return None
    gates = _merge_gates(previous, fresh)
    by_id = {g.gate_id: g for g in gates}
    floor_gate = failed.policy_gate_id if failed.is_action else None
    floor_gate = floor_gate or next((s.policy_gate_id for s in previous.steps if s.is_action), None)
    floor = set(by_id[floor_gate].blocked_actions) if floor_gate in by_id else set()
    ids = {s.step_id for s in [*kept, *new]}
    steps: list[Step] = list(kept)
    for step in new:
        gate_id = step.policy_gate_id
        if (
            step.is_action
            and floor_gate
            and (gate_id not in by_id or not floor <= set(by_id[gate_id].blocked_actions))
        ):
            gate_id = floor_gate
        steps.append(
            step.model_copy(
                update={"depends_on": [d for d in step.depends_on if d in ids], "policy_gate_id": gate_id}
            )
        )
    data = previous.model_dump(mode="json")
    data.update(
        steps=[s.model_dump(mode="json") for s in steps],
        policy_gates=[g.model_dump(mode="json") for g in gates],
        sub_queries=[q.model_dump(mode="json") for q in (fresh.sub_queries or previous.sub_queries)],
        version=previous.version + 1,
        reason_codes=[*previous.reason_codes, f"REPLAN:v{previous.version + 1}"],
    )
    return ExecutionPlan.model_validate(data)


def _merge_gates(previous: ExecutionPlan, fresh: ExecutionPlan) -> list[PolicyGate]:
    no_submit = bool(previous.task and previous.task.constraints.no_submit)
    merged: dict[str, PolicyGate] = {}
    for gate in [*previous.policy_gates, *fresh.policy_gates]:
        old = merged.get(gate.gate_id)
        blocked = [*(old.blocked_actions if old else []), *gate.blocked_actions]
        if no_submit and gate.kind.value in ("action", "generic"):
            blocked.append("submit")
        confirm = gate.requires_user_confirm or bool(old and old.requires_user_confirm)
        base = old or gate
        merged[gate.gate_id] = base.model_copy(
            update={"blocked_actions": list(dict.fromkeys(blocked)), "requires_user_confirm": confirm}
        )
    return list(merged.values())


def _forget(run: RunView, step_ids: set[str]) -> None:
    for step_id in step_ids:
        run.step_runs.pop(step_id, None)
        run.outputs.pop(step_id, None)


async def reviewed(result: PlanResult, replanner: Replanner | None) -> PlanResult:
    """A model-made plan checked by the critic before it is shown or run; replanned once when the
    critic finds it wrong and a model is there to fix it. The verdict joins the reason codes."""
    if result.planner_used != "llm":
        return result
    plan = result.plan
    verdict = review_plan(plan)
    code = f"CRITIC:{verdict.verdict}:{verdict.reason_code}"
    if verdict.verdict == "replan" and replanner is not None:
        with metered() as meter:
            fresh = await replanner.replan(plan, f"{verdict.reason_code}: {verdict.reason}")
        usage = meter.usage if plan.planning_usage is None else plan.planning_usage.plus(meter.usage)
        if review_plan(fresh).verdict == "ok" and not any(
            c.startswith("LLM_FALLBACK:") for c in fresh.reason_codes
        ):
            plan = fresh.model_copy(update={"plan_id": plan.plan_id, "trace_id": plan.trace_id})
            code += ":replanned"
        plan = plan.model_copy(update={"planning_usage": usage})
    return replace(result, plan=plan.model_copy(update={"reason_codes": [*plan.reason_codes, code]}))
