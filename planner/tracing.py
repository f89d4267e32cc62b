"""Planner tracing: architect input, every model call, architect output, cost.

A PlanTrace is plain data: the service returns it with the plan, the app may store or print it.
Prompts hold placeholders only (secrets are cut out before any prompt is built).
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from common.contracts import new_id, utc_now


class ModelPrice(BaseModel):
    """US dollars per million tokens."""

    model_config = ConfigDict(frozen=True)

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)


#: Default price table; configurable per run. Matched by exact name, then by longest name prefix.
DEFAULT_PRICES: dict[str, ModelPrice] = {
    "gpt-4o-mini": ModelPrice(input_per_mtok=0.15, output_per_mtok=0.60),
    "gpt-4o": ModelPrice(input_per_mtok=2.50, output_per_mtok=10.00),
    "gpt-4.1-nano": ModelPrice(input_per_mtok=0.10, output_per_mtok=0.40),
    "gpt-4.1-mini": ModelPrice(input_per_mtok=0.40, output_per_mtok=1.60),
    "gpt-4.1": ModelPrice(input_per_mtok=2.00, output_per_mtok=8.00),
    "o4-mini": ModelPrice(input_per_mtok=1.10, output_per_mtok=4.40),
}


def price_for(model: str, prices: dict[str, ModelPrice]) -> ModelPrice | None:
    if model in prices:
        return prices[model]
    matches = [name for name in prices if model.startswith(name)]
    return prices[max(matches, key=len)] if matches else None


CallFormat = Literal["json_schema", "json_object", "tools", "none"]


class ModelCall(BaseModel):
    """One request to the model and what came back (or why nothing usable did)."""

    purpose: str
    model: str
    params: dict[str, Any] = Field(default_factory=dict)
    response_format: CallFormat = "none"
    messages: list[dict[str, Any]] = Field(default_factory=list)
    raw_output: str | None = None
    parsed_output: dict[str, Any] | None = None
    error: str | None = None
    tokens_in: int = 0
    tokens_out: int = 0
    #: True when the server sent no usage and the tokens are an estimate (planner.metering).
    estimated: bool = False
    latency_ms: float = 0.0
    attempt: int = 1


class Usage(BaseModel):
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float | None = None


class TraceEvent(BaseModel):
    kind: Literal["architect_input", "llm_call", "architect_output", "fallback", "safety_floor", "note"]
    at_ms: float
    data: dict[str, Any] = Field(default_factory=dict)


class PlanTrace(BaseModel):
    trace_id: str = Field(default_factory=lambda: new_id("trace"))
    started_at: str = Field(default_factory=lambda: utc_now().isoformat())
    events: list[TraceEvent] = Field(default_factory=list)
    calls: list[ModelCall] = Field(default_factory=list)
    usage: Usage = Field(default_factory=Usage)


class Tracer:
    """Collects one planning run's events; `usage()` totals tokens and prices them when it can."""

    def __init__(self, prices: dict[str, ModelPrice] | None = None, trace_id: str | None = None) -> None:
        self.trace = PlanTrace(trace_id=trace_id) if trace_id else PlanTrace()
        self._prices = DEFAULT_PRICES if prices is None else prices
        self._t0 = time.perf_counter()

    def _now_ms(self) -> float:
        return (time.perf_counter() - self._t0) * 1000.0

    def event(self, kind: str, **data: Any) -> None:
        self.trace.events.append(
            TraceEvent.model_validate({"kind": kind, "at_ms": self._now_ms(), "data": data})
        )

    def call(self, call: ModelCall) -> None:
        self.trace.calls.append(call)
        self.event(
            "llm_call",
            index=len(self.trace.calls) - 1,
            model=call.model,
            purpose=call.purpose,
            tokens_in=call.tokens_in,
            tokens_out=call.tokens_out,
            latency_ms=call.latency_ms,
            error=call.error,
        )
        self.trace.usage = self.usage()

    def usage(self) -> Usage:
        calls = self.trace.calls
        cost: float | None = 0.0
        for c in calls:
            price = price_for(c.model, self._prices)
            if price is None:
                cost = None
                break
            assert cost is not None
            cost += (c.tokens_in * price.input_per_mtok + c.tokens_out * price.output_per_mtok) / 1e6
        return Usage(
            calls=len(calls),
            tokens_in=sum(c.tokens_in for c in calls),
            tokens_out=sum(c.tokens_out for c in calls),
            cost_usd=round(cost, 8) if cost is not None and calls else (None if calls else 0.0),
        )
