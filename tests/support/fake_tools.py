"""Fake tools for executor tests: deterministic, scriptable, and honest about what they were asked."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from executor.errors import FatalToolError, RetryableToolError
from executor.models import EvidenceItem
from executor.tools.boundary import Tool, ToolContext, ToolOutput
from executor.tools.registry import DEFAULT_TOOL_KEYS


@dataclass
class FakeTool:
    """Succeeds, or fails per a script: `fail_times` retryable failures first, or always fatally.

    Research tools return `evidence_per_call` evidence items with URLs unique to the step.
    """

    key: str
    evidence_per_call: int = 0
    fail_times: int = 0
    fatal: bool = False
    hang: bool = False
    tokens: int = 0
    outputs: dict[str, Any] = field(default_factory=dict)
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    on_call: Callable[[ToolContext], None] | None = None

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        self.calls.append((ctx.step.step_id, dict(args)))
        if self.on_call is not None:
            self.on_call(ctx)
        if self.hang:
            await asyncio.Event().wait()
        if self.fatal:
            raise FatalToolError(f"{self.key} refused")
        if self.fail_times > 0:
            self.fail_times -= 1
            raise RetryableToolError(f"{self.key} flaked")
        evidence = [
            EvidenceItem(
                source_url=f"http://127.0.0.1/{ctx.step.step_id}/{n}",
                title=f"{ctx.step.step_id} source {n}",
                snippet=f"fact {n} from {ctx.step.step_id}",
            )
            for n in range(self.evidence_per_call)
        ]
        return ToolOutput(outputs=dict(self.outputs), evidence=evidence, tokens=self.tokens)


def fake_toolbox(**overrides: FakeTool) -> dict[str, FakeTool]:
    """A FakeTool for every default tool key; research keys return one evidence item per call."""
    research = {"web_search", "open_url", "extract_dom", "read_pdf", "retrieve", "fetch_data"}
    tools = {
        key: FakeTool(key, evidence_per_call=1 if key in research else 0)
        for key in DEFAULT_TOOL_KEYS.values()
    }
    tools.update(overrides)
    return tools


def call_counts(tools: dict[str, FakeTool]) -> Counter[str]:
    return Counter({key: len(tool.calls) for key, tool in tools.items() if tool.calls})


def as_tools(tools: dict[str, FakeTool]) -> dict[str, Tool]:
    return dict(tools)
