"""Time a person spends at a gate is not charged to the run's time budget."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import cast

import pytest

from browser.driver import BrowserDriver
from executor.models import BudgetStateV1
from executor.run.budget import BudgetEnforcer
from executor.run.resources import RunResources
from planner.models import Budget
from tests.support.virtual_time import ManualClock, pass_time, run_virtual


def test_a_persons_wait_is_shown_but_not_charged() -> None:
    clock = ManualClock(100.0)
    budget = BudgetEnforcer(Budget(max_time_ms=20_000), clock=clock)
    clock.now += 5
    with budget.person_waiting():
        clock.now += 28
        assert budget.elapsed_ms() == 5_000  # also while the person is still thinking
    clock.now += 1
    state = budget.state()
    assert (state.time_ms_used, state.person_wait_ms, state.exceeded) == (6_000, 28_000, None)


def test_a_resumed_leg_keeps_the_earlier_wait() -> None:
    clock = ManualClock(100.0)
    prior = BudgetStateV1(time_ms_used=4_000, person_wait_ms=10_000)
    budget = BudgetEnforcer(Budget(max_time_ms=20_000), prior, clock=clock)
    with budget.person_waiting():
        clock.now += 3
    assert (budget.elapsed_ms(), budget.person_wait_ms()) == (4_000, 13_000)


def test_a_wait_inside_a_step_moves_the_steps_deadline() -> None:
    """An action gate asked inside a step: the step may outlive its deadline by the person's wait."""

    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        budget = BudgetEnforcer(Budget(max_time_ms=1000), clock=loop.time)
        async with budget.step_timeout():
            with budget.person_waiting():
                await pass_time(1.5)  # the person thinking: longer than the whole budget
            await pass_time(0.05)  # the agent's own work after the answer
        assert budget.exceeded() is None
        with pytest.raises(TimeoutError):
            async with budget.step_timeout():
                await pass_time(1.5)  # the agent's own time still runs out
        return loop.time()

    # Timed out when the agent's own 1 s was spent: 1.5 s of thinking and 1 s of work.
    assert run_virtual(scenario) == pytest.approx(2.5)


def test_a_wait_between_steps_touches_no_finished_deadline() -> None:
    async def scenario() -> str | None:
        budget = BudgetEnforcer(Budget(max_time_ms=5_000), clock=asyncio.get_running_loop().time)
        async with budget.step_timeout():
            pass
        with budget.person_waiting():  # a step's gate, asked after the previous step ended
            await pass_time(10)
        return budget.exceeded()

    assert run_virtual(scenario) is None


async def test_the_browsers_wall_moves_by_a_persons_wait(tmp_path: Path) -> None:
    """A person deciding for longer than the whole time budget still leaves the run its browser."""

    walls: list[float | None] = []

    class WallDriver:
        def set_wall(self, wall: float | None) -> None:
            walls.append(wall)

    async def launch(_: RunResources) -> BrowserDriver:
        return cast(BrowserDriver, WallDriver())

    clock = ManualClock(100.0)
    budget = BudgetEnforcer(Budget(max_time_ms=20_000), clock=clock)
    resources = RunResources(run_id="run_wall", run_dir=tmp_path, driver_factory=launch)
    resources.set_wall(clock.now + budget.remaining_s())
    budget.after_wait(resources.extend_wall)
    await resources.driver()
    with budget.person_waiting():
        clock.now += 28
    assert walls == [120.0, 148.0]
