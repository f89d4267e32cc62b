"""Plans that make no sense are refused with a message that names the problem."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from planner.models import ExecutionPlan, PlanMode, Step, StepFamily, StepType


def plan(steps: list[dict[str, Any]], **extra: Any) -> ExecutionPlan:
    return ExecutionPlan.model_validate({"mode": "A", "steps": steps, **extra})


@pytest.mark.parametrize(
    ("steps", "extra", "message"),
    [
        (
            [{"step_id": "a", "type": "COMPUTE"}, {"step_id": "a", "type": "COMPUTE"}],
            {},
            "duplicate step_id 'a'",
        ),
        ([{"step_id": "a", "type": "COMPUTE", "depends_on": ["zz"]}], {}, "depends_on 'zz'"),
        (
            [
                {"step_id": "a", "type": "COMPUTE", "depends_on": ["c"]},
                {"step_id": "b", "type": "COMPUTE", "depends_on": ["a"]},
                {"step_id": "c", "type": "COMPUTE", "depends_on": ["b"]},
            ],
            {},
            "dependency cycle: a -> c -> b -> a",
        ),
        ([{"step_id": "a", "type": "COMPUTE", "depends_on": ["a"]}], {}, "dependency cycle: a -> a"),
        ([{"step_id": "a", "type": "ACT", "policy_gate_id": "g9"}], {}, "policy_gate_id 'g9'"),
        (
            [{"step_id": "a", "type": "COMPUTE"}],
            {"budget": {"max_tool_calls": -1}},
            "greater than or equal to 0",
        ),
        ([{"step_id": "a", "type": "not a type!"}], {}, "not an UPPER_SNAKE identifier"),
        ([{"step_id": "a", "type": "COMPUTE", "colour": "red"}], {}, "Extra inputs are not permitted"),
        ([], {}, "a READY plan needs at least one step"),
    ],
)
def test_nonsense_is_rejected_with_a_clear_message(
    steps: list[dict[str, Any]], extra: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValidationError) as info:
        plan(steps, **extra)
    assert message in str(info.value)


def test_duplicate_gate_ids_are_rejected() -> None:
    with pytest.raises(ValidationError, match="duplicate gate_id"):
        plan([{"step_id": "a", "type": "COMPUTE"}], policy_gates=[{"gate_id": "g"}, {"gate_id": "g"}])


def test_unknown_mode_is_rejected() -> None:
    with pytest.raises(ValidationError):
        ExecutionPlan.model_validate({"mode": "Z", "steps": [{"step_id": "a", "type": "COMPUTE"}]})


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("A", PlanMode.A),
        ("research", PlanMode.A),
        ("HYBRID", PlanMode.C),
        ("ACTION_THEN_RESEARCH", PlanMode.D),
    ],
)
def test_mode_aliases_of_the_seeds(given: str, expected: PlanMode) -> None:
    assert plan([{"step_id": "a", "type": "COMPUTE"}], mode=given).mode is expected


def test_both_step_type_spellings_and_families() -> None:
    step = Step.model_validate({"step_id": "a", "step_type": "form_fill"})
    assert step.type is StepType.FORM_FILL and step.family is StepFamily.ACT and step.is_action
    custom = Step.model_validate({"step_id": "b", "type": "FIN_PRICE_FETCH"})
    assert custom.type == "FIN_PRICE_FETCH" and custom.family is StepFamily.ACT  # unknown: gated
    declared = Step.model_validate({"step_id": "c", "type": "FIN_PRICE_FETCH", "family": "FETCH_DATA"})
    assert declared.family is StepFamily.FETCH_DATA and not declared.is_action


def test_seed_s3c_plan_parses_as_written() -> None:
    seed = {
        "plan_id": "plan_S3C_001",
        "mode": "C",
        "sub_queries": [{"q": "Vietstock datafeed pricing packages", "role": "data"}],
        "steps": [
            {"step_id": "stp_r1", "type": "RETRIEVE", "name": "Retrieve evidence", "config": {"top_k": 8}},
            {"step_id": "stp_f1", "type": "FETCH_DATA", "depends_on": ["stp_r1"], "optional": True},
            {"step_id": "stp_c1", "type": "COMPUTE", "depends_on": ["stp_r1", "stp_f1"], "optional": True},
            {"step_id": "stp_a1", "type": "ACT", "depends_on": ["stp_c1"], "policy_gate_id": "gate_prefill"},
        ],
        "policy_gates": [
            {
                "gate_id": "gate_prefill",
                "requires_user_confirm": True,
                "blocked_actions": ["submit", "purchase"],
            }
        ],
        "budget": {"max_time_ms": 60000, "max_tool_calls": 18},
        "verify_criteria": {"require_citations": True, "ui_receipt_required": True},
        "reason_codes": ["MODE_C:research_then_action"],
    }
    parsed = ExecutionPlan.model_validate(seed)
    assert parsed.gate("gate_prefill") is not None
    assert [s.family for s in parsed.steps] == [
        StepFamily.RETRIEVE,
        StepFamily.FETCH_DATA,
        StepFamily.COMPUTE,
        StepFamily.ACT,
    ]
