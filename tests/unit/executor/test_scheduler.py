"""StepScheduler on its own: readiness, guards, and work linear in the plan."""

from __future__ import annotations

import pytest

from executor.models import ExecMode, StepRunV1, StepStatus
from executor.run.scheduler import StepScheduler
from planner.models import Step


def steps(*specs: tuple[str, str, list[str]]) -> list[Step]:
    return [Step.model_validate({"step_id": s, "type": t, "depends_on": d}) for s, t, d in specs]


def drain(scheduler: StepScheduler) -> list[str]:
    order = []
    while (step := scheduler.next_ready()) is not None:
        order.append(step.step_id)
        scheduler.finish(step, StepStatus.SUCCESS)
    return order


def test_plan_order_among_ready_steps_and_dependencies() -> None:
    plan = steps(
        ("c", "COMPUTE", ["b"]), ("a", "WEB_SEARCH", []), ("b", "SUMMARIZE", ["a"]), ("d", "COMPUTE", [])
    )
    assert drain(StepScheduler(plan, ExecMode.RESEARCH_ONLY)) == ["a", "b", "c", "d"]


def test_hybrid_research_after_an_action_is_not_a_barrier() -> None:
    plan = steps(("a1", "FORM_FILL", []), ("r1", "WEB_SEARCH", []), ("r2", "EXTRACT_DOM", ["a1"]))
    assert drain(StepScheduler(plan, ExecMode.HYBRID)) == ["r1", "a1", "r2"]


def test_resume_state_is_respected() -> None:
    plan = steps(("a", "WEB_SEARCH", []), ("b", "SUMMARIZE", ["a"]))
    done = {"a": StepRunV1(step_id="a", step_type="WEB_SEARCH", status=StepStatus.SUCCESS)}
    assert drain(StepScheduler(plan, ExecMode.RESEARCH_ONLY, done)) == ["b"]


def test_resumed_failure_still_blocks_dependents() -> None:
    plan = steps(("a", "WEB_SEARCH", []), ("b", "SUMMARIZE", ["a"]))
    done = {"a": StepRunV1(step_id="a", step_type="WEB_SEARCH", status=StepStatus.FAILED)}
    scheduler = StepScheduler(plan, ExecMode.RESEARCH_ONLY, done)
    assert drain(scheduler) == []
    assert [(r.step.step_id, r.code) for r in scheduler.take_resolved()] == [("b", "dependency_failed")]


class CountingList(list[Step]):
    """Counts every look at a step: a scheduler rescanning the plan per pick makes O(n^2) of them."""

    looks = 0

    def __iter__(self):
        for item in super().__iter__():
            CountingList.looks += 1
            yield item

    def __getitem__(self, index):
        CountingList.looks += 1
        return super().__getitem__(index)


@pytest.mark.parametrize("mode", [ExecMode.HYBRID, ExecMode.ACTION_THEN_RESEARCH, ExecMode.RESEARCH_ONLY])
def test_whole_run_work_is_linear(mode: ExecMode) -> None:
    n = 3_000
    specs = [
        {
            "step_id": f"s{i}",
            "type": "FORM_FILL" if i % 3 == 0 else "WEB_SEARCH",
            "depends_on": [f"s{i - 1}"] if i % 7 else [],
        }
        for i in range(n)
    ]
    plan = CountingList(Step.model_validate(spec) for spec in specs)
    CountingList.looks = 0
    scheduler = StepScheduler(plan, mode)
    picks = 0
    while (step := scheduler.next_ready()) is not None:
        picks += 1
        scheduler.finish(step, StepStatus.SUCCESS)
    assert scheduler.unfinished == 0
    assert picks + len(scheduler.take_resolved()) == n
    assert CountingList.looks <= 12 * n, CountingList.looks
