"""Rate limit, retry and budget pieces on their own, driven by fake clocks rather than sleeps."""

from __future__ import annotations

import io
import json
import logging
import random

import pytest

from executor.errors import (
    BudgetExceeded,
    FatalToolError,
    RateLimitExceeded,
    RetryableToolError,
    ToolTimeoutError,
)
from executor.journal.observability import bind_log_context, configure_json_logging, log
from executor.run.budget import BudgetEnforcer
from executor.tools.rate_limit import RateLimitShield, TokenBucket
from executor.tools.retry import RetryBackoffManager, RetryPolicy, is_retryable
from planner.models import Budget
from tests.support.virtual_time import ManualClock


def test_token_bucket_allows_burst_then_paces() -> None:
    clock = ManualClock()
    bucket = TokenBucket(rate_per_s=2.0, burst=3, clock=clock)
    assert [bucket.try_acquire() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.try_acquire() == pytest.approx(0.5)
    clock.now += 0.5
    assert bucket.try_acquire() == 0.0
    clock.now += 100
    assert [bucket.try_acquire() for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # refill capped at burst


async def test_shield_paces_per_key_and_keys_are_independent() -> None:
    clock = ManualClock()
    shield = RateLimitShield("low", clock=clock, sleep=clock.sleep)  # 1/s, burst 2
    waits = [await shield.acquire("search") for _ in range(4)]
    assert waits == [0.0, 0.0, pytest.approx(1.0), pytest.approx(1.0)]
    assert await shield.acquire("pdf") == 0.0
    assert clock.now == pytest.approx(2.0)


async def test_shield_refuses_a_wait_over_the_hard_limit() -> None:
    clock = ManualClock()
    shield = RateLimitShield(
        "med", overrides={"slow": (0.01, 1)}, max_wait_s=5, clock=clock, sleep=clock.sleep
    )
    await shield.acquire("slow")
    with pytest.raises(RateLimitExceeded, match="slow"):
        await shield.acquire("slow")


def test_retry_classification_and_backoff_bounds() -> None:
    assert is_retryable(RetryableToolError("x")) and is_retryable(ToolTimeoutError("x"))
    assert is_retryable(TimeoutError()) and is_retryable(ConnectionResetError())
    assert not is_retryable(FatalToolError("x")) and not is_retryable(ValueError("x"))
    manager = RetryBackoffManager(
        RetryPolicy(max_attempts=4, base_delay_s=0.5, max_delay_s=3), rng=random.Random(7)
    )
    for attempt, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 3.0), (9, 3.0)]:
        delays = [manager.delay_for(attempt) for _ in range(50)]
        assert all(0.0 <= d <= ceiling for d in delays)
        assert max(delays) > ceiling / 2  # jitter spreads over the range
    assert manager.should_retry(RetryableToolError("x"), 3, 4)
    assert not manager.should_retry(RetryableToolError("x"), 4, 4)
    assert not manager.should_retry(FatalToolError("x"), 1, 4)


def test_budget_counts_and_refuses() -> None:
    clock = ManualClock()
    budget = BudgetEnforcer(Budget(max_tool_calls=2, max_time_ms=1000, max_tokens=10), clock=clock)
    budget.charge_call()
    budget.charge_call()
    with pytest.raises(BudgetExceeded, match="tool calls"):
        budget.charge_call()
    assert budget.tool_calls == 2
    with pytest.raises(BudgetExceeded, match="tokens"):
        budget.add_usage(tokens=11)
    fresh = BudgetEnforcer(Budget(max_time_ms=1000), clock=clock)
    clock.now += 1.5
    assert fresh.exceeded() is not None and "time" in fresh.exceeded()  # type: ignore[operator]
    assert fresh.remaining_s() == 0.0


def test_budget_time_carries_over_a_resume() -> None:
    clock = ManualClock()
    first = BudgetEnforcer(Budget(max_time_ms=1000), clock=clock)
    clock.now += 0.7
    second = BudgetEnforcer(Budget(max_time_ms=1000), first.state(), clock=clock)
    clock.now += 0.4
    assert second.elapsed_ms() == 1100 and second.exceeded() is not None


def test_log_lines_are_json_with_correlation_ids() -> None:
    stream = io.StringIO()
    configure_json_logging(logging.INFO, stream)
    try:
        with bind_log_context(trace_id="t1", run_id="r1"):
            log.info("outer")
            with bind_log_context(step_id="s1", tool_call_id="tc1"):
                log.info("inner", extra={"attempt": 2})
        log.info("outside")
    finally:
        log.handlers.clear()
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert [(x["msg"], x["trace_id"], x["run_id"], x["step_id"], x["tool_call_id"]) for x in lines] == [
        ("outer", "t1", "r1", None, None),
        ("inner", "t1", "r1", "s1", "tc1"),
        ("outside", None, None, None, None),
    ]
    assert lines[1]["attempt"] == 2
