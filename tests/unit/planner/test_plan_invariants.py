"""Properties every rule plan keeps, checked over the whole routing table."""

from __future__ import annotations

import pytest

from planner.context import build_context
from planner.models import ExecutionPlan, GateKind, PlanMode
from planner.rules import plan_rules
from tests.unit.planner.routing_cases import CASES, Case


def _plan(case: Case) -> ExecutionPlan:
    return plan_rules(case.task, build_context(case.task, url=case.url))


def _ancestors(plan: ExecutionPlan, step_id: str) -> set[str]:
    deps = {s.step_id: s.depends_on for s in plan.steps}
    seen: set[str] = set()
    todo = list(deps[step_id])
    while todo:
        sid = todo.pop()
        if sid not in seen:
            seen.add(sid)
            todo.extend(deps[sid])
    return seen


@pytest.mark.parametrize("case", CASES, ids=[c.task[:48] for c in CASES])
def test_plan_is_safe_and_ordered(case: Case) -> None:
    plan = _plan(case)
    ExecutionPlan.model_validate_json(plan.model_dump_json())  # executable as is: validators pass
    actions = [s for s in plan.steps if s.is_action]
    for step in actions:
        gate = plan.gate(step.policy_gate_id)
        assert gate is not None and gate.requires_user_confirm, step.step_id
        if plan.task is not None and plan.task.constraints.no_submit and gate.kind is not GateKind.LOGIN:
            assert "submit" in gate.blocked_actions
    if plan.mode is PlanMode.A:
        assert not actions and plan.budget.max_actions == 0
        assert plan.sub_queries or any(s.type_name == "OPEN_URL" for s in plan.steps)
    if plan.mode is PlanMode.C:
        retrieve_ids = {s.step_id for s in plan.steps if s.type_name == "RETRIEVE"}
        for step in actions:
            assert retrieve_ids <= _ancestors(plan, step.step_id)
    if plan.mode is PlanMode.D:
        read = plan.steps[0]  # the state is read first: ungated OPEN_URL, or a gated ACT that signs in
        assert read.inputs.get("purpose") == "read_state" or read.is_action
        for step in plan.steps[1:]:
            assert read.step_id in _ancestors(plan, step.step_id)
    for step in plan.steps:
        assert step.name and step.name != "Perform the action", "every step says what it does"
    if plan.mode is PlanMode.CLARIFY:
        assert not plan.steps and plan.clarification_question


@pytest.mark.parametrize("case", [c for c in CASES if c.mode in "BC"], ids=lambda c: c.task[:48])
def test_act_inputs_follow_the_executor_contract(case: Case) -> None:
    plan = _plan(case)
    for step in (s for s in plan.steps if s.is_action):
        assert isinstance(step.inputs["goal"], str) and step.inputs["goal"]
        assert isinstance(step.inputs["payload"], dict)
        assert set(step.inputs) <= {"url", "goal", "payload", "actions", "asks"}
        assert step.config["blueprint"][-1] in {"stop", "verify"}


def test_submit_gets_its_own_gated_step() -> None:
    task = "Submit the feedback form on this page with message: Great service"
    plan = plan_rules(task, build_context(task, url="https://shop.example.com/feedback"))
    fill, submit = plan.steps
    fill_gate, submit_gate = plan.gate(fill.policy_gate_id), plan.gate(submit.policy_gate_id)
    assert fill_gate is not None and submit_gate is not None
    assert "submit" in fill_gate.blocked_actions
    assert submit_gate.kind is GateKind.SUBMIT and "submit" not in submit_gate.blocked_actions
    assert submit.depends_on == [fill.step_id]
    assert fill.inputs["payload"] == {"message": "Great service"}


def test_no_submit_means_no_submit_step() -> None:
    task = "Open https://forms.example.com/contact, fill name Alice and submit... no wait, don't submit"
    plan = plan_rules(task)
    assert all(s.step_id != "stp_a2" for s in plan.steps)
    assert all("submit" in g.blocked_actions for g in plan.policy_gates)


def test_login_gets_a_login_gate_first() -> None:
    task = "Log in to portal.example.com with username bob and password hunter2 and download the invoice"
    plan = plan_rules(task)
    login = plan.steps[0]
    gate = plan.gate(login.policy_gate_id)
    assert gate is not None and gate.kind is GateKind.LOGIN
    assert login.inputs["payload"] == {"username": "bob", "password": "{{secret:password}}"}
    assert plan.steps[1].depends_on == [login.step_id]
    assert "hunter2" not in plan.model_dump_json()
