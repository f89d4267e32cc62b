"""The stable view of a plan used by golden files."""

from __future__ import annotations

from typing import Any

from planner.models import ExecutionPlan


def stable_view(plan: ExecutionPlan) -> dict[str, Any]:
    """The parts of a plan that must not drift: no random ids, no timestamps, no prose."""
    return {
        "mode": plan.mode.value,
        "plan_status": plan.plan_status.value,
        "steps": [
            {
                "step_id": s.step_id,
                "type": s.type_name,
                "depends_on": s.depends_on,
                "optional": s.optional,
                "policy_gate_id": s.policy_gate_id,
                "input_keys": sorted(s.inputs),
            }
            for s in plan.steps
        ],
        "policy_gates": [
            {
                "gate_id": g.gate_id,
                "kind": g.kind.value,
                "requires_user_confirm": g.requires_user_confirm,
                "blocked_actions": g.blocked_actions,
            }
            for g in plan.policy_gates
        ],
        "sub_query_roles": [q.role.value for q in plan.sub_queries],
        "verify_criteria": plan.verify_criteria.model_dump(mode="json"),
        "reason_codes": plan.reason_codes,
    }
