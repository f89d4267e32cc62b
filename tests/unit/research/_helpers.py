"""Builders for research unit tests: a ToolContext over a hand-made plan, evidence items."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from executor.models import EvidenceItem, RuntimeCtxV1
from executor.tools.boundary import ToolContext
from planner.models import ExecutionPlan, Step, TaskSpecV1

SITE_DIR_PARTS = ("tests", "fixtures", "site", "research")


def ev(url: str, snippet: str, title: str = "", confidence: float = 0.5) -> EvidenceItem:
    return EvidenceItem(source_url=url, snippet=snippet, title=title or url, confidence=confidence)


def context(
    *,
    step_type: str = "SUMMARIZE",
    task: str = "",
    evidence: Sequence[EvidenceItem] = (),
    step_outputs: Mapping[str, Mapping[str, Any]] | None = None,
    max_price: float | None = None,
    sub_queries: Sequence[str] = (),
) -> ToolContext:
    spec = None
    if task:
        spec = TaskSpecV1.model_validate({"user_query": task, "constraints": {"max_price": max_price}})
    step = Step(step_id="s1", type=step_type)
    plan = ExecutionPlan.model_validate(
        {"mode": "A", "task": spec, "steps": [step], "sub_queries": [{"q": q} for q in sub_queries]}
    )
    return ToolContext(
        run_id="run_test",
        trace_id="trace_test",
        plan=plan,
        step=step,
        runtime=RuntimeCtxV1(),
        gate=None,
        step_outputs=step_outputs or {},
        evidence=list(evidence),
    )
