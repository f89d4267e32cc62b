"""Planning a task without building a core: what `waypost plan` and AgentCore.plan share.

Why a module of its own: planning with the rules needs the planner and nothing else. The critic and
the replanner (which pull in the run machinery) are imported only when a model made the plan, so
`waypost plan --planner rules` starts in a fraction of the time a full core takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from planner.context import build_context
from planner.models import AttachedFile, ContextPack, TabContext
from planner.service import PlannerChoice, PlanResult, make_plan, plan_by_rules

if TYPE_CHECKING:
    from planner.llm_settings import LLMSettings


def task_context(
    task: str,
    *,
    url: str | None = None,
    title: str | None = None,
    selection: str = "",
    files: Sequence[str] = (),
) -> ContextPack:
    """What the planner knows besides the words: the tab and files given, else what the task names."""
    if url or title or selection or files:
        return ContextPack(
            active_tab=TabContext(url=url, title=title, selection_text=selection),
            attached_files=[AttachedFile(path=f) for f in files],
        )
    return build_context(task)


def plan_with_rules(task: str, *, url: str | None = None) -> PlanResult:
    """The rules' plan, with no event loop, model client or run machinery loaded (the CLI's
    `plan --planner rules`: it starts in a fraction of the time, docs/architecture.md "Cold start")."""
    return plan_by_rules(task, context=task_context(task, url=url))


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
    context = task_context(task, url=url, title=title, selection=selection, files=files)
    result = await make_plan(task, context=context, planner=planner, llm=llm)
    if result.planner_used != "llm":
        return result
    from executor.run import revision  # the critic's path: only for a model's plan

    replanner = revision.LLMReplanner(llm) if llm is not None and llm.configured else None
    return await revision.reviewed(result, replanner)
