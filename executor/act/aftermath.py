"""What follows an action: the requests a page sends in answer to it are judged before they leave
(docs/architecture.md, "Risk by effect").

A click is judged before it happens by what its element shows (executor/act/effects.py); its script
can still send anything. So while an ACT step runs, the browser holds every request that would change
something (browser/effect_hold.py: a POST/PUT/PATCH/DELETE, or a GET whose path reads as delete,
cancel or pay; `risk.request_risk`) until `FollowUps.judge` says:
- it goes when the step's gate kind covers its risk, or the action just performed was cleared for
  a risk that covers it (an approved delete covers its POST; any approved sending covers a plain
  submit), or it is the navigation Waypost itself started to that very URL;
- it is refused when the step's gate blocks its risk, and refused when nobody can be asked;
- otherwise the person is asked, on the terminal or in the window, like any action the step's
  approval does not cover (`<step gate>:<risk>:<n>`), one question at a time.
Each refusal is a warning note in the receipts and a line of the step's "Refused" answer; during the
action it also makes the action BLOCKED with the reason (browser/actions.py waits for the verdicts).
Between steps nobody acts: a request a page sends then is refused unless it is a page load.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from browser.driver import BrowserDriver, EffectAware
from browser.effect_hold import SentRequest
from browser.models import Action, NavigateAction
from executor.act.clearance import describe
from executor.act.effects import would
from executor.act.perform import ActEnv
from executor.act.progress import StepProgress
from executor.act.risk import SAFE_MODE_ONLY, Risk, blocked, covered, request_risk
from executor.gates.desk import ActionGate, Allowed, Cleared, Denied
from executor.journal.run_journal import Noted
from executor.models import GateDecisionV1
from executor.tools.boundary import ActionClearer

_SHOWN = 120


def concerns(method: str, url: str) -> bool:
    """The requests the browser holds for a verdict: those that would change something."""
    return request_risk(method, url) is not None


def one_at_a_time(clear_action: ActionClearer | None) -> ActionClearer | None:
    """The step's clearer, serialised: a held request's question never overlaps an action's."""
    if clear_action is None:
        return None
    lock = asyncio.Lock()
    inner = clear_action

    async def asking(action: ActionGate) -> Cleared:
        async with lock:
            return await inner(action)

    return asking


async def between_steps(sent: SentRequest) -> str | None:
    """Nobody acts between steps: what a page sends then that would change something is refused;
    loading a page (research reads pages) is not."""
    if sent.navigation:
        return None
    return f"{sent.method} {_shown(sent.url)} refused: the page sent it while no step was acting"


@contextmanager
def judging(driver: BrowserDriver, followups: FollowUps) -> Iterator[None]:
    """While the step runs, `followups` judges what the page sends; after it, `between_steps`."""
    holds = driver if isinstance(driver, EffectAware) else None
    if holds is not None:
        holds.hold_effects(concerns, followups.judge)
    try:
        yield
    finally:
        if holds is not None:
            holds.hold_effects(concerns, between_steps)


@dataclass(kw_only=True)
class FollowUps:
    """One step's judge of what its actions make the page send."""

    env: ActEnv
    gate: GateDecisionV1 | None
    progress: StepProgress
    clear_action: ActionClearer | None
    #: The action being performed (or last performed) and the risk it was cleared for.
    action: Action | None = None
    cleared: Risk | None = None

    def acting(self, action: Action, cleared: Risk | None) -> None:
        """Called just before the browser performs `action`, cleared for `cleared` (None: harmless)."""
        self.action, self.cleared = action, cleared

    def covers(self, risk: Risk, sent: SentRequest) -> bool:
        if covered(risk, self.gate.gate_kind if self.gate else None):
            return True
        action = self.action
        if isinstance(action, NavigateAction) and sent.navigation and _same(sent.url, action.url):
            return True  # the navigation Waypost started itself, judged before it ran
        done = self.cleared
        if done is None or done in SAFE_MODE_ONLY:
            return False
        return risk is done or risk is Risk.SUBMIT or covered(risk, str(done))

    async def judge(self, sent: SentRequest) -> str | None:
        risk = request_risk(sent.method, sent.url)
        if risk is None or self.covers(risk, sent):
            return None
        after = describe(self.action) if self.action is not None else "the step's first page"
        what = f"{sent.method} {_shown(sent.url)}"
        gate = self.gate
        if gate is not None and blocked(risk, list(gate.blocked_actions)):
            return await self._refuse(after, what, risk, f"{risk} is blocked by gate {gate.gate_id}")
        if self.clear_action is None:
            return await self._refuse(after, what, risk, "nobody can be asked here")
        question = ActionGate(
            step_gate=gate, risk=str(risk), n=self.progress.count, target=after,
            reason=f"after {after}, the page sent {what}: it {would(risk)}; the approval did not cover it",
        )  # fmt: skip
        cleared = await self.clear_action(question)
        if isinstance(cleared, Allowed):
            return None
        because = f"declined by {cleared.by}" if isinstance(cleared, Denied) else "nobody could answer now"
        return await self._refuse(after, what, risk, because)

    async def _refuse(self, after: str, what: str, risk: Risk, because: str) -> str:
        why = f"{what} held after {after}: it {would(risk)}; {because}, so it never left the browser"
        self.progress.refused.append({"action": what, "risk": str(risk), "why": why})
        await self.env.journal.append(Noted(text=why, level="warning", step_id=self.env.step_id))
        return why


def _same(a: str, b: str) -> bool:
    return a.split("#", 1)[0] == b.split("#", 1)[0]


def _shown(url: str) -> str:
    return url if len(url) <= _SHOWN else url[: _SHOWN - 1] + "…"
