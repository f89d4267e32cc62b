"""ActRunner: the StepRunner of ACT, FORM_FILL, CLICK_NAV and DOWNLOAD_FILE steps.

It opens the run's browser and recorder, puts the browser under the step's policy (the gate's
blocked actions, no_submit), runs the loop, keeps downloads inside the run folder, and writes
memory at its three moments. A stop (loop, cap, failures) fails the step with its reason code.
"""

from __future__ import annotations

import asyncio
import hashlib
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from browser.driver import PolicyAware
from browser.models import BrowserPolicy
from browser.thumbnail import driver_thumbnail
from browser.worker_guard import UNCHECKED
from common.secrecy import has_placeholder
from executor.act import report
from executor.act.effects import home_origins
from executor.act.guards import ActStopped, LoopLimits
from executor.act.hints import HintedCognition
from executor.act.intent import Intent
from executor.act.loop import ActLoop, LoopResult
from executor.act.perform import ActEnv
from executor.act.preview import preview_step
from executor.act.progress import StepProgress
from executor.act.spec import loop_spec
from executor.act.verify import goal_failure
from executor.errors import FatalToolError
from executor.events import NullSink
from executor.memory import MemoryStore, site_of
from executor.run_resources import RunResources
from executor.tool_engine import ToolCallEngine
from executor.tools import ToolContext, ToolOutput
from planner.cognition import Cognition, RuleCognition
from planner.models import Step
from planner.page_view import showing
from planner.secrets import plan_urls
from receipts.interface import Recorder

#: Stops whose cause is worth remembering for the site (stable failure causes).
_STABLE_FAILURES = {"loop_detected", "consecutive_failures", "max_actions", "no_progress"}


def step_policy(base: BrowserPolicy, blocked_actions: list[str]) -> BrowserPolicy:
    """The run's browser policy narrowed by the step's gate: its blocked actions join the run's."""
    merged = list(dict.fromkeys([*base.blocked_actions, *blocked_actions]))
    return base.model_copy(update={"blocked_actions": merged})


def settle_download(item: dict[str, Any], run_dir: Path) -> dict[str, Any]:
    """A download's path relative to the run folder; a file saved elsewhere is copied in first."""
    path, root = Path(item["path"]).resolve(), run_dir.resolve()
    sha256 = item["sha256"]
    if not path.is_relative_to(root):
        home = root / "downloads"
        home.mkdir(parents=True, exist_ok=True)
        moved = home / path.name
        shutil.copyfile(path, moved)
        path, sha256 = moved, hashlib.sha256(moved.read_bytes()).hexdigest()
    return {"path": path.relative_to(root).as_posix(), "sha256": sha256}


