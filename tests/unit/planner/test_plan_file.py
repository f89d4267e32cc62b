"""A plan file that is not a plan is refused in a line a person reads: what is wrong and where,
never pydantic's dump with its type codes and documentation links."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.plan_file import PlanFileError, read_plan_file


def refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "plan.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(PlanFileError) as refused:
        read_plan_file(path)
    said = str(refused.value)
    assert said.startswith(f"invalid plan {path}: ") and "\n" not in said
    assert "errors.pydantic.dev" not in said and "type=" not in said
    return said.removeprefix(f"invalid plan {path}: ")


def test_malformed_plans_are_said_in_one_line(tmp_path: Path) -> None:
    assert refusal(tmp_path, '{"mode": "B", "steps": [') == (
        "it is not valid JSON (EOF while parsing a list at line 1 column 24)"
    )
    assert refusal(tmp_path, "[1, 2]") == "the plan should be a JSON object"
    cycle = '{"mode": "A", "steps": [{"step_id": "a", "type": "COMPUTE", "depends_on": ["a"]}]}'
    assert "value error" not in refusal(tmp_path, cycle).lower()
    many = '{"mode": "B", "steps": [{"type": "ACT"}, {}, {}], "budget": {"max_tool_calls": -1}}'
    assert refusal(tmp_path, many) == (
        "steps[0].step_id: field required; steps[1].step_id: field required; "
        "steps[1].type: field required; and 3 more problems"
    )
