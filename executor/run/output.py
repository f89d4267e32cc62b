"""OutputFormatter: one RunBundle shape for every ending of a run (statuses: docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from common.contracts import utc_now
from executor.models import (
    BudgetStateV1,
    Citation,
    EvidenceItem,
    ExecMode,
    PendingUserInput,
    RunBundleV1,
    RunStatus,
    StepRunV1,
)
from planner.models import ExecutionPlan


class OutputFormatter:
    def __init__(self, plan: ExecutionPlan, run_id: str, exec_mode: ExecMode, started_at: datetime) -> None:
        self.plan = plan
        self.run_id = run_id
        self.exec_mode = exec_mode
        self.started_at = started_at

    def bundle(
        self,
        status: RunStatus,
        *,
        reason: str = "",
        step_runs: Sequence[StepRunV1] = (),
        evidence: Sequence[EvidenceItem] = (),
        actions: Sequence[str] = (),
        act_actions: Sequence[str] = (),
        answer: str | None = None,
        citations: Sequence[Citation] = (),
        pending: PendingUserInput | None = None,
        checkpoint_ref: str | None = None,
        budget: BudgetStateV1 | None = None,
        last_url: str | None = None,
        run_dir: str | None = None,
    ) -> RunBundleV1:
        receipt = {"actions": list(act_actions), "final_url": last_url}
        if run_dir is not None:
            receipt["run_dir"] = run_dir
        return RunBundleV1(
            trace_id=self.plan.trace_id,
            run_id=self.run_id,
            plan_id=self.plan.plan_id,
            exec_mode=self.exec_mode,
            run_status=status,
            reason=reason,
            final_answer=answer,
            citations=list(citations),
            evidence=list(evidence),
            evidence_count=len(evidence),
            actions_taken=list(actions),
            step_runs=list(step_runs),
            receipt=receipt,
            pending_user_input=pending,
            checkpoint_ref=checkpoint_ref,
            budget_used=budget or BudgetStateV1(),
            started_at=self.started_at,
            finished_at=utc_now(),
        )

    def clarify(self, question: str, reason: str = "plan_not_ready") -> RunBundleV1:
        return self.bundle(
            RunStatus.NEEDS_CLARIFICATION,
            reason=reason,
            pending=PendingUserInput(kind="CLARIFICATION", message=question, question=question),
            answer=f"Nothing was done yet. Waiting for you: {question}",
        )
