"""Child process of the kill test: runs a plan whose third step hangs, announcing each step on stdout."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from executor.models import RuntimeCtxV1
from executor.run.conductor import RunConductor
from executor.store.checkpoint_store import CheckpointStore
from executor.tools.boundary import ToolContext, ToolOutput
from planner.models import ExecutionPlan

PLAN = {
    "plan_id": "plan_kill",
    "trace_id": "trace_kill",
    "mode": "A",
    "steps": [
        {"step_id": "s1", "type": "WEB_SEARCH"},
        {"step_id": "s2", "type": "EXTRACT_DOM", "depends_on": ["s1"]},
        {"step_id": "s3", "type": "SUMMARIZE", "depends_on": ["s2"]},
    ],
}


class Announcer:
    """Prints the step it runs; the summarize step then blocks until the process is killed."""

    def __init__(self, hang_on: str | None) -> None:
        self.hang_on = hang_on
        self.steps: list[str] = []

    async def __call__(self, args: dict[str, Any], ctx: ToolContext) -> ToolOutput:
        step_id = ctx.step.step_id
        self.steps.append(step_id)
        if step_id == self.hang_on:
            print(f"hanging {step_id}", flush=True)
            await asyncio.Event().wait()
        return ToolOutput(outputs={"text": f"done {step_id}"})


async def main(db: str) -> None:
    tool = Announcer(hang_on="s3")
    with CheckpointStore(db) as store:
        conductor = RunConductor(
            tools=dict.fromkeys(["web_search", "extract_dom", "summarize"], tool), store=store
        )
        await conductor.run(ExecutionPlan.model_validate(PLAN), RuntimeCtxV1(run_id="run_killed"))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
