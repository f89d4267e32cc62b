"""Planner latency: the rule planner over the routing table, and the LLM architect's own overhead.

Run: `.venv/bin/python -m benchmarks.planner_latency [--repeat N]`. Figures, not pass/fail.
The architect runs against the local scripted model server with instant replies, so what is left
after subtracting each model call's round trip is the architect's overhead (understanding, the rule
floor, prompt building, validation, the safety floor).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from pydantic import SecretStr

from planner.architect import LLMPlanner
from planner.context import build_context
from planner.draft import plan_to_draft
from planner.llm_settings import LLMSettings
from planner.metering import metered
from planner.rules import plan_rules
from tests.support.llm_server import Reply, ScriptedLLMServer
from tests.unit.planner.routing_cases import CASES

GOAL_MS = 2.0


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rule_latency(repeat: int) -> list[float]:
    """Median milliseconds per task (each task planned `repeat` times after one warm-up)."""
    medians: list[float] = []
    for case in CASES:
        context = build_context(case.task, url=case.url)
        plan_rules(case.task, context)
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            plan_rules(case.task, context)
            runs.append((time.perf_counter() - t0) * 1000)
        medians.append(statistics.median(runs))
    return medians


async def architect_overhead(rounds: int) -> tuple[list[float], list[float]]:
    """(architect overhead ms, model round trip ms) per planned task."""
    server = ScriptedLLMServer().start()
    settings = LLMSettings(
        base_url=server.url, api_key=SecretStr("bench"), model="bench-model", max_retries=0
    )
    overheads: list[float] = []
    round_trips: list[float] = []
    try:
        cases = [c for c in CASES if c.mode != "CLARIFY"]
        for _ in range(rounds):
            for case in cases:
                context = build_context(case.task, url=case.url)
                server.script(
                    Reply.json(plan_to_draft(plan_rules(case.task, context)).model_dump(mode="json"))
                )
                planner = LLMPlanner(settings)
                t0 = time.perf_counter()
                with metered() as meter:
                    await planner.plan(case.task, context)
                total = (time.perf_counter() - t0) * 1000
                await planner.aclose()
                model = float(meter.usage.ms)
                overheads.append(total - model)
                round_trips.append(model)
    finally:
        server.stop()
    return overheads, round_trips


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="rule-planner runs per task")
    parser.add_argument("--rounds", type=int, default=2, help="architect passes over the table")
    args = parser.parse_args()
    medians = rule_latency(args.repeat)
    print(f"rule planner, {len(CASES)} routing-table tasks x {args.repeat} runs")
    print(f"  median of per-task medians: {statistics.median(medians):.3f} ms  (goal < {GOAL_MS} ms a task)")
    print(f"  p95 of per-task medians:    {_pct(medians, 0.95):.3f} ms   max: {max(medians):.3f} ms")
    print(f"  tasks over goal:            {sum(m >= GOAL_MS for m in medians)}")
    overheads, trips = asyncio.run(architect_overhead(args.rounds))
    print(f"llm architect, {len(overheads)} plans against the local instant model server")
    print(
        f"  architect overhead (excluding model round trip): median {statistics.median(overheads):.2f} ms, "
        f"p95 {_pct(overheads, 0.95):.2f} ms"
    )
    print(f"  model round trip via openai client (instant server): median {statistics.median(trips):.2f} ms")


if __name__ == "__main__":
    main()
