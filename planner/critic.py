"""The critic: judges one step's result against the plan's verify criteria, or a plan before it runs.

It only reads data (a StepOutcome, or a plan) and answers ok / replan / stop; the executor
(executor.run.revision) decides what to do with the answer. Replans are bounded: once `max_replans`
is used, a replan-worthy result is `stop`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from planner.models import ExecutionPlan, Step, StepFamily

_RESEARCH_TYPES = frozenset({"RETRIEVE", "WEB_SEARCH", "OPEN_URL", "EXTRACT_DOM", "READ_PDF"})


class StepOutcome(BaseModel):
    """What the critic needs of a step run.

    The executor's StepRunV1 maps onto it as is (unknown fields are ignored):
    `StepOutcome.model_validate({**run.model_dump(mode="json"), "evidence_count": len(run.evidence)})`.
    """

    step_id: str
    status: Literal["SUCCESS", "FAILED", "SKIPPED", "BLOCKED_GATE", "PENDING", "RUNNING"]
    outputs: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    evidence_count: int = Field(default=0, ge=0)


class CriticVerdict(BaseModel):
    verdict: Literal["ok", "replan", "stop"]
    reason_code: str
    reason: str = ""


class Critic:
    """Rule critic. `replans_done` is counted by the caller (one run, one counter)."""

    def __init__(self, max_replans: int = 2) -> None:
        self.max_replans = max_replans

    def judge(self, plan: ExecutionPlan, outcome: StepOutcome, replans_done: int = 0) -> CriticVerdict:
        step = next((s for s in plan.steps if s.step_id == outcome.step_id), None)
        if step is None:
            return CriticVerdict(
                verdict="stop", reason_code="UNKNOWN_STEP", reason=f"{outcome.step_id} not in plan"
            )
        problem = self._problem(plan, step, outcome)
        if problem is None:
            return CriticVerdict(verdict="ok", reason_code="OK")
        code, reason = problem
        if replans_done >= self.max_replans:
            return CriticVerdict(verdict="stop", reason_code=f"REPLAN_LIMIT:{code}", reason=reason)
        return CriticVerdict(verdict="replan", reason_code=code, reason=reason)

    def _problem(self, plan: ExecutionPlan, step: Step, outcome: StepOutcome) -> tuple[str, str] | None:
        criteria = plan.verify_criteria
        if outcome.status in ("BLOCKED_GATE", "PENDING", "RUNNING"):
            return None  # waiting for a person or not finished: nothing to judge yet
        if outcome.status == "FAILED":
            if step.optional:
                return None
            return (
                "STEP_FAILED",
                f"{step.step_id} ({step.type_name}) failed: {outcome.error or 'no error given'}",
            )
        if outcome.status == "SKIPPED":
            return None if step.optional else ("REQUIRED_STEP_SKIPPED", f"{step.step_id} is required")
        if step.type_name in _RESEARCH_TYPES:
            needed = max(criteria.min_evidence, 1 if criteria.require_citations else 0)
            if outcome.evidence_count < needed:
                return (
                    "INSUFFICIENT_EVIDENCE",
                    f"{step.step_id} found {outcome.evidence_count} evidence items, needs {needed}",
                )
        if step.family is StepFamily.ACT and criteria.ui_receipt_required and not _has_receipt(outcome):
            return "MISSING_RECEIPT", f"{step.step_id} left no receipt of what it did"
        if criteria.expected_text and step is plan.steps[-1]:
            text = str(outcome.outputs)
            missing = [t for t in criteria.expected_text if t.casefold() not in text.casefold()]
            if missing:
                return "EXPECTED_TEXT_MISSING", f"missing in {step.step_id} output: {', '.join(missing)}"
        return None


def review_plan(plan: ExecutionPlan) -> CriticVerdict:
    """A plan before it runs: cheap structural checks a model's plan can fail and a replan can fix.

    An acting step with no gate is never "ok": the executor would refuse it anyway, but a plan that
    forgot its gate is a plan the model got wrong.
    """
    if plan.plan_status.value != "READY":
        return CriticVerdict(verdict="ok", reason_code="NOT_RUNNABLE")
    if not plan.steps:
        return CriticVerdict(verdict="replan", reason_code="EMPTY_PLAN", reason="the plan has no steps")
    for step in plan.steps:
        inputs = step.inputs
        if step.is_action and step.policy_gate_id is None:
            return CriticVerdict(
                verdict="replan", reason_code="UNGATED_ACTION", reason=f"{step.step_id} acts with no gate"
            )
        if step.family is StepFamily.ACT and not (inputs.get("goal") or inputs.get("actions")):
            return CriticVerdict(
                verdict="replan", reason_code="ACT_WITHOUT_GOAL", reason=f"{step.step_id} has no goal"
            )
        if step.type_name in ("WEB_SEARCH", "OPEN_URL") and not (
            inputs.get("query") or inputs.get("url") or inputs.get("urls") or step.depends_on
        ):
            return CriticVerdict(
                verdict="replan",
                reason_code="NOTHING_TO_READ",
                reason=f"{step.step_id} ({step.type_name}) has neither a query nor a url",
            )
    return CriticVerdict(verdict="ok", reason_code="OK")


def _has_receipt(outcome: StepOutcome) -> bool:
    keys = ("receipt", "receipts", "actions", "action_records", "final_state")
    return any(outcome.outputs.get(k) for k in keys)


class ReplanBudget:
    """Counts replans of one run so the bound holds across critic calls."""

    def __init__(self, critic: Critic) -> None:
        self.critic = critic
        self.used = 0

    def judge(self, plan: ExecutionPlan, outcome: StepOutcome) -> CriticVerdict:
        verdict = self.critic.judge(plan, outcome, self.used)
        if verdict.verdict == "replan":
            self.used += 1
        return verdict
