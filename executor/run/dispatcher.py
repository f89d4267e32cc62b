"""StepDispatcher: step -> runner -> StepRunV1. Tool failures become FAILED step runs, not exceptions."""

from __future__ import annotations

import time

from common.contracts import utc_now
from executor.errors import ToolError
from executor.models import StepRunV1, StepStatus
from executor.run.model_share import run_share
from executor.tools.boundary import ToolContext
from executor.tools.engine import ToolCallEngine
from executor.tools.registry import RunnerRegistry
from planner import model_time
from planner.metering import metered
from planner.models import Step


class StepDispatcher:
    def __init__(self, registry: RunnerRegistry, engine: ToolCallEngine) -> None:
        self.registry = registry
        self.engine = engine

    async def run_step(self, step: Step, ctx: ToolContext) -> StepRunV1:
        """Runs the step. BudgetExceeded and cancellation propagate: they end the run, not the step."""
        started_at = utc_now()
        t0 = time.perf_counter()
        runner = self.registry.get(step.type_name)
        if runner is None:
            return StepRunV1(
                step_id=step.step_id,
                step_type=step.type_name,
                status=StepStatus.FAILED,
                error=f"unknown step type {step.type_name!r}: no runner is registered for it",
                error_code="unknown_step_type",
                gate=ctx.gate,
                started_at=started_at,
                finished_at=utc_now(),
            )
        charge = ctx.budget.charge_model_call if ctx.budget is not None else None
        share = run_share(ctx.budget, ctx.plan) if ctx.budget is not None else _unlimited
        try:
            with metered(charge) as meter, model_time.limited(share):
                output = await runner.run(step, ctx, self.engine)
        except ToolError as exc:
            return StepRunV1(
                step_id=step.step_id,
                step_type=step.type_name,
                status=StepStatus.FAILED,
                tool_calls=ctx.tool_calls,
                error=str(exc),
                error_code=exc.code,
                outputs=dict(getattr(exc, "outputs", None) or {}),  # what a stopped step did get done
                gate=ctx.gate,
                started_at=started_at,
                finished_at=utc_now(),
                duration_ms=(time.perf_counter() - t0) * 1000,
                model_usage=meter.usage,
            )
        actions = output.actions
        if actions is None:
            actions = [call.tool_name for call in ctx.tool_calls if call.status == "OK"]
        outputs = dict(output.outputs)
        if output.final_url is not None:
            outputs.setdefault("final_url", output.final_url)
        return StepRunV1(
            step_id=step.step_id,
            step_type=step.type_name,
            status=StepStatus.SUCCESS,
            tool_calls=ctx.tool_calls,
            outputs=outputs,
            evidence=output.evidence,
            actions=actions,
            gate=ctx.gate,
            started_at=started_at,
            finished_at=utc_now(),
            duration_ms=(time.perf_counter() - t0) * 1000,
            model_usage=meter.usage,
        )


def _unlimited() -> float:
    return float("inf")
