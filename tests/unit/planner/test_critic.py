"""The critic: step results against verify criteria, with a bounded number of replans."""

from __future__ import annotations

from planner.context import build_context
from planner.critic import Critic, ReplanBudget, StepOutcome
from planner.models import ExecutionPlan, VerifyCriteria
from planner.rules import plan_rules

S3C = "Nghiên cứu gói datafeed Vietstock phù hợp cho FinAI rồi mở trang đăng ký điền sẵn form (đừng submit)."


def _plan() -> ExecutionPlan:
    return plan_rules(S3C, build_context(S3C, url="https://dichvu.vietstock.vn/datafeed"))


def test_good_results_are_ok() -> None:
    critic, plan = Critic(), _plan()
    assert (
        critic.judge(plan, StepOutcome(step_id="stp_r1", status="SUCCESS", evidence_count=3)).verdict == "ok"
    )
    act = StepOutcome(step_id="stp_a1", status="SUCCESS", outputs={"receipt": {"actions": [1]}})
    assert critic.judge(plan, act).verdict == "ok"


def test_failed_required_step_asks_for_a_replan() -> None:
    verdict = Critic().judge(_plan(), StepOutcome(step_id="stp_r1", status="FAILED", error="search down"))
    assert verdict.verdict == "replan" and verdict.reason_code == "STEP_FAILED"
    assert "search down" in verdict.reason


def test_failed_optional_step_is_tolerated() -> None:
    assert Critic().judge(_plan(), StepOutcome(step_id="stp_f1", status="FAILED")).verdict == "ok"


def test_thin_evidence_and_missing_receipt() -> None:
    critic, plan = Critic(), _plan()
    thin = critic.judge(plan, StepOutcome(step_id="stp_r1", status="SUCCESS", evidence_count=1))
    assert (thin.verdict, thin.reason_code) == ("replan", "INSUFFICIENT_EVIDENCE")
    bare = critic.judge(plan, StepOutcome(step_id="stp_a1", status="SUCCESS", outputs={}))
    assert (bare.verdict, bare.reason_code) == ("replan", "MISSING_RECEIPT")


def test_expected_text_on_the_last_step() -> None:
    plan = _plan().model_copy(update={"verify_criteria": VerifyCriteria(expected_text=["Gói Pro"])})
    outcome = StepOutcome(step_id="stp_a1", status="SUCCESS", outputs={"answer": "chọn gói Basic"})
    verdict = Critic().judge(plan, outcome)
    assert verdict.reason_code == "EXPECTED_TEXT_MISSING"


def test_gate_wait_is_not_a_failure_and_unknown_step_stops() -> None:
    critic, plan = Critic(), _plan()
    assert critic.judge(plan, StepOutcome(step_id="stp_a1", status="BLOCKED_GATE")).verdict == "ok"
    assert critic.judge(plan, StepOutcome(step_id="nope", status="SUCCESS")).verdict == "stop"


def test_replans_are_bounded() -> None:
    budget, plan = ReplanBudget(Critic(max_replans=2)), _plan()
    failed = StepOutcome(step_id="stp_r1", status="FAILED")
    verdicts = [budget.judge(plan, failed).verdict for _ in range(4)]
    assert verdicts == ["replan", "replan", "stop", "stop"]
    assert budget.used == 2


async def test_rule_replan_widens_research_when_evidence_ran_short() -> None:
    from planner.rules import RulePlanner

    plan = _plan()
    verdict = Critic().judge(plan, StepOutcome(step_id="stp_r1", status="SUCCESS", evidence_count=0))
    assert verdict.verdict == "replan"
    context = build_context(S3C, url="https://dichvu.vietstock.vn/datafeed")
    again = await RulePlanner().replan(S3C, context, plan, verdict.reason_code)
    assert again.steps[0].inputs["top_k"] == 16 and again.budget.max_sources == plan.budget.max_sources + 8
    assert again.reason_codes[-1] == "REPLAN:INSUFFICIENT_EVIDENCE"
    assert again.trace_id == plan.trace_id


def test_step_run_maps_onto_step_outcome() -> None:
    from executor.models import EvidenceItem, StepRunV1, StepStatus

    run = StepRunV1(step_id="stp_r1", step_type="RETRIEVE", status=StepStatus.SUCCESS,
                    evidence=[EvidenceItem(source_url="http://127.0.0.1/a")])  # fmt: skip
    outcome = StepOutcome.model_validate({**run.model_dump(mode="json"), "evidence_count": len(run.evidence)})
    verdict = Critic().judge(_plan(), outcome)
    assert (outcome.status, verdict.reason_code) == ("SUCCESS", "INSUFFICIENT_EVIDENCE")
