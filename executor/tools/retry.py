"""RetryBackoffManager: which failures are worth another try, how often per mode, and how long to wait."""

from __future__ import annotations

import asyncio
import random

from pydantic import Field

from common.contracts import Contract
from executor.errors import ToolError
from executor.models import ExecMode


class RetryPolicy(Contract):
    max_attempts: int = Field(default=2, ge=1, le=10)
    base_delay_s: float = Field(default=0.25, ge=0)
    max_delay_s: float = Field(default=4.0, ge=0)


#: Research retries a search once, actions retry a click/fill once, clarify mode
#: never retries (a timeout there becomes NEEDS_CLARIFICATION at once).
MODE_RETRY_POLICIES: dict[ExecMode, RetryPolicy] = {
    ExecMode.RESEARCH_ONLY: RetryPolicy(max_attempts=2),
    ExecMode.ACTION_ONLY: RetryPolicy(max_attempts=2),
    ExecMode.HYBRID: RetryPolicy(max_attempts=2),
    ExecMode.ACTION_THEN_RESEARCH: RetryPolicy(max_attempts=2),
    ExecMode.CLARIFY_OR_FALLBACK: RetryPolicy(max_attempts=1),
}


def is_retryable(error: BaseException) -> bool:
    """Transient failures are retryable; programming errors and refusals are not."""
    if isinstance(error, ToolError):
        return error.retryable
    return isinstance(error, TimeoutError | asyncio.TimeoutError | ConnectionError)


class RetryBackoffManager:
    """Exponential backoff with full jitter (AWS architecture blog's variant): spreads retries apart."""

    def __init__(self, policy: RetryPolicy, *, rng: random.Random | None = None) -> None:
        self.policy = policy
        self._rng = rng or random.Random()

    def attempts_for(self, override: int | None) -> int:
        return override if override is not None else self.policy.max_attempts

    def should_retry(self, error: BaseException, attempt: int, max_attempts: int) -> bool:
        return attempt < max_attempts and is_retryable(error)

    def delay_for(self, attempt: int) -> float:
        """Delay before attempt `attempt + 1`: uniform in [0, min(cap, base * 2**(attempt-1))]."""
        ceiling = min(self.policy.max_delay_s, self.policy.base_delay_s * (2 ** (attempt - 1)))
        return self._rng.uniform(0.0, ceiling)
