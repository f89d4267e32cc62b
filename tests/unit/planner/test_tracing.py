"""Tracing: events in order, token totals, cost by price table (unknown model: tokens only)."""

from __future__ import annotations

import pytest

from planner.tracing import DEFAULT_PRICES, ModelCall, ModelPrice, Tracer, price_for


def test_price_lookup_exact_then_longest_prefix() -> None:
    assert price_for("gpt-4o-mini", DEFAULT_PRICES) == DEFAULT_PRICES["gpt-4o-mini"]
    assert price_for("gpt-4o-mini-2024-07-18", DEFAULT_PRICES) == DEFAULT_PRICES["gpt-4o-mini"]
    assert price_for("gpt-4o-2024-08-06", DEFAULT_PRICES) == DEFAULT_PRICES["gpt-4o"]
    assert price_for("llama3.1:8b", DEFAULT_PRICES) is None


def test_usage_totals_and_cost() -> None:
    tracer = Tracer({"m": ModelPrice(input_per_mtok=1.0, output_per_mtok=2.0)})
    assert tracer.usage().cost_usd == 0.0
    tracer.call(ModelCall(purpose="architect", model="m", tokens_in=500_000, tokens_out=250_000))
    tracer.call(ModelCall(purpose="cognition", model="m", tokens_in=500_000, tokens_out=0))
    usage = tracer.trace.usage
    assert (usage.calls, usage.tokens_in, usage.tokens_out) == (2, 1_000_000, 250_000)
    assert usage.cost_usd == pytest.approx(1.5)
    tracer.call(ModelCall(purpose="x", model="unknown", tokens_in=10, tokens_out=1))
    assert tracer.usage().cost_usd is None and tracer.usage().tokens_in == 1_000_010


def test_events_keep_their_order() -> None:
    tracer = Tracer()
    tracer.event("architect_input", goal="g")
    tracer.call(ModelCall(purpose="architect", model="gpt-4o"))
    tracer.event("architect_output", step_count=3)
    assert [e.kind for e in tracer.trace.events] == ["architect_input", "llm_call", "architect_output"]
    assert tracer.trace.events[0].at_ms <= tracer.trace.events[-1].at_ms