class ActRunner:
    def __init__(
        self,
        *,
        cognition: Cognition | None = None,
        memory: MemoryStore | None = None,
        limits: LoopLimits | None = None,
    ) -> None:
        self.cognition: Cognition = cognition or RuleCognition()
        self.memory = memory
        self.limits = limits

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput:
        resources = ctx.resources
        if resources is None:
            raise FatalToolError(
                f"{step.type_name} needs the run's browser; none was provided", code="no_browser"
            )
        spec = loop_spec(step, ctx)
        driver = await resources.driver()
        recorder = await resources.recorder()
        if isinstance(driver, PolicyAware):
            await driver.set_policy(step_policy(resources.policy, ctx.blocked_actions))
        progress = StepProgress.from_outputs(dict(ctx.step_outputs.get(step.step_id, {})))
        guard_mark = len(driver.guard_events)  # this step's refusals: those after the mark
        env = ActEnv(
            driver=driver,
            recorder=recorder,
            run_id=ctx.run_id,
            step_id=step.step_id,
            run_dir=resources.run_dir,
            events=ctx.events or NullSink(),
            budget=ctx.budget,
            progress=progress,
            intents=ctx.intents,
            listed=spec.actions is not None,
        )
        limits = self.limits or LoopLimits.from_config(dict(step.config))
        home = home_origins([*plan_urls(ctx.plan), spec.url or driver.url])  # the task's own sites
        loop = ActLoop(
            env, spec, gate=ctx.gate, progress=progress, limits=limits,
            cognition=self._cognition(spec.url or driver.url), ask=ctx.ask,
            safe_mode=ctx.runtime.safe_mode, home=home,
            in_flight=Intent.from_outputs(dict(ctx.step_outputs.get(step.step_id, {}))),
        )  # fmt: skip
        try:
            with showing(lambda: driver_thumbnail(driver)):  # a picture for models that take images
                result = await loop.run()
        except ActStopped as stop:
            self._remember_failure(ctx.run_id, progress, stop)
            raise
        await self._keep_downloads(progress, resources.run_dir, recorder, step.step_id)
        self._remember_success(ctx.run_id, step, spec.payload, progress, result)
        if not result.success:
            raise ActStopped(f"goal not met: {result.summary}", code="goal_not_met", outputs=loop.outputs())
        if spec.actions is None:
            failure = await goal_failure(driver, spec.goal, spec.payload, progress, result.summary)
            if failure is not None:
                raise ActStopped(f"goal not met: {failure}", code="goal_not_met", outputs=loop.outputs())
        policy = step_policy(resources.policy, ctx.blocked_actions)
        answer = report.describe(
            progress, goal_summary=result.summary, submit_blocked=policy.submit_blocked,
            blocked_actions=policy.blocked_actions, redactor=resources.redactor,
            unchecked=[e.detail for e in driver.guard_events[guard_mark:] if UNCHECKED in e.detail],
        )  # fmt: skip
        outputs: dict[str, Any] = {**loop.outputs(), **report.state_outputs(progress), "status": "done",
                                   "summary": result.summary, "answer": answer,
                                   "fsm": result.fsm_path}  # fmt: skip
        actions = [f"{h['action'].get('kind')}:{h['status']}" for h in progress.history]
        return ToolOutput(
            outputs=outputs, actions=actions, ui_actions=progress.performed, final_url=progress.url
        )

    async def preview(
        self, step: Step, resources: RunResources, outputs: Mapping[str, Mapping[str, Any]]
    ) -> str | None:
        """What the step's gate shows: its page, its elements marked (executor/act/preview.py)."""
        return await preview_step(step, resources, outputs)

    def _cognition(self, url: str | None) -> Cognition:
        hints = self.memory.field_hints(site_of(url)) if self.memory is not None else {}
        return HintedCognition(self.cognition, hints) if hints else self.cognition

    async def _keep_downloads(
        self, progress: StepProgress, run_dir: Path, recorder: Recorder, step_id: str
    ) -> None:
        """Every download ends inside the run folder, its sha256 in the receipts chain."""
        for item in progress.downloads:
            item.update(await asyncio.to_thread(settle_download, item, run_dir))
            await recorder.record_note(
                f"downloaded {item['path']} ({item['size']} bytes) sha256={item['sha256']}", step_id=step_id
            )

    def _remember_success(
        self, run_id: str, step: Step, payload: dict[str, str], progress: StepProgress, result: LoopResult
    ) -> None:
        site = site_of(progress.url)
        if self.memory is None or site is None:
            return
        keys = {value: key for key, value in payload.items()}
        for fact in progress.facts:
            if has_placeholder(str(fact.get("value", ""))):
                continue  # a secret's target is never learned: a page could have steered it there
            key = keys.get(fact["value"]) or fact.get("label") or ""
            if key and fact.get("target"):
                self.memory.remember_field(
                    site, key, fact["target"], label=fact.get("label") or "", run_id=run_id
                )
        if result.success:
            self.memory.remember_summary(site, step.name or step.step_id, result.summary, run_id=run_id)

    def _remember_failure(self, run_id: str, progress: StepProgress, stop: ActStopped) -> None:
        site = site_of(progress.url)
        if self.memory is not None and site is not None and stop.code in _STABLE_FAILURES:
            self.memory.remember_failure(site, stop.code, str(stop), run_id=run_id)
