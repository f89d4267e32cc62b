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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browser.driver import BrowserDriver, PolicyAware
from browser.events import GuardEvent
from browser.options import BrowserPolicy
from browser.thumbnail import driver_thumbnail
from browser.worker_guard import UNCHECKED
from common.secrecy import has_placeholder
from executor.act import report
from executor.act.aftermath import judging
from executor.act.effects import home_origins
from executor.act.guards import ActStopped, LoopLimits
from executor.act.hints import HintedCognition
from executor.act.intent import Intent
from executor.act.loop import ActLoop, LoopResult, LoopSpec
from executor.act.perform import ActEnv
from executor.act.preview import preview_step
from executor.act.progress import StepProgress
from executor.act.spec import check_inputs, loop_spec
from executor.act.verify import answer_asks, goal_failure, unmet_asks
from executor.errors import FatalToolError
from executor.journal.run_journal import Noted
from executor.journal.views import receipts_journal
from executor.models import EvidenceItem
from executor.run.resources import RunResources
from executor.store.memory import MemoryStore, site_of
from executor.tools.boundary import ToolContext, ToolOutput
from executor.tools.engine import ToolCallEngine
from planner.asks import AskList
from planner.cognition import RuleCognition, asks_of
from planner.decisions import AsksAware, Cognition
from planner.fact_words import Fact
from planner.gates import no_submit
from planner.models import ExecutionPlan, Step
from planner.page_view import showing
from planner.secrets import plan_urls


@dataclass
class Answered:
    """The step's answers: the text (fact first, cited), the evidence it cites, what went unanswered."""

    text: str = ""
    evidence: list[EvidenceItem] = field(default_factory=list)
    unmet: list[str] = field(default_factory=list)


#: Stops whose cause is worth remembering for the site (stable failure causes).
_STABLE_FAILURES = {"loop_detected", "consecutive_failures", "max_actions", "no_progress"}


def sent_next(plan: ExecutionPlan, step_id: str) -> bool:
    """A later acting step sends what this one filled (the plan cut the send into a step of its own)."""
    return any(
        s.is_action and step_id in s.depends_on and (gate := plan.gate(s.policy_gate_id)) is not None
        and "submit" not in gate.blocked_actions
        for s in plan.steps
    )  # fmt: skip


def step_policy(base: BrowserPolicy, blocked_actions: list[str], *, no_submit: bool = False) -> BrowserPolicy:
    """The run's browser policy narrowed by the step's gate: its blocked actions join the run's, and
    the task's "don't submit" quarantines the page once a value is typed (browser/quarantine.py)."""
    merged = list(dict.fromkeys([*base.blocked_actions, *blocked_actions]))
    return base.model_copy(update={"blocked_actions": merged, "no_submit": base.no_submit or no_submit})


async def _guarded(driver: BrowserDriver, policy: BrowserPolicy) -> BrowserPolicy:
    """Puts the browser under the step's policy (a driver without guards of its own is left as is)."""
    if isinstance(driver, PolicyAware):
        await driver.set_policy(policy)
    return policy


def quarantined(events: list[GuardEvent]) -> list[dict[str, str]]:
    """What a quarantined page tried to send (browser/quarantine.py), once per address: named in the
    step's answer, which says exactly what was refused."""
    seen = dict.fromkeys(e.url for e in events if e.kind == "quarantine")
    return [{"action": f"the page sent {url}", "risk": "quarantine", "why": "quarantined"} for url in seen]


