"""A plan checked as a whole before its run starts (docs/architecture.md, "Faults (every run ends, says
why, and can be resumed)").

The contracts (planner/models.py) make a plan well formed; this check asks whether this install can
run every step of it as written: a runner for each step type, inputs the runner would
accept (ACT actions parsed, a start `url` that is text), and `{{step:ID...}}` references to steps
the plan has. Before it, such a plan launched Chromium and passed its gate only to fail (or, with a
`url` of 12345, ran on about:blank and ended SUCCESS). The first problem found is a PlanRejected
naming the step, before any run folder, gate or browser exists.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from executor.act.refs import referenced_steps
from executor.errors import ToolError
from executor.tools.registry import RunnerRegistry
from planner.models import ExecutionPlan, Step


class PlanRejected(ValueError):
    """A step of the plan cannot run as written; the message names the step and what is wrong."""


@runtime_checkable
class ChecksInputs(Protocol):
    """A runner that can tell, from the step alone, that it would refuse the step's inputs."""

    def check_inputs(self, step: Step) -> None: ...


def check_plan(plan: ExecutionPlan, registry: RunnerRegistry) -> None:
    """Raises PlanRejected for the first step this install cannot run as written."""
    ids = {step.step_id for step in plan.steps}
    for step in plan.steps:
        problem = _problem(step, registry, ids)
        if problem is not None:
            raise PlanRejected(f"step {step.step_id} ({step.type_name}): {problem}")


def _problem(step: Step, registry: RunnerRegistry, ids: set[str]) -> str | None:
    runner = registry.get(step.type_name)
    if runner is None:
        return f"no runner for step type {step.type_name!r} in this install"
    url = step.inputs.get("url")
    if url is not None and (not isinstance(url, str) or not url.strip()):
        return f"`url` must be a web address (text), not {url!r}"
    missing = sorted(referenced_steps(step.inputs) - ids)
    if missing:
        return f"refers to {', '.join(repr(m) for m in missing)}, which the plan has no step for"
    if isinstance(runner, ChecksInputs):
        try:
            runner.check_inputs(step)
        except ToolError as exc:
            return str(exc)
    return None
