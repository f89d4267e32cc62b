"""Deadlines without a browser: the per-call limit, the run's wall, and the sentence on expiry."""

from __future__ import annotations

import asyncio

import pytest

from browser.deadline import MIN_CALL_S, BrowserUnresponsive, Deadlines
from tests.support.virtual_time import ManualClock


def test_the_wall_shortens_calls_and_never_below_the_minimum() -> None:
    clock = ManualClock(100.0)
    deadlines = Deadlines(call_s=20.0, clock=clock)
    assert deadlines.seconds() == 20.0
    deadlines.wall = clock.now + 4.0
    assert deadlines.seconds() == 4.0
    assert deadlines.seconds(limit_s=1.0) == 1.0
    clock.now += 60
    assert deadlines.seconds() == MIN_CALL_S


@pytest.mark.asyncio
async def test_a_call_that_never_answers_ends_with_a_sentence() -> None:
    deadlines = Deadlines(call_s=0.05)
    never = asyncio.get_running_loop().create_future()
    with pytest.raises(BrowserUnresponsive, match=r"did not answer within .* \(reading the page\)"):
        await deadlines.within("reading the page", never)
    assert isinstance(BrowserUnresponsive("x"), TimeoutError)  # the executor's timeout paths apply
