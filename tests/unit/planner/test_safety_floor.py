"""The rules' safety floor applied to model drafts (no server needed: drafts are plain data)."""

from __future__ import annotations

from planner.context import build_context
from planner.draft import DraftField, DraftStep, PlanDraft, plan_to_draft
from planner.models import ExecutionPlan, GateKind, PlanMode, PlanStatus
from planner.rules import plan_rules
from planner.safety_floor import apply_safety_floor
from planner.understand import understand

S3C = "Nghiên cứu gói datafeed Vietstock phù hợp cho FinAI rồi mở trang đăng ký điền sẵn form (đừng submit)."
S3C_URL = "https://dichvu.vietstock.vn/datafeed"
LOGIN = "Log in to portal.example.com with username bob and password hunter2 and download the invoice"


def _floor(task: str, url: str | None = None) -> ExecutionPlan:
    return plan_rules(task, build_context(task, url=url))


def _act(
    step_id: str, gate: str | None, depends_on: list[str] | None = None, goal: str = "do it"
) -> DraftStep:
    return DraftStep(
        step_id=step_id,
        type="ACT",
        name=goal,
        depends_on=depends_on or [],
        optional=False,
        url=None,
        goal=goal,
        query=None,
        payload=[],
        gate=gate,
    )


def test_unchanged_draft_keeps_the_rule_plan_shape() -> None:
    floor = _floor(S3C, S3C_URL)
    plan, codes = apply_safety_floor(plan_to_draft(floor), floor)
    assert [s.step_id for s in plan.steps] == [s.step_id for s in floor.steps]
    assert [(s.depends_on, s.policy_gate_id) for s in plan.steps] == [
        (s.depends_on, s.policy_gate_id) for s in floor.steps
    ]
    assert plan.policy_gates == floor.policy_gates and plan.budget == floor.budget
    assert codes == []


def test_dropped_gate_is_put_back_and_submit_stays_blocked() -> None:
    floor = _floor(S3C, S3C_URL)
    draft = plan_to_draft(floor)
    draft.steps[-1].gate = None
    plan, codes = apply_safety_floor(draft, floor)
    act = plan.steps[-1]
    gate = plan.gate(act.policy_gate_id)
    assert gate is not None and gate.requires_user_confirm and "submit" in gate.blocked_actions
    assert "SAFETY_FLOOR:gate_added:stp_a1" in codes


def test_model_cannot_lift_no_submit_with_a_submit_gate() -> None:
    floor = _floor(S3C, S3C_URL)
    draft = plan_to_draft(floor)
    draft.steps.append(_act("stp_a2", "submit", ["stp_a1"], goal="Click Submit"))
    plan, codes = apply_safety_floor(draft, floor)
    for step in (s for s in plan.steps if s.is_action):
        gate = plan.gate(step.policy_gate_id)
        assert gate is not None and "submit" in gate.blocked_actions
    assert "SAFETY_FLOOR:gate_submit_not_in_rules" in codes


def test_mode_a_never_gains_actions() -> None:
    floor = _floor("Compare the pricing of Notion and Obsidian with sources")
    draft = plan_to_draft(floor)
    draft.mode = "C"
    draft.steps.append(_act("stp_a1", "action", ["stp_c1"], goal="Sign up for Notion"))
    plan, codes = apply_safety_floor(draft, floor)
    assert plan.mode is PlanMode.A
    assert not any(s.is_action for s in plan.steps) and plan.policy_gates == []
    assert "SAFETY_FLOOR:removed_actions_in_mode_A" in codes
    assert plan.budget.max_actions == 0


def test_login_gate_is_restored_when_the_model_merges_steps() -> None:
    floor = _floor(LOGIN)
    draft = PlanDraft(
        mode="B",
        rationale="one step",
        clarification_question=None,
        sub_queries=[],
        steps=[_act("a", "download", goal="log in and download the invoice")],
    )
    plan, codes = apply_safety_floor(draft, floor, understand(LOGIN).secrets)
    first, second = plan.steps
    first_gate = plan.gate(first.policy_gate_id)
    assert first_gate is not None and first_gate.kind is GateKind.LOGIN
    assert second.depends_on == [first.step_id]
    assert "SAFETY_FLOOR:login_gate_restored" in codes


def test_c_keeps_actions_after_research_and_d_keeps_state_first() -> None:
    floor = _floor(S3C, S3C_URL)
    draft = plan_to_draft(floor)
    draft.steps[-1].depends_on = []  # the model lets the ACT start at once
    plan, _ = apply_safety_floor(draft, floor)
    assert set(plan.steps[-1].depends_on) >= {"stp_r1", "stp_f1", "stp_c1"}
    task = "Xem tài khoản của tôi đang dùng gói gì rồi so sánh với các gói khác."
    dfloor = _floor(task, "https://x.vn/tai-khoan")
    ddraft = plan_to_draft(dfloor)
    for step in ddraft.steps:
        step.depends_on = []
    dplan, _ = apply_safety_floor(ddraft, dfloor)
    read = dplan.steps[0]
    assert read.type_name == "OPEN_URL" and read.inputs["purpose"] == "read_state"
    assert read.policy_gate_id is None, "reading the person's page needs no gate"
    assert all(read.step_id in s.depends_on for s in dplan.steps[1:])


