"""Reading an ExecutionPlan from a file a person names (`waypost run --plan FILE`, the pytest plugin).

The file is read with a ceiling on its size (common/bounded_read.py), as UTF-8 with or without a byte
order mark, and validated as a whole; each way it can fail is a PlanFileError whose message names the
file. Whether the steps can run with this install's runners is the executor's check
(executor/plan_check.py), made before any browser starts.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from common.bounded_read import PLAN_BYTES, read_text_or
from planner.models import ExecutionPlan


class PlanFileError(ValueError):
    """The plan file cannot be read or is not a valid plan; the message says which and why."""


def read_plan_file(path: Path) -> ExecutionPlan:
    text = read_text_or(PlanFileError, path, PLAN_BYTES, what="plan")
    try:
        return ExecutionPlan.model_validate_json(text)
    except ValidationError as exc:
        raise PlanFileError(f"invalid plan {path}:\n{exc}") from exc
