"""The suite file: JSON Lines, one case per line, checked whole before any run starts.

A case is a task (with an optional start URL) or a plan envelope as `waypost plan --json` prints
it, and the run status it expects (SUCCESS unless said otherwise).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import Field, ValidationError, model_validator

from common.bounded_read import SUITE_BYTES, read_text_or
from common.contracts import Contract
from executor.models import RunStatus
from planner.models import ExecutionPlan


class SuiteError(ValueError):
    """A suite that cannot run as written; the message names the line."""


class SuiteCase(Contract):
    name: str = Field(min_length=1, max_length=200)
    task: str | None = Field(default=None, min_length=1)
    url: str | None = None
    plan: ExecutionPlan | None = None
    expect: RunStatus = RunStatus.SUCCESS

    @model_validator(mode="after")
    def _task_or_plan(self) -> SuiteCase:
        if (self.task is None) == (self.plan is None):
            raise ValueError('give "task" or "plan" (exactly one)')
        if self.url is not None and self.plan is not None:
            raise ValueError('"url" goes with a "task"; a plan names its own pages')
        return self


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    said = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {said}" if where else said


def parse_suite(text: str, *, source: str = "suite") -> list[SuiteCase]:
    """Every case of the suite, or SuiteError naming the first bad line (blank lines are skipped)."""
    cases: list[SuiteCase] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SuiteError(f"{source} line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(raw, dict):
            raise SuiteError(f"{source} line {number}: a case is a JSON object")
        try:
            case = SuiteCase.model_validate(raw)
        except ValidationError as exc:
            raise SuiteError(f"{source} line {number}: {_first_error(exc)}") from exc
        if case.name in seen:
            raise SuiteError(
                f"{source} line {number}: name {case.name!r} already used on line {seen[case.name]}"
            )
        seen[case.name] = number
        cases.append(case)
    if not cases:
        raise SuiteError(f"{source}: no cases")
    return cases


def read_suite(path: Path) -> list[SuiteCase]:
    text = read_text_or(SuiteError, path, SUITE_BYTES, what="suite")
    return parse_suite(text, source=str(path))


def dump_suite(cases: list[SuiteCase]) -> str:
    return "".join(case.model_dump_json(exclude_none=True) + "\n" for case in cases)
