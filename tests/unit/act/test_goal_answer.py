"""A goal that asks to read is met by the answer; a goal that asks to act is not met by words alone."""

from __future__ import annotations

from typing import cast

import pytest

from browser.driver import BrowserDriver
from executor.act.progress import StepProgress
from executor.act.verify import goal_failure

#: Neither goal below presses a button or fills a field, so the page is never read.
NO_PAGE = cast(BrowserDriver, object())


@pytest.mark.parametrize(
    "goal", ["Tell me my renewal date", "Look", "What plan am I on?", "Xem ngày gia hạn"]
)
async def test_a_reading_goal_is_met_by_the_answer(goal: str) -> None:
    assert await goal_failure(NO_PAGE, goal, {}, StepProgress(), "renewal date is 1 March") is None


@pytest.mark.parametrize("goal", ["Check the newsletter box", "Download the report", "Delete the draft"])
async def test_an_acting_goal_is_not_met_by_an_answer_alone(goal: str) -> None:
    why = await goal_failure(NO_PAGE, goal, {}, StepProgress(), "done, as the page asked")
    assert why == f"nothing was done toward the goal: {goal}"


async def test_a_reading_goal_without_an_answer_is_not_met() -> None:
    why = await goal_failure(NO_PAGE, "Tell me my renewal date", {}, StepProgress(), "")
    assert why is not None
