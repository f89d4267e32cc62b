"""One action with its evidence: capture before, journal the intent, perform through the driver,
journal the outcome, capture after, then journal the action (ActionRecorded, linked to the step and
the approval that allowed it): the receipts subscriber numbers it and the bus shows it live. The
intent and outcome let a resume tell an action that may have happened from one that did not
(executor/act/intent.py)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browser.driver import AnswerAware, BrowserDriver
from browser.models import Action, ActionOutcome, PageCapture
from executor.act.intent import Intent, IntentLog, settled, with_intent
from executor.act.progress import StepProgress
from executor.errors import BudgetExceeded
from executor.journal.run_journal import ActionRecorded, Journal
from executor.run.budget import BudgetEnforcer
from receipts.interface import Recorder
from receipts.models import ActionRecord, GateRef


@dataclass(kw_only=True)
class ActEnv:
    """What the loop acts with: the run's browser, its journal (what the step records goes there),
    the recorder (read only: which pictures it already holds) and the budget."""

    driver: BrowserDriver
    recorder: Recorder
    journal: Journal
    run_id: str
    step_id: str
    run_dir: Path
    budget: BudgetEnforcer | None = None
    last_after: PageCapture | None = None
    #: The step's progress and where it is saved with each action in flight; None: not journaled.
    progress: StepProgress | None = None
    intents: IntentLog | None = None
    #: The step runs an explicit action list (its progress counts listed actions done).
    listed: bool = False


@dataclass(frozen=True, slots=True)
class Performed:
    action: Action
    outcome: ActionOutcome
    record: ActionRecord
    before: PageCapture
    after: PageCapture

    @property
    def navigated(self) -> bool:
        return _page(self.before.url) != _page(self.after.url)


def _page(url: str) -> str:
    return url.split("#", 1)[0]


def charge(budget: BudgetEnforcer | None) -> None:
    """Refuses the action before it happens when the run's action budget is spent."""
    if budget is not None and budget.actions + 1 > budget.budget.max_actions:
        raise BudgetExceeded(f"actions: limit {budget.budget.max_actions} reached")


async def capture_before(env: ActEnv) -> PageCapture:
    """The state before an action; the previous after-capture when the page has not changed."""
    url, digest = env.driver.url, await env.driver.dom_hash()
    last = env.last_after
    if last is not None and last.url == url and last.dom_hash == digest:
        return last
    return await env.driver.capture(screenshot=env.recorder.needs_before_shot(url, digest))


async def perform(
    env: ActEnv, action: Action, gate: GateRef | None, before: PageCapture, *, journaled: bool = True
) -> Performed:
    """`journaled=False` for a resume's own re-application of inputs, which is not a step's action."""
    charge(env.budget)
    dialogs = len(env.driver.dialogs)
    started = time.perf_counter()
    waiting_before = _waiting(env.driver)
    intent = await _intend(env, action, before) if journaled else None
    outcome = await env.driver.perform(action)
    if env.budget is not None:
        env.budget.add_usage(actions=1)
    after = await env.driver.capture(screenshot=True)
    env.last_after = after
    if intent is not None:  # known only once the page has answered: after the capture
        sent = [request for request in _waiting(env.driver) if request not in waiting_before]
        await _settle(env, intent, outcome, sent)
    entry = ActionRecorded(
        step_id=env.step_id, action=action, outcome=outcome, before=before, after=after,
        target_resolved=outcome.resolved, duration_ms=(time.perf_counter() - started) * 1000, gate=gate,
        dialogs=env.driver.dialogs[dialogs:],  # answered by the browser's policy during the action
        run_dir=env.run_dir,
    )  # fmt: skip
    await env.journal.append(entry)
    return Performed(action=action, outcome=outcome, record=entry.record, before=before, after=after)


async def _intend(env: ActEnv, action: Action, before: PageCapture) -> Intent | None:
    """Saved before the browser sees the action: a run stopped from here on resumes knowing it."""
    if env.intents is None or env.progress is None:
        return None
    dumped = action.model_dump(mode="json", exclude_none=True)
    n = env.progress.count
    attempt = env.progress.repeats.get(n, 0) + 1
    intent = Intent(n=n, action=dumped, attempt=attempt, url=before.url, listed=env.listed)
    await env.intents.save(with_intent(env.progress, intent), settled=False, last_url=before.url)
    return intent


async def _settle(env: ActEnv, intent: Intent, outcome: ActionOutcome, sent: list[str]) -> None:
    """Journals the browser's answer when it says for certain what happened. A request the action
    sent that still waits for the server's answer (a form post) leaves it open, saying so."""
    if env.intents is None or env.progress is None:
        return
    if sent:
        waiting = intent.model_copy(update={"awaiting": sent})
        await env.intents.save(with_intent(env.progress, waiting), settled=False, last_url=outcome.url_after)
        return
    done = settled(intent, outcome)
    if done is not None:
        url = (done.outcome or {}).get("url")
        await env.intents.save(with_intent(env.progress, done), settled=True, last_url=url)


def _waiting(driver: BrowserDriver) -> list[str]:
    """Requests still waiting for their answer (drivers that cannot tell say none)."""
    return driver.unanswered() if isinstance(driver, AnswerAware) else []


async def refuse(env: ActEnv, action: Action, before: PageCapture, why: str, gate: GateRef | None) -> None:
    """Journals an action that never reached the browser (blocked or declined)."""
    outcome: dict[str, Any] = {"status": "blocked", "message": why}
    await env.journal.append(
        ActionRecorded(
            step_id=env.step_id, action=action, outcome=outcome, before=before, gate=gate, run_dir=env.run_dir
        )
    )
