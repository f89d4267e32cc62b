"""Restrictions a caller adds to a plan: they can only narrow what the plan may do, never widen it.

An assistant driving Waypost over MCP may ask for more care than the plan has ("don't submit",
"never delete"), as a plan itself can; nothing it passes can lower a gate, drop a blocked action or
answer a question (docs/architecture.md, "MCP server"). `tighten` is pure: the same plan and
restrictions give the same plan.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from common.contracts import Contract
from planner.models import ExecutionPlan, GateKind, PolicyGate

#: The gate given to acting steps that had none, so the added blocked actions reach them too.
CHANNEL_GATE = "gate_channel"

ActionName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z_]{0,31}$")]


class Restrictions(Contract):
    """What a caller may add. Each field only ever adds care; the defaults add nothing."""

    no_submit: bool = Field(default=False, description="block every form submission in this run")
    blocked_actions: list[ActionName] = Field(
        default_factory=list, description="more action kinds to block (submit, purchase, delete, ...)"
    )
    decline_gates: bool = Field(
        default=False, description="answer every gate 'no' instead of waiting for the person"
    )

    def blocked(self) -> list[str]:
        extra = ["submit"] if self.no_submit else []
        return list(dict.fromkeys([*extra, *self.blocked_actions]))


def tighten(plan: ExecutionPlan, restrictions: Restrictions) -> ExecutionPlan:
    """The plan with the restrictions added: every gate keeps its confirmation and gains the blocked
    actions; acting steps without a gate get one that asks and blocks them; `no_submit` joins the
    task's constraints (the gatekeeper blocks submit for every acting step from there)."""
    blocked = restrictions.blocked()
    if not blocked:
        return plan
    gates = [
        gate.model_copy(update={"blocked_actions": _merge(gate.blocked_actions, blocked)})
        for gate in plan.policy_gates
    ]
    steps = plan.steps
    if any(step.is_action and step.policy_gate_id is None for step in steps):
        if all(gate.gate_id != CHANNEL_GATE for gate in gates):
            reason = "the assistant asked for these actions to stay blocked"
            gates.append(
                PolicyGate(gate_id=CHANNEL_GATE, kind=GateKind.ACTION, reason=reason, blocked_actions=blocked)
            )
        steps = [
            s.model_copy(update={"policy_gate_id": CHANNEL_GATE})
            if s.is_action and s.policy_gate_id is None
            else s
            for s in steps
        ]
    update: dict[str, object] = {"policy_gates": gates, "steps": steps}
    if restrictions.no_submit and plan.task is not None:
        constraints = plan.task.constraints.model_copy(update={"no_submit": True})
        update["task"] = plan.task.model_copy(update={"constraints": constraints})
    return plan.model_copy(update=update)


def _merge(first: list[str], second: list[str]) -> list[str]:
    return list(dict.fromkeys([*first, *second]))