def test_secrets_stay_placeholders() -> None:
    understood = understand(LOGIN)
    floor = plan_rules(understood)
    draft = plan_to_draft(floor)
    draft.steps[0].payload = [DraftField(field="password", value="hunter2")]
    draft.steps[1].payload = [DraftField(field="pin", value="{{secret:pin}}")]
    plan, codes = apply_safety_floor(draft, floor, understood.secrets)
    assert plan.steps[0].inputs["payload"] == {"password": "{{secret:password}}"}
    assert plan.steps[1].inputs["payload"] == {}
    assert "hunter2" not in plan.model_dump_json()
    assert "SAFETY_FLOOR:undeclared_secret_dropped:pin" in codes


def test_clarify_floor_stays_unless_the_model_finds_research() -> None:
    floor = _floor("Fill the form with name Alice")
    draft = plan_to_draft(_floor("Open x.com/f and fill the form with name Alice"))
    plan, codes = apply_safety_floor(draft, floor)
    assert plan is floor and codes == ["SAFETY_FLOOR:kept_clarify"]
    vague = _floor("Acme Corp")
    research = plan_to_draft(_floor("Research Acme Corp with sources"))
    plan, codes = apply_safety_floor(research, vague)
    assert plan.mode is PlanMode.A and plan.plan_status is PlanStatus.READY
    assert "LLM_RESOLVED_CLARIFY:research" in codes


def test_model_may_ask_instead() -> None:
    floor = _floor(S3C, S3C_URL)
    draft = plan_to_draft(floor)
    draft.mode, draft.clarification_question = "CLARIFY", "Which package budget should I assume?"
    plan, codes = apply_safety_floor(draft, floor)
    assert plan.plan_status is PlanStatus.NEEDS_CLARIFICATION and not plan.steps
    assert plan.clarification_question == "Which package budget should I assume?"
    assert codes == ["LLM_ASKS_CLARIFICATION"]


def test_cyclic_draft_falls_back_to_the_floor() -> None:
    floor = _floor("Compare the pricing of Notion and Obsidian with sources")
    draft = plan_to_draft(floor)
    draft.steps[0].depends_on = ["stp_c1"]
    plan, codes = apply_safety_floor(draft, floor)
    assert plan is floor
    assert codes[0].startswith("SAFETY_FLOOR:invalid_candidate")


def test_only_web_urls_survive() -> None:
    floor = _floor(S3C, S3C_URL)
    draft = plan_to_draft(floor)
    draft.steps[-1].url = "file:///etc/passwd"
    plan, codes = apply_safety_floor(draft, floor)
    assert "url" not in plan.steps[-1].inputs
    assert "SAFETY_FLOOR:url_dropped:stp_a1" in codes


def test_open_url_steps_need_a_web_url() -> None:
    floor = _floor("Compare the pricing of Notion and Obsidian with sources")
    draft = plan_to_draft(floor)
    draft.steps.insert(
        0,
        DraftStep(
            step_id="o1",
            type="OPEN_URL",
            name="open",
            depends_on=[],
            optional=False,
            url="javascript:alert(1)",
            goal=None,
            query=None,
            payload=[],
            gate=None,
        ),
    )
    draft.steps[1].depends_on = ["o1"]
    plan, _ = apply_safety_floor(draft, floor)
    assert [s.step_id for s in plan.steps] == ["stp_r1", "stp_f1", "stp_c1"]
    assert plan.steps[0].depends_on == []


def test_a_form_fill_cannot_pass_as_a_login() -> None:
    task = (
        "Log in to portal.example.com with username bob and password hunter2, then fill the contact "
        "form with name Bob, don't submit"
    )
    floor = _floor(task)
    draft = PlanDraft(mode="B", rationale="sneaky", clarification_question=None, sub_queries=[],
                      steps=[_act("a", "login", goal="log in, fill the form and submit it")])  # fmt: skip
    draft.steps[0].payload = [
        DraftField(field="username", value="bob"),
        DraftField(field="name", value="Bob"),
    ]
    plan, codes = apply_safety_floor(draft, floor, understand(task).secrets)
    fill = next(s for s in plan.steps if s.step_id == "a")
    gate = plan.gate(fill.policy_gate_id)
    assert gate is not None and gate.kind is GateKind.ACTION and "submit" in gate.blocked_actions
    assert "SAFETY_FLOOR:login_gate_refused:a" in codes and "SAFETY_FLOOR:login_gate_restored" in codes
