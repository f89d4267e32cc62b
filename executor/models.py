"""Executor contracts: the runtime context, step runs, gate decisions, evidence, checkpoints, bundles.

Names and fields are the run contracts of docs/architecture.md; additions (timings, reasons,
approvals scoped to run+gate+step, budget state) are what a person needs to trust and resume a run.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field

from common.contracts import Contract, new_id, utc_now
from executor.gates.approval import ApprovalPolicy
from planner.metering import ModelUsage
from planner.models import PlanMode


class ExecMode(StrEnum):
    RESEARCH_ONLY = "RESEARCH_ONLY"
    ACTION_ONLY = "ACTION_ONLY"
    HYBRID = "HYBRID"
    ACTION_THEN_RESEARCH = "ACTION_THEN_RESEARCH"
    CLARIFY_OR_FALLBACK = "CLARIFY_OR_FALLBACK"


EXEC_MODE_FOR_PLAN: dict[PlanMode, ExecMode] = {
    PlanMode.A: ExecMode.RESEARCH_ONLY,
    PlanMode.B: ExecMode.ACTION_ONLY,
    PlanMode.C: ExecMode.HYBRID,
    PlanMode.D: ExecMode.ACTION_THEN_RESEARCH,
    PlanMode.CLARIFY: ExecMode.CLARIFY_OR_FALLBACK,
}


class RunStatus(StrEnum):
    SUCCESS = "SUCCESS"
    PARTIAL = "PARTIAL"
    NEEDS_CONFIRMATION = "NEEDS_CONFIRMATION"
    NEEDS_CLARIFICATION = "NEEDS_CLARIFICATION"
    FAILED = "FAILED"
    ABORTED_BUDGET = "ABORTED_BUDGET"
    BLOCKED_POLICY = "BLOCKED_POLICY"


#: Exit codes (docs/architecture.md), shared by every CLI command that ends a run.
EXIT_CODES: dict[RunStatus, int] = {
    RunStatus.SUCCESS: 0,
    RunStatus.FAILED: 1,
    RunStatus.NEEDS_CONFIRMATION: 3,
    RunStatus.NEEDS_CLARIFICATION: 4,
    RunStatus.PARTIAL: 5,
    RunStatus.BLOCKED_POLICY: 6,
    RunStatus.ABORTED_BUDGET: 7,
}


class StepStatus(StrEnum):
    PENDING = "PENDING"
    RUNNING = "RUNNING"
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"
    SKIPPED = "SKIPPED"
    BLOCKED_GATE = "BLOCKED_GATE"


class GateVerdict(StrEnum):
    ALLOW = "ALLOW"
    DENY = "DENY"
    NEED_CONFIRM = "NEED_CONFIRM"


class Approval(Contract):
    """A person's (or a policy's) answer to one gate, for one step of one run: never broader."""

    run_id: str
    gate_id: str
    step_id: str
    approved: bool
    decided_by: str = "user"
    decided_at: datetime = Field(default_factory=utc_now)
    note: str = ""
    #: The leg of the run that gave it (1: the run's start, 2: its first resume, ...).
    leg: int | None = Field(default=None, ge=1)


class RuntimeCtxV1(Contract):
    schema_version: Literal["RuntimeCtxV1@1"] = "RuntimeCtxV1@1"
    safe_mode: bool = True
    permissions: list[str] = Field(default_factory=list)
    rate_profile: Literal["low", "med", "high"] = "med"
    resume_checkpoint_ref: str | None = None
    #: Gate flags ({"gate_action": True}); on resume they cover the pending step only.
    confirmed_gates: dict[str, bool] = Field(default_factory=dict)
    approvals: list[Approval] = Field(default_factory=list)
    approval_policy: ApprovalPolicy = ApprovalPolicy.ASK
    run_id: str | None = None
    runs_dir: str | None = None


class ToolCallV1(Contract):
    schema_version: Literal["ToolCallV1@1"] = "ToolCallV1@1"
    tool_call_id: str = Field(default_factory=lambda: new_id("tc"))
    tool_name: str
    args: dict[str, Any] = Field(default_factory=dict)
    timeout_s: float = Field(default=30.0, gt=0)
    attempt: int = Field(default=1, ge=1)
    status: Literal["OK", "ERROR", "TIMEOUT"] = "OK"
    error: str | None = None
    retryable: bool | None = None
    duration_ms: float = Field(default=0.0, ge=0)
    tokens: int = Field(default=0, ge=0)


class GateDecisionV1(Contract):
    schema_version: Literal["GateDecisionV1@1"] = "GateDecisionV1@1"
    gate_id: str
    decision: GateVerdict
    reason: str = ""
    step_id: str | None = None
    run_id: str | None = None
    gate_kind: str = "action"
    blocked_actions: list[str] = Field(default_factory=list)
    decided_by: str | None = None


class BudgetStateV1(Contract):
    schema_version: Literal["BudgetStateV1@1"] = "BudgetStateV1@1"
    tool_calls_used: int = Field(default=0, ge=0)
    time_ms_used: int = Field(default=0, ge=0)
    token_est_used: int = Field(default=0, ge=0)
    sources_used: int = Field(default=0, ge=0)
    actions_used: int = Field(default=0, ge=0)
    #: Time spent waiting for a person at gates: shown, never charged to the time budget.
    person_wait_ms: int = Field(default=0, ge=0)
    exceeded: str | None = None
    #: Every model call of the run so far (planning, steps, replans); its total is in token_est_used.
    model_usage: ModelUsage = Field(default_factory=ModelUsage)


class EvidenceItem(Contract):
    evidence_id: str = Field(default_factory=lambda: new_id("ev"))
    source_url: str
    title: str = ""
    snippet: str = ""
    retrieved_at: datetime = Field(default_factory=utc_now)
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    step_id: str | None = None
    content_hash: str | None = None


class StepRunV1(Contract):
    schema_version: Literal["StepRunV1@1"] = "StepRunV1@1"
    step_id: str
    step_type: str
    status: StepStatus
    tool_calls: list[ToolCallV1] = Field(default_factory=list)
    outputs: dict[str, Any] = Field(default_factory=dict)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    actions: list[str] = Field(default_factory=list)
    error: str | None = None
    error_code: str | None = None
    gate: GateDecisionV1 | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    duration_ms: float = Field(default=0.0, ge=0)
    #: Model calls made while the step ran (its cognition, summaries, embeddings).
    model_usage: ModelUsage = Field(default_factory=ModelUsage)


class PendingUserInput(Contract):
    kind: Literal["CONFIRMATION", "CLARIFICATION", "BLOCKED"]
    message: str = ""
    gate_id: str | None = None
    step_id: str | None = None
    step_name: str | None = None
    blocked_actions: list[str] = Field(default_factory=list)
    checkpoint_ref: str | None = None
    question: str | None = None


class Citation(Contract):
    number: int = Field(ge=1)
    source_url: str
    title: str = ""
    snippet: str = ""


class CheckpointV1(Contract):
    """What resume needs: done steps and their outputs, evidence, budget used and the pending gate."""

    schema_version: Literal["CheckpointV1@1"] = "CheckpointV1@1"
    ref: str
    run_id: str
    plan_id: str
    trace_id: str
    step_runs: dict[str, StepRunV1] = Field(default_factory=dict)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    budget: BudgetStateV1 = Field(default_factory=BudgetStateV1)
    pending: PendingUserInput | None = None
    approvals: list[Approval] = Field(default_factory=list)
    actions_taken: list[str] = Field(default_factory=list)
    last_url: str | None = None
    created_at: datetime = Field(default_factory=utc_now)

    @property
    def finished_step_ids(self) -> set[str]:
        return {sid for sid, sr in self.step_runs.items() if sr.status in FINISHED_STEP_STATUSES}


FINISHED_STEP_STATUSES = frozenset({StepStatus.SUCCESS, StepStatus.FAILED, StepStatus.SKIPPED})


class RunBundleV1(Contract):
    schema_version: Literal["RunBundleV1@1"] = "RunBundleV1@1"
    trace_id: str
    run_id: str
    plan_id: str
    exec_mode: ExecMode
    run_status: RunStatus
    reason: str = ""
    final_answer: str | None = None
    citations: list[Citation] = Field(default_factory=list)
    evidence: list[EvidenceItem] = Field(default_factory=list)
    evidence_count: int = Field(default=0, ge=0)
    actions_taken: list[str] = Field(default_factory=list)
    step_runs: list[StepRunV1] = Field(default_factory=list)
    receipt: dict[str, Any] | None = None
    pending_user_input: PendingUserInput | None = None
    checkpoint_ref: str | None = None
    budget_used: BudgetStateV1 = Field(default_factory=BudgetStateV1)
    started_at: datetime = Field(default_factory=utc_now)
    finished_at: datetime = Field(default_factory=utc_now)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.run_status]
