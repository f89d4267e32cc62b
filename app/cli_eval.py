"""`waypost eval`: the bundled task suite against the configured model, or the rules as a baseline.

Runs go to a throwaway folder unless --runs-dir is given, so an eval does not fill the history.
Progress goes to stderr as each task starts and ends (stdout keeps the report, or the JSON). With a
model, the rules then run the same tasks and the report ends with the comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.settings import Settings
from common.secrecy import scrub, scrub_data

if TYPE_CHECKING:
    from evals.checks import EvalTask
    from evals.runner import TaskResult
    from planner.service import PlannerChoice


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    return {"model": args.model, "base_url": args.base_url}


async def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from app.wiring import build_core  # the suite's machinery loads only for `waypost eval`
    from evals.model_report import compare, describe_model, progress_line
    from evals.runner import describe, run_suite
    from evals.tasks import select

    tasks = select(args.tasks)
    if not tasks:
        print(f"waypost: no task matches {args.tasks!r}", file=sys.stderr)
        return 2
    if args.rules:
        settings = settings.model_copy(update={"base_url": None, "api_key": None})
    cognition = settings.model if settings.llm_configured else "rules"
    planner: PlannerChoice = "auto" if settings.llm_configured else "rules"

    def started(task: EvalTask) -> None:
        if sys.stderr.isatty():
            print(f"   {task.task_id} ...", file=sys.stderr, flush=True)

    def progress(result: TaskResult) -> None:
        print(scrub(progress_line(result)), file=sys.stderr, flush=True)

    print(f"eval: {len(tasks)} task(s), cognition {cognition}", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="waypost-eval-") as scratch:
        where = args.runs_dir if args.runs_dir else Path(scratch)
        core = build_core(settings.model_copy(update={"runs_dir": where}))
        report = await run_suite(
            core, tasks, cognition=cognition, planner=planner, on_result=progress, on_start=started
        )
        if cognition != "rules" and not args.no_baseline:
            print("eval: the same tasks by the rules alone", file=sys.stderr, flush=True)
            rules = settings.model_copy(update={"runs_dir": where, "base_url": None, "api_key": None})
            baseline = await run_suite(
                build_core(rules), tasks, cognition="rules", planner="rules", on_result=progress
            )
            report.comparison = compare(report.results, baseline.results)
    if args.json:
        print(scrub(json.dumps(scrub_data(report.model_dump(mode="json")), indent=2)))
    else:
        human = describe(report)
        if cognition != "rules":
            human += "\n\nthe model's part\n" + describe_model(report)
        print(scrub(human))
    return 0
