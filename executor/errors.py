"""Exceptions with control-flow meaning: a tool failure is retryable or fatal, never just "an error"."""

from __future__ import annotations


class ExecutorError(Exception):
    """Base of every error the executor raises on purpose."""


class ToolError(ExecutorError):
    """A tool could not do its job. `retryable` says whether trying again may help."""

    retryable = False
    code = "tool_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class RetryableToolError(ToolError):
    """Transient: network hiccup, 429, a page that did not load in time."""

    retryable = True
    code = "transient"


class FatalToolError(ToolError):
    """Retrying cannot help: bad arguments, a refused URL, a missing element after re-observation."""

    code = "fatal"


class ToolTimeoutError(RetryableToolError):
    code = "timeout"


class RateLimitExceeded(RetryableToolError):
    """The wait for a rate-limit token would exceed the hard limit."""

    code = "rate_limited"


class BudgetExceeded(ExecutorError):
    """Raised inside a step when a budget runs out mid-step; the conductor ends the run ABORTED_BUDGET."""

    def __init__(self, what: str) -> None:
        super().__init__(f"budget exceeded: {what}")
        self.what = what
