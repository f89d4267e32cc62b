"""Properties over generated tasks: the rule planner never raises and never plans anything unsafe."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from planner.context import build_context
from planner.models import ExecutionPlan, GateKind, PlanMode
from planner.rules import plan_rules

FRAGMENTS = [
    "research", "compare", "open", "fill the form with name Alice", "email a@b.co", "and submit",
    "don't submit", "đừng gửi", "log in", "pay", "delete the post", "my account", "which plan am I on",
    "https://x.example.com/f", "this page", "nghiên cứu", "điền form", "mở trang", "so sánh", "then",
    "rồi", "buy", "download the pdf", "company Acme", "?", ",", "tên Lan",
]  # fmt: skip
SECRET = "Zq9!secret77"

tasks = st.lists(st.sampled_from(FRAGMENTS), min_size=0, max_size=7).map(" ".join)
noise = st.text(max_size=60)


@settings(max_examples=300, deadline=None)
@given(task=tasks, extra=noise, tab=st.booleans(), with_password=st.booleans())
def test_rule_plans_are_valid_and_safe(task: str, extra: str, tab: bool, with_password: bool) -> None:
    text = f"{task} {extra}" + (f" password {SECRET}" if with_password else "")
    plan = plan_rules(text, build_context(text, url="https://tab.example.com" if tab else None))
    ExecutionPlan.model_validate_json(plan.model_dump_json())
    assert plan.reason_codes
    assert SECRET not in plan.model_dump_json()
    no_submit = plan.task is not None and plan.task.constraints.no_submit
    for step in plan.steps:
        if step.is_action:
            gate = plan.gate(step.policy_gate_id)
            assert gate is not None and gate.requires_user_confirm
            if no_submit and gate.kind is not GateKind.LOGIN:
                assert "submit" in gate.blocked_actions
    if plan.mode is PlanMode.A:
        assert not any(s.is_action for s in plan.steps)
    if plan.mode is PlanMode.CLARIFY:
        assert plan.clarification_question and not plan.steps
