"""ToolCallEngine: every tool call goes through budget, rate limit, timeout and retry, and is recorded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from executor.errors import FatalToolError, ToolError, ToolTimeoutError
from executor.journal.events import EventSink, ToolCalled
from executor.journal.observability import bind_log_context, log
from executor.models import ToolCallV1
from executor.run.budget import BudgetEnforcer
from executor.run.model_share import tool_part
from executor.tools.boundary import Tool, ToolContext, ToolOutput
from executor.tools.rate_limit import RateLimitShield
from executor.tools.retry import RetryBackoffManager, is_retryable
from planner import model_time
from planner.metering import metered

DEFAULT_TIMEOUT_S = 30.0


class ToolCallEngine:
    def __init__(
        self,
        tools: Mapping[str, Tool],
        *,
        rate: RateLimitShield,
        retry: RetryBackoffManager,
        budget: BudgetEnforcer,
        events: EventSink,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._tools = tools
        self._rate = rate
        self._retry = retry
        self._budget = budget
        self._events = events
        self._sleep = sleep

    async def call(
        self,
        tool_key: str,
        args: dict[str, Any],
        ctx: ToolContext,
        *,
        timeout_s: float | None = None,
        max_attempts: int | None = None,
    ) -> ToolOutput:
        """Runs the tool until it succeeds, fails fatally, or runs out of attempts; raises the last error.

        BudgetExceeded propagates untouched: running out of budget ends the run, it is not retried.
        """
        tool = self._tools.get(tool_key)
        if tool is None:
            raise FatalToolError(f"no tool registered under {tool_key!r}", code="unknown_tool")
        timeout = timeout_s or DEFAULT_TIMEOUT_S
        attempts = self._retry.attempts_for(max_attempts)
        attempt = 0
        while True:
            attempt += 1
            record = ToolCallV1(tool_name=tool_key, args=args, timeout_s=timeout, attempt=attempt)
            with bind_log_context(tool_call_id=record.tool_call_id):
                self._budget.charge_call()
                await self._rate.acquire(tool_key)
                started = time.perf_counter()
                try:
                    # Model calls inside the tool: the step's meter charges them, and they end in time
                    # for the tool's rule path to answer before the tool's own timeout. The timeout
                    # is entered first: its timer keeps a copy of the context until the event loop
                    # next runs, and a copy taken here holds no meter or allowance of this call.
                    async with asyncio.timeout(timeout):
                        with metered() as meter, model_time.limited(model_time.within(tool_part(timeout))):
                            output = await tool(args, ctx)
                except TimeoutError:
                    error: ToolError = ToolTimeoutError(f"{tool_key} timed out after {timeout:g}s")
                except ToolError as exc:
                    error = exc
                else:
                    record.duration_ms = (time.perf_counter() - started) * 1000
                    record.tokens = output.tokens + meter.usage.total
                    self._finish(ctx, record)
                    self._budget.add_usage(
                        tokens=output.tokens, sources=output.sources, actions=output.ui_actions
                    )
                    return output
                record.duration_ms = (time.perf_counter() - started) * 1000
                record.status = "TIMEOUT" if isinstance(error, ToolTimeoutError) else "ERROR"
                record.error = f"{error.code}: {error}"
                record.retryable = is_retryable(error)
                self._finish(ctx, record)
                if not self._retry.should_retry(error, attempt, attempts):
                    raise error
                delay = self._retry.delay_for(attempt)
                log.info("retrying tool", extra={"tool": tool_key, "attempt": attempt, "delay_s": delay})
            await self._sleep(delay)

    def _finish(self, ctx: ToolContext, record: ToolCallV1) -> None:
        ctx.tool_calls.append(record)
        self._events.publish(ToolCalled(run_id=ctx.run_id, step_id=ctx.step.step_id, call=record))
