"""Restrictions a caller adds only narrow a plan: gates keep their confirmation and gain blocked
actions, gateless acting steps get a gate, and no_submit joins the task's constraints."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from executor.gates.tighten import CHANNEL_GATE, Restrictions, tighten
from planner.models import ExecutionPlan, TaskSpecV1


def plan(gates: list[dict[str, object]], gate_id: str | None = None) -> ExecutionPlan:
    step: dict[str, object] = {"step_id": "s1", "type": "ACT", "inputs": {"actions": []}}
    if gate_id:
        step["policy_gate_id"] = gate_id
    read = {"step_id": "s0", "type": "OPEN_URL", "inputs": {"url": "http://127.0.0.1:1/"}}
    return ExecutionPlan.model_validate({"mode": "B", "steps": [read, step], "policy_gates": gates})


def test_nothing_added_is_the_same_plan() -> None:
    original = plan([])
    assert tighten(original, Restrictions()) is original


def test_a_gate_keeps_what_it_had_and_gains_the_blocked_actions() -> None:
    gate = {"gate_id": "g1", "requires_user_confirm": False, "blocked_actions": ["delete"]}
    tightened = tighten(plan([gate], "g1"), Restrictions(no_submit=True, blocked_actions=["purchase"]))
    (g1,) = tightened.policy_gates
    assert g1.blocked_actions == ["delete", "submit", "purchase"]
    assert g1.requires_user_confirm is False  # unchanged: safe mode asks for every acting step anyway


def test_a_gateless_acting_step_gets_the_channel_gate_and_reading_steps_do_not() -> None:
    tightened = tighten(plan([]), Restrictions(blocked_actions=["click"]))
    steps = {s.step_id: s for s in tightened.steps}
    assert steps["s1"].policy_gate_id == CHANNEL_GATE
    assert steps["s0"].policy_gate_id is None
    (gate,) = tightened.policy_gates
    assert gate.requires_user_confirm and gate.blocked_actions == ["click"]


def test_no_submit_joins_the_task_constraints() -> None:
    base = plan([]).model_copy(update={"task": TaskSpecV1(user_query="fill the form")})
    assert tighten(base, Restrictions(no_submit=True)).task.constraints.no_submit  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "bad", [{"approve": "all"}, {"blocked_actions": ["Submit Now"]}, {"no_submit": "maybe"}]
)
def test_only_known_restrictions_in_their_own_shape(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Restrictions.model_validate(bad)
