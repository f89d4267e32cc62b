"""Gatekeeper: ALLOW / DENY / NEED_CONFIRM for a step, from its family, its gate, safe_mode and approvals.

An approval covers exactly one (run, gate, step). The only broader form is the
`confirmed_gates` flag, and it is spent by the first step that reaches that gate.
"""

from __future__ import annotations

from executor.models import Approval, ExecMode, GateDecisionV1, GateVerdict
from planner.gates import task_floor
from planner.models import ExecutionPlan, GateKind, Step

#: Gate kinds that clarify/fallback mode refuses outright instead of asking (docs/architecture.md).
_CLARIFY_DENIED = frozenset({GateKind.LOGIN, GateKind.PAYMENT, GateKind.PURCHASE, GateKind.DELETE})

DEFAULT_ACTION_GATE = "gate_action"
DEFAULT_GATE = "gate_default"


class ApprovalBook:
    """Approvals of one run, looked up by (gate, step); one-shot gate flags from confirmed_gates."""

    def __init__(
        self, run_id: str, approvals: list[Approval], one_shot_gates: set[str] | None = None
    ) -> None:
        self.run_id = run_id
        self._by_scope: dict[tuple[str, str], Approval] = {}
        for approval in approvals:
            self.add(approval)
        self._one_shot = set(one_shot_gates or ())

    def add(self, approval: Approval) -> None:
        if approval.run_id == self.run_id:
            self._by_scope[(approval.gate_id, approval.step_id)] = approval

    def get(self, gate_id: str, step_id: str) -> Approval | None:
        return self._by_scope.get((gate_id, step_id))

    def spend_one_shot(self, gate_id: str, step_id: str) -> Approval | None:
        if gate_id not in self._one_shot:
            return None
        self._one_shot.discard(gate_id)
        approval = Approval(
            run_id=self.run_id, gate_id=gate_id, step_id=step_id, approved=True, decided_by="confirmed_gates"
        )
        self.add(approval)
        return approval


class Gatekeeper:
    def __init__(self, plan: ExecutionPlan, *, run_id: str, safe_mode: bool, exec_mode: ExecMode) -> None:
        self.plan = plan
        self.run_id = run_id
        self.safe_mode = safe_mode
        self.exec_mode = exec_mode
        # From the task, not the plan's gates: a plan may add blocked actions, never remove these.
        self._always_blocked = task_floor(plan.task)

    def decide(self, step: Step, approvals: ApprovalBook) -> tuple[GateDecisionV1, Approval | None]:
        """The verdict, and the approval it rests on when an approval decided it."""
        gate = self.plan.gate(step.policy_gate_id)
        if gate is not None:
            gate_id, kind, reason = gate.gate_id, gate.kind, gate.reason
            blocked = _merge(gate.blocked_actions, self._always_blocked)
            needs_confirm = gate.requires_user_confirm or (step.is_action and self.safe_mode)
        else:
            gate_id = DEFAULT_ACTION_GATE if step.is_action else DEFAULT_GATE
            kind = GateKind.ACTION if step.is_action else GateKind.GENERIC
            reason = f"{step.type_name} acts on the page" if step.is_action else ""
            blocked = list(self._always_blocked) if step.is_action else []
            needs_confirm = step.is_action and self.safe_mode

        def verdict(decision: GateVerdict, why: str, decided_by: str | None = None) -> GateDecisionV1:
            return GateDecisionV1(
                gate_id=gate_id,
                decision=decision,
                reason=why,
                step_id=step.step_id,
                run_id=self.run_id,
                gate_kind=str(kind),
                blocked_actions=blocked,
                decided_by=decided_by,
            )

        if self.exec_mode is ExecMode.CLARIFY_OR_FALLBACK and kind in _CLARIFY_DENIED:
            return verdict(GateVerdict.DENY, f"clarify/fallback mode never runs a {kind} step"), None
        approval = approvals.get(gate_id, step.step_id)
        if approval is not None:
            if approval.approved:
                return verdict(GateVerdict.ALLOW, "approved", approval.decided_by), approval
            return verdict(GateVerdict.DENY, "declined", approval.decided_by), approval
        if not needs_confirm:
            return verdict(GateVerdict.ALLOW, "no confirmation needed"), None
        approval = approvals.spend_one_shot(gate_id, step.step_id)
        if approval is not None:
            return verdict(GateVerdict.ALLOW, "approved", approval.decided_by), approval
        why = reason or ("safe mode: every action step needs a confirmation" if step.is_action else "gate")
        return verdict(GateVerdict.NEED_CONFIRM, why), None


def _merge(first: list[str], second: list[str]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))
