"""Clearing one action of an ACT step by what it does (docs/architecture.md, "Risk by effect").

Before an action: judge it from the element's own facts, and decide the approval it runs under (the
step's, its own from the gate desk, or none: it is refused and recorded). After a click that
navigated: report a landing riskier than judged, and in safe mode stop the step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from browser.driver import FactsAware
from browser.models import Action, NavigateAction, Observation, Target
from executor.act.effects import Judgement, judge, probed_target, surprise, would
from executor.act.fsm import LoopFSM, LoopState
from executor.act.guards import ActStopped, LoopLimits
from executor.act.perform import ActEnv, Performed, refuse
from executor.act.progress import StepProgress
from executor.act.risk import SAFE_MODE_ONLY, Risk, blocked, covered
from executor.gates.desk import ActionGate, Allowed, Cleared, Denied, unanswered
from executor.gates.look import look_at_action
from executor.journal.run_journal import Noted
from executor.models import GateDecisionV1
from executor.tools.boundary import ActionClearer, StepAwaitsPerson
from receipts.models import GateRef


def describe(action: Action) -> str:
    """How receipts, questions and notes name an action: its kind and its target."""
    target: Target | None = getattr(action, "target", None)
    return f"{action.kind} {target.describe()}" if target is not None else action.kind


def step_gate_ref(gate: GateDecisionV1 | None) -> GateRef | None:
    """The step's own approval, as the receipts name it (None: the step has no gate)."""
    if gate is None:
        return None
    return GateRef(gate_id=gate.gate_id, scope="step", decided_by=gate.decided_by or "policy",
                   decision=str(gate.decision))  # fmt: skip


@dataclass(kw_only=True)
class ActionClearance:
    """One step's clearance desk for its actions; shares the loop's progress and state machine."""

    env: ActEnv
    gate: GateDecisionV1 | None
    progress: StepProgress
    fsm: LoopFSM
    limits: LoopLimits
    clear_action: ActionClearer | None
    safe_mode: bool
    #: The task's own origins: leaving them asks first in safe mode.
    home: frozenset[str]
    #: The step's own start page: the plan's, not a page's wish, so opening it asks nothing.
    start_url: str | None

    async def judge(self, action: Action, observation: Observation | None) -> Judgement:
        """What the action does, from the element's own facts when the driver can read them."""
        if isinstance(action, NavigateAction) and action.url == self.start_url:
            return Judgement(None, "opens the step's own page")
        facts = None
        probed = probed_target(action)
        if probed is not None and isinstance(self.env.driver, FactsAware):
            facts = await self.env.driver.click_facts(probed)
        judged = judge(action, observation, facts, home=self.home, page_url=self.env.driver.url)
        if judged.risk in SAFE_MODE_ONLY and not self.safe_mode:
            return Judgement(None, judged.does)
        return judged

    async def check_after(self, performed: Performed, judged: Judgement) -> None:
        """A click that landed somewhere riskier than judged is reported; in safe mode the step stops."""
        if not performed.navigated or performed.action.kind == "navigate":
            return
        gate_kind = self.gate.gate_kind if self.gate else None
        why = surprise(judged, performed.after.url, self.home, gate_kind)
        if why is None:
            return
        why = f"{describe(performed.action)} {why}"
        self.progress.surprises.append({"action": describe(performed.action), "url": performed.after.url,
                                        "why": why})  # fmt: skip
        await self.env.journal.append(Noted(text=why, level="warning", step_id=self.env.step_id))
        if self.safe_mode:
            raise ActStopped(f"{why}; the step stops here", code="riskier_than_judged")

    async def clear(
        self, action: Action, judged: Judgement, confidence: float, before: Any
    ) -> GateRef | None:
        """The approval a risky action runs under, or None when it must not run (it is recorded)."""
        risk = judged.risk
        assert risk is not None
        gate = self.gate
        blocked_actions = list(gate.blocked_actions) if gate else []
        if blocked(risk, blocked_actions):
            why = f"{risk} is blocked by gate {gate.gate_id if gate else '-'}; it never runs"
            await self.refused(action, before, why, risk)
            return None
        low = confidence < self.limits.low_confidence
        if not low and gate is not None and covered(risk, gate.gate_kind):
            return step_gate_ref(gate)
        self.fsm.to(LoopState.WAITING)
        question = ActionGate(
            step_gate=gate, risk=str(risk), n=self.progress.count, target=describe(action),
            reason=(f"low confidence ({confidence:.2f}) on a {risk} action" if low else
                    f"this action {would(risk)}: it {judged.does}; the step's approval does not cover it"),
        )  # fmt: skip
        cleared: Cleared | None = None
        if self.clear_action is not None:
            name = f"{self.env.step_id}-action-{self.progress.count}"
            env = self.env
            recorded = env.recorder.recorded_shot
            shot = await look_at_action(env.driver, env.run_id, env.run_dir, name, action, recorded)
            waiting = partial(self.progress.as_outputs, count=self.progress.count - 1)
            question = replace(question, screenshot_path=shot, progress=waiting)
            cleared = await self.clear_action(question)
        if not isinstance(cleared, Allowed | Denied):
            pending = cleared.pending if cleared is not None else unanswered(question, self.env.step_id)
            self.progress.count -= 1  # not done: it runs (under the same gate id) after the answer
            raise StepAwaitsPerson(pending, self.progress.as_outputs())
        self.fsm.to(LoopState.EXECUTING)
        if isinstance(cleared, Denied):
            await self.refused(action, before, f"{risk} declined by {cleared.by}", risk)
            return None
        by = cleared.approval.decided_by if cleared.approval else "policy"
        return GateRef(gate_id=cleared.decision.gate_id, scope="step", decided_by=by, decision="ALLOW")

    async def refused(self, action: Action, before: Any, why: str, risk: Risk) -> None:
        await refuse(self.env, action, before, why, step_gate_ref(self.gate))
        self.progress.refused.append({"action": describe(action), "risk": str(risk), "why": why})
        self.progress.history.append({"action": action.model_dump(mode="json", exclude_none=True),
                                      "status": "blocked", "message": why})  # fmt: skip
