"""RunnerRegistry: the one map from step type (both vocabularies) to the runner that executes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from executor.tools.boundary import ToolContext, ToolOutput
from executor.tools.engine import ToolCallEngine
from planner.models import Step, StepType

if TYPE_CHECKING:
    from executor.run.resources import RunResources

#: The fine step types, the coarse families and the goal-driven ACT (docs/architecture.md).
DEFAULT_TOOL_KEYS: dict[StepType, str] = {
    StepType.WEB_SEARCH: "web_search",
    StepType.OPEN_URL: "open_url",
    StepType.EXTRACT_DOM: "extract_dom",
    StepType.READ_PDF: "read_pdf",
    StepType.SUMMARIZE: "summarize",
    StepType.COMPARE_SOURCES: "compare",
    StepType.COMPUTE: "compute",
    StepType.FORM_FILL: "form_fill",
    StepType.CLICK_NAV: "click",
    StepType.DOWNLOAD_FILE: "download",
    StepType.WRITE_ARTIFACT: "write",
    StepType.RETRIEVE: "retrieve",
    StepType.FETCH_DATA: "fetch_data",
    StepType.ACT: "act",
}


class StepRunner(Protocol):
    """Executes one step; tool calls go through the engine so budget, rate and retry apply."""

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput: ...


@runtime_checkable
class Previewing(Protocol):
    """A runner that can show a step's gate what the step will touch, before it runs: a picture with
    its gate note (executor/gates/look.py), or None when it has nothing to show."""

    async def preview(
        self, step: Step, resources: RunResources, outputs: Mapping[str, Mapping[str, Any]]
    ) -> str | None: ...


class ToolRunner:
    """The plain runner: one tool call with the step's config overlaid by its inputs."""

    def __init__(self, tool_key: str) -> None:
        self.tool_key = tool_key

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput:
        return await engine.call(
            self.tool_key,
            {**step.config, **step.inputs},
            ctx,
            timeout_s=step.timeout_s,
            max_attempts=step.max_attempts,
        )


class RunnerRegistry:
    def __init__(self, runners: Mapping[str, StepRunner] | None = None) -> None:
        self._runners: dict[str, StepRunner] = {
            str(step_type): ToolRunner(key) for step_type, key in DEFAULT_TOOL_KEYS.items()
        }
        self._runners.update(runners or {})

    def register(self, step_type: str, runner: StepRunner) -> None:
        self._runners[step_type.upper()] = runner

    def get(self, step_type: str) -> StepRunner | None:
        return self._runners.get(step_type)

    def tool_key(self, step_type: str) -> str | None:
        runner = self._runners.get(step_type)
        return runner.tool_key if isinstance(runner, ToolRunner) else None
