"""BudgetEnforcer: wall time, tool calls, tokens, sources and actions; a run over budget stops at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterator
from types import TracebackType

from executor.errors import BudgetExceeded
from executor.models import BudgetStateV1
from planner.metering import ModelUsage
from planner.models import Budget, ExecutionPlan


class BudgetEnforcer:
    """Counts use against the plan's Budget; time carries over from earlier legs of a resumed run.

    Time a person spends answering a gate is not the agent working: `person_waiting()` takes it out
    of the elapsed time and pushes the running step's deadline (`step_timeout()`) back by as much.
    """

    def __init__(
        self,
        budget: Budget,
        used: BudgetStateV1 | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget = budget
        prior = used or BudgetStateV1()
        self._prior_ms = prior.time_ms_used
        self.tool_calls = prior.tool_calls_used
        self.tokens = prior.token_est_used
        self.sources = prior.sources_used
        self.actions = prior.actions_used
        self.model_usage = prior.model_usage
        self._clock = clock
        self._t0 = clock()
        self._prior_wait_ms = prior.person_wait_ms
        self._waited_s = 0.0
        self._wait_started: float | None = None
        self._deadline: asyncio.Timeout | None = None
        self._after_wait: list[Callable[[float], None]] = []

    def _waiting_s(self) -> float:
        """Seconds spent waiting for a person in this leg, a wait in progress included."""
        ongoing = self._clock() - self._wait_started if self._wait_started is not None else 0.0
        return self._waited_s + ongoing

    def person_wait_ms(self) -> int:
        return self._prior_wait_ms + int(self._waiting_s() * 1000)

    @classmethod
    def for_run(
        cls,
        plan: ExecutionPlan,
        used: BudgetStateV1 | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> BudgetEnforcer:
        """A run's budget. A fresh run starts charged with its plan's planning calls (tokens); a
        resumed run carries `used`, which already holds them (so planning is charged exactly once).
        Its time starts now: planning had its own deadline (docs/architecture.md, "Slow models")."""
        enforcer = cls(plan.budget, used, clock=clock)
        if used is None and plan.planning_usage is not None:
            enforcer.charge_model(plan.planning_usage, enforce=False)
        return enforcer

    def charge_model(self, usage: ModelUsage, *, enforce: bool = True) -> None:
        """Adds model calls (tokens in and out) to the run; past max_tokens the run stops."""
        self.model_usage = self.model_usage.plus(usage)
        self.tokens += usage.total
        if enforce:
            self._raise_if_exceeded()

    def charge_model_call(self, call: ModelUsage) -> None:
        """One model call as it is answered or cut off (token meter callbacks land here)."""
        self.charge_model(call)

    def elapsed_ms(self) -> int:
        """Agent time: wall time of every leg minus the time spent waiting for a person."""
        return self._prior_ms + int((self._clock() - self._t0 - self._waiting_s()) * 1000)

    @contextlib.contextmanager
    def person_waiting(self) -> Iterator[None]:
        """The clock stops while a person is asked; the current step's deadline moves by as much."""
        if self._wait_started is not None:  # nested: the outer wait already counts
            yield
            return
        self._wait_started = started = self._clock()
        deadline = self._deadline if self._deadline is not None and not self._deadline.expired() else None
        when = deadline.when() if deadline is not None else None
        if deadline is not None:
            deadline.reschedule(None)  # no deadline while a person thinks
        try:
            yield
        finally:
            waited = self._clock() - started
            self._wait_started = None
            self._waited_s += waited
            if deadline is not None and when is not None:
                deadline.reschedule(when + waited)
            for listener in self._after_wait:
                listener(waited)

    def after_wait(self, listener: Callable[[float], None]) -> None:
        """`listener(seconds)` after each wait for a person: other deadlines that follow the time
        budget (the browser's wall) move by as much."""
        self._after_wait.append(listener)

    def step_timeout(self) -> _StepDeadline:
        """asyncio.timeout for one step: the remaining agent time, extended by any person's wait."""
        return _StepDeadline(self)

    def remaining_s(self) -> float:
        return max(0.0, (self.budget.max_time_ms - self.elapsed_ms()) / 1000)

    def exceeded(self) -> str | None:
        """The first limit passed, as a short reason, or None."""
        b = self.budget
        if self.elapsed_ms() > b.max_time_ms:
            return f"time {self.elapsed_ms()} ms > {b.max_time_ms} ms"
        if self.tool_calls > b.max_tool_calls:
            return f"tool calls {self.tool_calls} > {b.max_tool_calls}"
        if self.tokens > b.max_tokens:
            return f"tokens {self.tokens} > {b.max_tokens}"
        if self.sources > b.max_sources:
            return f"sources {self.sources} > {b.max_sources}"
        if self.actions > b.max_actions:
            return f"actions {self.actions} > {b.max_actions}"
        return None

    def charge_call(self) -> None:
        """Takes one tool call from the budget before it is made; refuses the call past the limit."""
        if self.tool_calls >= self.budget.max_tool_calls:
            raise BudgetExceeded(f"tool calls: limit {self.budget.max_tool_calls} reached")
        self.tool_calls += 1
        self._raise_if_exceeded()

    def add_usage(self, *, tokens: int = 0, sources: int = 0, actions: int = 0) -> None:
        self.tokens += tokens
        self.sources += sources
        self.actions += actions
        self._raise_if_exceeded()

    def _raise_if_exceeded(self) -> None:
        what = self.exceeded()
        if what is not None:
            raise BudgetExceeded(what)

    def state(self) -> BudgetStateV1:
        return BudgetStateV1(
            tool_calls_used=self.tool_calls,
            time_ms_used=self.elapsed_ms(),
            token_est_used=self.tokens,
            sources_used=self.sources,
            actions_used=self.actions,
            person_wait_ms=self.person_wait_ms(),
            exceeded=self.exceeded(),
            model_usage=self.model_usage,
        )


class _StepDeadline:
    """`async with budget.step_timeout():` the step's asyncio.Timeout, held by the budget while the
    step runs so a person's wait can move it. A class: one is entered per step."""

    __slots__ = ("_budget", "_timeout")

    def __init__(self, budget: BudgetEnforcer) -> None:
        self._budget = budget
        self._timeout = asyncio.timeout(budget.remaining_s())

    async def __aenter__(self) -> None:
        await self._timeout.__aenter__()
        self._budget._deadline = self._timeout

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._budget._deadline = None
        await self._timeout.__aexit__(kind, exc, tb)  # raises TimeoutError when the time ran out