def settle_download(item: dict[str, Any], run_dir: Path) -> dict[str, Any]:
    """A download's path relative to the run folder; a file saved elsewhere is copied in first."""
    path, root = Path(item["path"]).resolve(), run_dir.resolve()
    sha256 = item["sha256"]
    if not path.is_relative_to(root):
        home = root / "downloads"
        home.mkdir(parents=True, exist_ok=True)
        moved = home / path.name
        shutil.copyfile(path, moved)
        with moved.open("rb") as copied:
            path, sha256 = moved, hashlib.file_digest(copied, "sha256").hexdigest()
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

    def check_inputs(self, step: Step) -> None:
        """Inputs the loop would refuse, found when the plan is read (executor/run/plan_check.py)."""
        check_inputs(step)

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput:
        resources = ctx.resources
        if resources is None:
            raise FatalToolError(
                f"{step.type_name} needs the run's browser; none was provided", code="no_browser"
            )
        spec = loop_spec(step, ctx)
        driver = await resources.driver()
        recorder = await resources.recorder()
        policy = await _guarded(driver, step_policy(resources.policy, ctx.blocked_actions,
                                                    no_submit=no_submit(ctx.plan.task)))  # fmt: skip
        progress = StepProgress.from_outputs(dict(ctx.step_outputs.get(step.step_id, {})))
        guard_mark = len(driver.guard_events)  # this step's refusals: those after the mark
        env = ActEnv(
            driver=driver,
            recorder=recorder,
            run_id=ctx.run_id,
            step_id=step.step_id,
            run_dir=resources.run_dir,
            journal=ctx.journal or receipts_journal(ctx.run_id, recorder, ctx.events),
            budget=ctx.budget,
            progress=progress,
            intents=ctx.intents,
            listed=spec.actions is not None,
        )
        limits = self.limits or LoopLimits.from_config(dict(step.config))
        home = home_origins([*plan_urls(ctx.plan), spec.url or driver.url])  # the task's own sites
        loop = ActLoop(
            env, spec, gate=ctx.gate, progress=progress, limits=limits,
            cognition=self._cognition(spec.url or driver.url, spec.asks), clear_action=ctx.clear_action,
            safe_mode=ctx.runtime.safe_mode, home=home,
            in_flight=Intent.from_outputs(dict(ctx.step_outputs.get(step.step_id, {}))),
        )  # fmt: skip
        try:  # a picture for models that take images; what the page sends waits for the step's judge
            with showing(lambda: driver_thumbnail(driver)), judging(driver, loop.followups):
                result = await loop.run()
        except ActStopped as stop:
            self._remember_failure(ctx.run_id, progress, stop)
            raise
        await self._keep_downloads(progress, resources.run_dir, env)
        self._remember_success(ctx.run_id, step, spec.payload, progress, result)
        asks = (spec.asks or asks_of(spec.goal, spec.payload)) if spec.actions is None else AskList()
        answered = await self._check_asks(driver, asks, progress, result, ctx, loop)
        if not asks.asks:
            await self._check_goal(driver, spec, progress, result, loop)
        progress.refused += quarantined(driver.guard_events[guard_mark:])
        answer = report.describe(
            progress, goal_summary=result.summary, submit_blocked=policy.submit_blocked,
            blocked_actions=policy.blocked_actions, redactor=resources.redactor,
            unchecked=[e.detail for e in driver.guard_events[guard_mark:] if UNCHECKED in e.detail],
            sent_next=sent_next(ctx.plan, step.step_id),
        )  # fmt: skip
        if answered.text:
            answer = f"{answered.text}\n\n{answer}" if progress.history[1:] else answered.text
        outputs: dict[str, Any] = {**loop.outputs(), **report.state_outputs(progress), "status": "done",
                                   "summary": result.summary, "answer": answer,
                                   "fsm": result.fsm_path}  # fmt: skip
        actions = [f"{h['action'].get('kind')}:{h['status']}" for h in progress.history]
        return ToolOutput(outputs=outputs, actions=actions, ui_actions=progress.performed,
                          final_url=progress.url, evidence=answered.evidence)  # fmt: skip

    async def _check_goal(
        self, driver: Any, spec: LoopSpec, progress: StepProgress, result: LoopResult, loop: ActLoop
    ) -> None:
        """A step without asks (an explicit action list, a goal the asks do not read): its own check."""
        if not result.success:
            raise ActStopped(f"goal not met: {result.summary}", code="goal_not_met", outputs=loop.outputs())
        if spec.actions is None:
            failure = await goal_failure(driver, spec.goal, spec.payload, progress, result.summary)
            if failure is not None:
                raise ActStopped(f"goal not met: {failure}", code="goal_not_met", outputs=loop.outputs())

    async def _check_asks(
        self,
        driver: Any,
        asks: AskList,
        progress: StepProgress,
        result: LoopResult,
        ctx: ToolContext,
        loop: ActLoop,
    ) -> Answered:
        """The step's asks read back from the page (and its questions answered): each unmet one is a
        sentence, and any fails the step whatever the cognition said (executor/act/asked.py)."""
        answered = await self._answers(driver, asks, ctx, ctx.step.step_id)
        if not asks.asks:
            return answered
        unmet = await unmet_asks(driver, asks, progress) + answered.unmet
        if not unmet and not result.success:
            unmet = [result.summary]
        if unmet:
            raise ActStopped(
                "; ".join(unmet), code="goal_not_met", outputs={**loop.outputs(), "answer": answered.text}
            )
        return answered

    async def _answers(self, driver: Any, asks: AskList, ctx: ToolContext, step_id: str) -> Answered:
        """The step's questions answered from the page it ended on, each cited; or why not."""
        found = await answer_asks(driver, asks)
        if not found:
            return Answered()
        url, title = driver.url, ""
        evidence: list[EvidenceItem] = []
        facts: list[tuple[Fact, int]] = []
        unmet: list[str] = []
        for ask, fact in found:
            if fact is None:
                unmet.append(f"I could not find {report.subject(ask.question)} on {url}")
                continue
            number = len(ctx.evidence) + len(evidence) + 1
            evidence.append(EvidenceItem(source_url=url, title=title, snippet=fact.line[:500], confidence=0.8,
                                         step_id=step_id))  # fmt: skip
            facts.append((fact, number))
            if not fact.satisfied:
                unmet.append(fact.because or fact.value)
        return Answered(text=report.fact_sentence(facts) if facts else "", evidence=evidence, unmet=unmet)

    async def preview(
        self, step: Step, resources: RunResources, outputs: Mapping[str, Mapping[str, Any]]
    ) -> str | None:
        """What the step's gate shows: its page, its elements marked (executor/act/preview.py)."""
        return await preview_step(step, resources, outputs)

    def _cognition(self, url: str | None, asks: AskList | None) -> Cognition:
        hints = self.memory.field_hints(site_of(url)) if self.memory is not None else {}
        cognition = HintedCognition(self.cognition, hints) if hints else self.cognition
        if asks is not None and asks.asks and isinstance(cognition, AsksAware):
            return cognition.with_asks(asks)  # the plan's asks for this step, whatever its goal reads as
        return cognition

    async def _keep_downloads(self, progress: StepProgress, run_dir: Path, env: ActEnv) -> None:
        """Every download ends inside the run folder, its sha256 in the receipts chain."""
        for item in progress.downloads:
            item.update(await asyncio.to_thread(settle_download, item, run_dir))
            text = f"downloaded {item['path']} ({item['size']} bytes) sha256={item['sha256']}"
            await env.journal.append(Noted(text=text, step_id=env.step_id))

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
