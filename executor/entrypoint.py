"""`run_plan(plan, runtime, exec_mode=None)`: the one-call entry point over RunConductor."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from executor.checkpoint_store import CheckpointStore
from executor.conductor import RunConductor
from executor.confirm import ConfirmHandler
from executor.events import EventSink
from executor.models import ExecMode, RunBundleV1, RuntimeCtxV1
from executor.registry import RunnerRegistry
from executor.tools import Tool
from planner.models import ExecutionPlan

STORE_FILENAME = "waypost.sqlite3"


async def run_plan(
    plan: ExecutionPlan,
    runtime: RuntimeCtxV1,
    exec_mode: ExecMode | None = None,
    *,
    tools: Mapping[str, Tool],
    store: CheckpointStore | None = None,
    registry: RunnerRegistry | None = None,
    events: EventSink | None = None,
    confirm: ConfirmHandler | None = None,
) -> RunBundleV1:
    """Runs (or resumes) a plan. Without a store, one is opened in runtime.runs_dir (else in memory)."""
    owned = store is None
    if store is None:
        store = (
            CheckpointStore(Path(runtime.runs_dir) / STORE_FILENAME)
            if runtime.runs_dir
            else CheckpointStore.in_memory()
        )
    try:
        conductor = RunConductor(tools=tools, store=store, registry=registry, events=events, confirm=confirm)
        return await conductor.run(plan, runtime, exec_mode)
    finally:
        if owned:
            store.close()
