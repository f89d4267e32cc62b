"""Golden plans for the demo walkthroughs: mode, steps, deps, gates, blocked actions, reason codes.

Regenerate after an intended change with `WAYPOST_REGEN_GOLDEN=1 pytest tests/unit/planner/test_golden.py`
and review the diff: a golden that changes silently is no golden.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from planner.context import build_context
from planner.models import ExecutionPlan
from planner.rules import plan_rules
from tests.support.stable_plan import stable_view
from tests.unit.planner.golden_cases import GOLDEN, Golden

GOLDEN_DIR = Path(__file__).parent / "golden"


@pytest.mark.parametrize("case", GOLDEN, ids=[g.name for g in GOLDEN])
def test_plan_matches_golden(case: Golden) -> None:
    plan = plan_rules(case.task, build_context(case.task, url=case.url))
    view = stable_view(plan)
    path = GOLDEN_DIR / f"{case.name}.json"
    if os.environ.get("WAYPOST_REGEN_GOLDEN") == "1":
        path.write_text(json.dumps(view, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    assert view == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLDEN, ids=[g.name for g in GOLDEN])
def test_plan_round_trips_through_json(case: Golden) -> None:
    plan = plan_rules(case.task, build_context(case.task, url=case.url))
    again = ExecutionPlan.model_validate_json(plan.model_dump_json())
    assert again == plan


def test_s3c_follows_the_seed() -> None:
    """Flow C: RETRIEVE -> FETCH_DATA -> COMPUTE -> ACT, gated, submit blocked."""
    case = GOLDEN[0]
    plan = plan_rules(case.task, build_context(case.task, url=case.url))
    assert [s.type_name for s in plan.steps] == ["RETRIEVE", "FETCH_DATA", "COMPUTE", "ACT"]
    act = plan.steps[-1]
    assert act.depends_on == ["stp_c1"]
    gate = plan.gate(act.policy_gate_id)
    assert gate is not None
    assert gate.blocked_actions == ["submit", "purchase", "delete"]
    assert "MODE_C:research_then_action" in plan.reason_codes
    assert "NO_SUBMIT_ENFORCED" in plan.reason_codes
    assert act.inputs["url"] == case.url
    assert plan.verify_criteria.require_citations and plan.verify_criteria.ui_receipt_required
