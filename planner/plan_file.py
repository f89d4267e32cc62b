"""Reading an ExecutionPlan from a file a person names (`waypost run --plan FILE`, the pytest plugin).

The file is read with a ceiling on its size (common/bounded_read.py), as UTF-8 with or without a byte
order mark, and validated as a whole; each way it can fail is a PlanFileError whose message names the
file. Whether the steps can run with this install's runners is the executor's check
(executor/run/plan_check.py), made before any browser starts.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from common.bounded_read import PLAN_BYTES, read_text_or
from common.words import plural
from planner.models import ExecutionPlan


class PlanFileError(ValueError):
    """The plan file cannot be read or is not a valid plan; the message says which and why."""


#: Problems named one by one; the rest are counted.
_SHOWN = 3


def plan_problems(exc: ValidationError) -> str:
    """What is wrong with a plan, in a line a person reads ("steps[0]: field required; ...") instead
    of pydantic's dump with its type codes and documentation links."""
    said: list[str] = []
    for error in exc.errors(include_url=False, include_input=False):
        if error["type"] == "json_invalid":
            said.append(f"it is not valid JSON ({error['msg'].removeprefix('Invalid JSON: ')})")
            continue
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"]).lstrip(".")
        if error["type"] == "model_type":
            said.append(f"{where or 'the plan'} should be a JSON object")
            continue
        said_by_check = error["msg"].removeprefix("Value error, ")  # a validator's own sentence
        message = said_by_check[:1].lower() + said_by_check[1:]
        said.append(f"{where or 'the plan'}: {message}")
    unique = list(dict.fromkeys(said))
    more = len(unique) - _SHOWN
    return "; ".join(unique[:_SHOWN]) + (f"; and {plural(more, 'more problem')}" if more > 0 else "")


def read_plan_file(path: Path) -> ExecutionPlan:
    text = read_text_or(PlanFileError, path, PLAN_BYTES, what="plan")
    try:
        return ExecutionPlan.model_validate_json(text)
    except ValidationError as exc:
        raise PlanFileError(f"invalid plan {path}: {plan_problems(exc)}") from exc
