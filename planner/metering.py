"""Token metering: every model call, wherever it is made, is charged to the scopes that are open.

The model client reports each answered call here (the server's `usage`, or an estimate when the
server sends none). A scope is opened with `metered()` by whoever owns a budget (a run step, a
replan, an eval task); scopes nest, and a call counts in every open scope, so a step's tokens are
also the run's. This keeps the planner free of executor imports: an `on_charge` callback is the
only way a scope reaches a budget.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from pydantic import BaseModel, Field

from common.scoped import Scoped

#: Rough characters per token for text the server did not count (English-ish prose and JSON).
CHARS_PER_TOKEN = 4
#: What one downscaled screenshot costs when the server does not say (a low-detail image tile).
IMAGE_TOKENS = 85


class ModelUsage(BaseModel):
    """Tokens spent on model calls. `estimated_calls` counts calls whose usage was not reported
    (a call cut at its timeout is estimated from what was sent); `ms` is the time calls took."""

    calls: int = Field(default=0, ge=0)
    tokens_in: int = Field(default=0, ge=0)
    tokens_out: int = Field(default=0, ge=0)
    estimated_calls: int = Field(default=0, ge=0)
    ms: int = Field(default=0, ge=0)

    @property
    def total(self) -> int:
        return self.tokens_in + self.tokens_out

    def plus(self, other: ModelUsage) -> ModelUsage:
        return ModelUsage(
            calls=self.calls + other.calls,
            tokens_in=self.tokens_in + other.tokens_in,
            tokens_out=self.tokens_out + other.tokens_out,
            estimated_calls=self.estimated_calls + other.estimated_calls,
            ms=self.ms + other.ms,
        )


#: Called per call with that call's usage; a budget may raise there to stop the run.
ChargeHook = Callable[[ModelUsage], None]


class TokenMeter:
    """One scope's running total; `on_charge` is called per call."""

    def __init__(self, on_charge: ChargeHook | None = None) -> None:
        self.usage = ModelUsage()
        self._on_charge = on_charge

    def add(self, call: ModelUsage) -> None:
        self.usage = self.usage.plus(call)
        if self._on_charge is not None:
            self._on_charge(call)


_open: ContextVar[tuple[TokenMeter, ...]] = ContextVar("waypost_token_meters", default=())


def metered(on_charge: ChargeHook | None = None) -> Scoped[tuple[TokenMeter, ...], TokenMeter]:
    """Opens a scope: calls made inside it (in this task or tasks it starts) are charged to it."""
    meter = TokenMeter(on_charge)
    return Scoped(_open, (*_open.get(), meter), meter)


def report(tokens_in: int, tokens_out: int, *, estimated: bool = False, ms: float = 0.0) -> None:
    """Charges one model call to every open scope, innermost first (a budget error stops the rest)."""
    call = ModelUsage(
        calls=1, tokens_in=tokens_in, tokens_out=tokens_out, estimated_calls=int(estimated), ms=round(ms)
    )
    for meter in reversed(_open.get()):
        meter.add(call)


def estimate_tokens(text: str) -> int:
    """A conservative guess for text nobody counted: one token per four characters, at least one."""
    return max(1, -(-len(text) // CHARS_PER_TOKEN)) if text else 0


def estimate_prompt(messages: list[dict[str, Any]]) -> int:
    """Prompt tokens of chat messages: text by length, each image part at IMAGE_TOKENS."""
    total = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            for part in content:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    total += IMAGE_TOKENS
                else:
                    total += estimate_tokens(json.dumps(part, ensure_ascii=False))
        else:
            total += estimate_tokens(str(content or ""))
        total += 4  # role and separators
    return total
