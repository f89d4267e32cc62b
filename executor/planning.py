"""Planning a task without building a core: what `waypost plan` and AgentCore.plan share.

Why a module of its own: planning with the rules needs the planner and nothing else. The critic and
the replanner (which pull in the run machinery) are imported only when a model made the plan, so
`waypost plan --planner rules` starts in a fraction of the time a full core takes.
"""

from __future__ import annotations

from collections.abc import Sequence

from planner.context import build_context
from planner.llm_settings import LLMSettings
from planner.models import AttachedFile, ContextPack, TabContext
from planner.service import PlannerChoice, PlanResult, make_plan


async def plan_task(
    task: str,
    *,
    llm: LLMSettings | None,
    url: str | None = None,
    title: str | None = None,
    selection: str = "",
    files: Sequence[str] = (),
    planner: PlannerChoice = "auto",
) -> PlanResult:
    """The plan for a task; a model-made plan is checked by the critic (and replanned once) first."""
    context = build_context(task)
    if url or title or selection or files:
        context = ContextPack(
            active_tab=TabContext(url=url, title=title, selection_text=selection),
            attached_files=[AttachedFile(path=f) for f in files],
        )
    result = await make_plan(task, context=context, planner=planner, llm=llm)
    if result.planner_used != "llm":
        return result
    from executor import revision  # the critic's path: only for a model's plan

    replanner = revision.LLMReplanner(llm) if llm is not None and llm.configured else None
    return await revision.reviewed(result, replanner)
