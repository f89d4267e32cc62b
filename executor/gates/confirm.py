"""HumanConfirmBroker: turns NEED_CONFIRM into a question for a person, a policy answer, or a pause.

The UI and the terminal implement ConfirmHandler; with no handler the run pauses with
NEEDS_CONFIRMATION and a checkpoint, and `waypost resume` continues it later.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import AbstractContextManager
from enum import StrEnum
from typing import Any, Protocol

from pydantic import Field

from common.contracts import Contract
from executor.gates.approval import ApprovalPolicy
from executor.models import Approval, GateDecisionV1, PendingUserInput
from planner.models import Step


class ConfirmAnswer(StrEnum):
    APPROVE = "approve"
    DENY = "deny"
    PAUSE = "pause"


class ConfirmRequest(Contract):
    """Everything a person needs to decide: which gate, why, the step, its target, what stays blocked."""

    run_id: str
    trace_id: str
    decision: GateDecisionV1
    step_id: str
    step_name: str
    step_type: str
    step_inputs: dict[str, Any] = Field(default_factory=dict)
    target: str | None = None
    screenshot_path: str | None = None
    checkpoint_ref: str | None = None


class ConfirmHandler(Protocol):
    async def confirm(self, request: ConfirmRequest) -> ConfirmAnswer: ...


class HumanConfirmBroker:
    """`waiting` wraps the time a person is asked (the run's budget stops its clock there)."""

    def __init__(
        self,
        policy: ApprovalPolicy = ApprovalPolicy.ASK,
        handler: ConfirmHandler | None = None,
        waiting: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
    ) -> None:
        self.policy = policy
        self.handler = handler
        self.waiting = waiting

    @property
    def asks_a_person(self) -> bool:
        """A person answers (not --approve all/none, and someone is there to ask)."""
        return self.policy is ApprovalPolicy.ASK and self.handler is not None

    @staticmethod
    def pending(decision: GateDecisionV1, step: Step, checkpoint_ref: str | None) -> PendingUserInput:
        return PendingUserInput(
            kind="CONFIRMATION",
            message=decision.reason,
            gate_id=decision.gate_id,
            step_id=step.step_id,
            step_name=step.name or step.type_name,
            blocked_actions=decision.blocked_actions,
            checkpoint_ref=checkpoint_ref,
        )

    async def resolve(self, request: ConfirmRequest) -> Approval | None:
        """An Approval (approved or declined), or None when the run should pause and wait."""
        if self.policy is ApprovalPolicy.ALL:
            return self._approval(request, approved=True, decided_by="policy:all")
        if self.policy is ApprovalPolicy.NONE:
            return self._approval(request, approved=False, decided_by="policy:none")
        if self.handler is None:
            return None
        with self.waiting():
            answer = await self.handler.confirm(request)
        if answer is ConfirmAnswer.PAUSE:
            return None
        return self._approval(request, approved=answer is ConfirmAnswer.APPROVE, decided_by="user")

    @staticmethod
    def _approval(request: ConfirmRequest, *, approved: bool, decided_by: str) -> Approval:
        return Approval(
            run_id=request.run_id,
            gate_id=request.decision.gate_id,
            step_id=request.step_id,
            approved=approved,
            decided_by=decided_by,
        )
