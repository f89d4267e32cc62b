"""The closed loop for one act step: observe -> decide -> act -> record -> feed back
(docs/architecture.md, "The ACT loop").

An explicit action list runs as written (the list is the decision); a goal with a payload asks the
cognition for each next batch. Every action passes the per-action safety check (executor/act/risk.py)
and the loop guards, and leaves an ActionRecord. A navigation in the middle of a decided batch drops
the rest of the batch and the loop observes again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from browser.models import (
    Action,
    NavigateAction,
    Observation,
    OutcomeStatus,
    Target,
    parse_action,
)
from common.words import plural
from executor.act.aftermath import FollowUps, one_at_a_time
from executor.act.clearance import ActionClearance, describe, step_gate_ref
from executor.act.fsm import LoopFSM, LoopState
from executor.act.guards import ActStopped, LoopGuard, LoopLimits
from executor.act.in_flight import decide_repeat, note_taken_back
from executor.act.intent import Intent, take_back
from executor.act.outcomes import page_change, stop_on_unmet, transient
from executor.act.perform import ActEnv, Performed, capture_before, perform
from executor.act.progress import StepProgress
from executor.journal.run_journal import Noted
from executor.models import GateDecisionV1, PendingUserInput
from executor.tools.boundary import ActionClearer, StepAwaitsPerson
from planner.asks import AskList
from planner.decisions import Cognition, CognitionDecision, HistoryEntry

_INPUTS = {"fill", "select", "check"}
_OBSERVE_FOR = {"click", "press"}
_MAX_EXTRACT = 8_000


@dataclass(kw_only=True)
class LoopSpec:
    goal: str = ""
    payload: dict[str, str] = field(default_factory=dict)
    url: str | None = None
    actions: list[Action] | None = None
    #: What the plan says this step was asked to do (planner/asks.py); None: read from the goal.
    asks: AskList | None = None


@dataclass(kw_only=True)
class LoopResult:
    summary: str
    success: bool = True
    fsm_path: list[str] = field(default_factory=list)


class ActLoop:
    def __init__(
        self,
        env: ActEnv,
        spec: LoopSpec,
        *,
        gate: GateDecisionV1 | None,
        progress: StepProgress,
        limits: LoopLimits | None = None,
        cognition: Cognition | None = None,
        clear_action: ActionClearer | None = None,
        safe_mode: bool = True,
        home: frozenset[str] = frozenset(),
        in_flight: Intent | None = None,
    ) -> None:
        self.env = env
        self.spec = spec
        self.gate = gate
        self.progress = progress
        self.limits = limits or LoopLimits()
        self.cognition = cognition
        # an action's question and a held request's never overlap
        self.clear_action = one_at_a_time(clear_action)
        self.fsm = LoopFSM()
        self.guard = LoopGuard(self.limits)
        self._refused_keys: set[tuple[str, str]] = set()
        #: An action a stopped run had sent without its outcome being saved (resume only).
        self.in_flight = in_flight
        self.clearance = ActionClearance(
            env=env,
            gate=gate,
            progress=progress,
            fsm=self.fsm,
            limits=self.limits,
            clear_action=self.clear_action,
            safe_mode=safe_mode,
            home=home,
            start_url=spec.url,
        )
        #: Judges what the page sends in answer to each action (executor/act/aftermath.py).
        self.followups = FollowUps(env=env, gate=gate, progress=progress, clear_action=self.clear_action)

    # --- the two drivers of the loop ---------------------------------------------------------

    async def run(self) -> LoopResult:
        self.fsm.to(LoopState.COLLECTING)
        try:
            undecided = await self._take_back()
            await self._restore()
            if undecided is not None:
                clear = self.clear_action
                await decide_repeat(self.env, undecided, self.progress, clear_action=clear, gate=self.gate)
            if self.spec.actions is not None:
                result = await self._run_list(self.spec.actions)
            else:
                result = await self._run_goal()
        except ActStopped as stop:
            self.fsm.to(LoopState.FAILED, stop.code)
            stop.outputs = {**self.outputs(), "fsm": [str(s) for s in self.fsm.path]}
            raise
        result.fsm_path = [str(s) for s in self.fsm.path]
        return result

    async def _run_list(self, actions: Sequence[Action]) -> LoopResult:
        await self._open_start_url()
        while self.progress.done < len(actions):
            action = actions[self.progress.done]
            observation = await self._observe() if _needs_observation(action) else None
            await self._decided(action, observation)  # an explicit list has decided already
            self.progress.done += 1
            stop_on_unmet(self.progress.history[-1:])
        self.fsm.to(LoopState.DONE)
        return LoopResult(summary=f"ran {plural(len(actions), 'listed action')}")

    async def _run_goal(self) -> LoopResult:
        assert self.cognition is not None
        await self._open_start_url()
        noops = 0
        while True:
            observation = await self._observe()
            if self.progress.decisions >= self.limits.max_decisions:
                raise ActStopped(
                    f"{self.progress.decisions} decisions without finishing", code="max_decisions"
                )
            self.fsm.to(LoopState.ORGANIZING)
            history = [HistoryEntry.model_validate(h) for h in self.progress.history]
            self.fsm.to(LoopState.THINKING)
            decision = await self.cognition.decide(self.spec.goal, self.spec.payload, observation, history)
            self.progress.decisions += 1
            if decision.observed:
                self.progress.observed = sorted({*self.progress.observed, *decision.observed})
            await self._note_fallback(decision)
            finished = await self._route(decision, observation)
            if finished is not None:
                return finished
            noops = noops + 1 if decision.decision == "noop" or not decision.actions else 0
            if noops >= self.limits.max_noops:
                raise ActStopped(f"{noops} decisions in a row changed nothing", code="no_progress")

    async def _open_start_url(self) -> None:
        if self.spec.url and self.progress.count == 0:
            await self._decided(NavigateAction(url=self.spec.url), None)
            stop_on_unmet(self.progress.history[-1:])

    async def _decided(self, action: Action, observation: Observation | None) -> None:
        if self.fsm.state is not LoopState.COLLECTING:
            self.fsm.to(LoopState.COLLECTING)
        self.fsm.to(LoopState.ORGANIZING)
        self.fsm.to(LoopState.THINKING)
        self.fsm.to(LoopState.EXECUTING)
        await self._act(action, observation, confidence=1.0)
        self.fsm.to(LoopState.COLLECTING)

    async def _route(self, decision: CognitionDecision, observation: Observation) -> LoopResult | None:
        """The decision routes the loop; None means observe again."""
        if decision.decision == "reject":
            raise ActStopped(f"cognition refused: {decision.rationale}", code="cognition_rejected")
        if decision.decision == "request_info":
            self.fsm.to(LoopState.WAITING)
            question = decision.question or decision.rationale or "More information is needed."
            pending = PendingUserInput(kind="CLARIFICATION", message=question, question=question,
                                       step_id=self.env.step_id)  # fmt: skip
            raise StepAwaitsPerson(pending, self.progress.as_outputs())
        if decision.decision == "noop" or not decision.actions:
            if decision.decision == "answer":
                self.fsm.to(LoopState.DONE)
                return LoopResult(summary=decision.answer or decision.rationale)
            self.fsm.to(LoopState.WAITING)
            self.fsm.to(LoopState.COLLECTING)
            return None
        self.fsm.to(LoopState.EXECUTING)
        served = {"ask": decision.ask, "phase": decision.phase}
        for data in decision.actions:
            action = parse_action(data)
            if action.kind == "done":
                self.fsm.to(LoopState.DONE)
                return LoopResult(summary=action.summary or decision.rationale, success=action.success)
            performed = await self._act(action, observation, confidence=decision.confidence, served=served)
            if performed is not None and performed.navigated:
                break  # the rest of the batch was meant for a page that is gone
        self.fsm.to(LoopState.COLLECTING)
        return None

    # --- one action ------------------------------------------------------------------------------

    async def _act(
        self,
        action: Action,
        observation: Observation | None,
        *,
        confidence: float,
        served: dict[str, Any] | None = None,
    ) -> Performed | None:
        before = await capture_before(self.env)
        dumped = action.model_dump(mode="json", exclude_none=True)
        key = (before.dom_hash, repr(sorted(dumped.items())))
        if key in self._refused_keys:
            raise ActStopped(
                f"{describe(action)} was refused, and was decided again on the same page",
                code="refused_repeated",
            )
        self.guard.before(
            self.progress.count, before.dom_hash, dumped, detect_loops=self.spec.actions is None
        )
        self.progress.count += 1
        gate_ref = step_gate_ref(self.gate)
        judged = await self.clearance.judge(action, observation)
        risk = judged.risk
        if risk is not None:
            gate_ref = await self.clearance.clear(action, judged, confidence, before)
            if gate_ref is None:
                self._refused_keys.add(key)
                kept = {k: v for k, v in (served or {}).items() if v not in (None, "")}
                self.progress.history[-1].update(kept)  # the refusal counts against the ask it served
                return None
        self.followups.acting(action, risk)
        performed: Performed | None = None
        for attempt in range(self.limits.max_retries + 1):
            performed = await perform(self.env, action, gate_ref, before)
            self.progress.performed += 1
            if not transient(performed.outcome, action, risky=risk is not None):
                break
            if attempt == self.limits.max_retries:
                break
            fresh = await self._observe_quietly()  # stale or missing: look again, then retry
            action = _remap(action, observation, fresh)
            observation = fresh
            before = await capture_before(self.env)
            self.progress.count += 1
        assert performed is not None
        self._remember(performed, {**(served or {}), "element": acted_on(action, observation, performed)})
        await self.clearance.check_after(performed, judged)
        self.guard.after(performed.outcome.ok or performed.outcome.status is OutcomeStatus.BLOCKED,
                         performed.outcome.message)  # fmt: skip
        return performed

    def _remember(self, performed: Performed, served: dict[str, Any]) -> None:
        outcome, action = performed.outcome, performed.action
        dumped = action.model_dump(mode="json", exclude_none=True)
        kept = {k: v for k, v in served.items() if v not in (None, "")}
        self.progress.history.append({"action": dumped, "status": str(outcome.status),
                                      "message": outcome.message, "candidates": outcome.candidates,
                                      **kept, **page_change(performed)})  # fmt: skip
        self.progress.url = performed.after.url
        if performed.navigated:
            self.progress.inputs = []
        if outcome.ok and action.kind in _INPUTS:
            stable = _stable_target(
                dumped.get("target"), outcome.resolved.selector if outcome.resolved else None
            )
            if stable is not None:
                self.progress.inputs.append({**dumped, "target": stable})
                asked = dumped.get("target") or {}
                label = (outcome.resolved.name if outcome.resolved else None) or next(
                    (asked[k] for k in ("label", "name", "placeholder", "text") if asked.get(k)), None
                )
                self.progress.facts.append(
                    {
                        "value": dumped.get("value"),
                        "target": stable,
                        "label": label,
                        "kind": action.kind,
                        "checked": dumped.get("checked", True),
                    }
                )
        if outcome.status is OutcomeStatus.BLOCKED:  # refused by the browser layer's own guards
            self.progress.refused.append(
                {"action": describe(action), "risk": "browser_guard", "why": outcome.message}
            )
        if outcome.ok and action.kind == "extract" and outcome.value is not None:
            self.progress.extracted.append(outcome.value[:_MAX_EXTRACT])
        if outcome.ok and outcome.download is not None:
            self.progress.downloads.append(outcome.download.model_dump(mode="json"))

    # --- helpers ---------------------------------------------------------------------------------

    async def _observe(self) -> Observation:
        if self.fsm.state is not LoopState.COLLECTING:
            self.fsm.to(LoopState.COLLECTING)
        return await self.env.driver.observe()

    async def _observe_quietly(self) -> Observation:
        return await self.env.driver.observe()

    async def _take_back(self) -> Intent | None:
        """Settles an action left in flight without repeating it; returns it if only a person can."""
        intent, self.in_flight = self.in_flight, None
        if intent is None:
            return None
        if take_back(self.progress, intent):
            return intent
        await note_taken_back(self.env, intent)
        if intent.listed and intent.outcome is not None:
            stop_on_unmet(self.progress.history[-1:])  # it ended badly: what followed needed it
        return None

    async def _restore(self) -> None:
        """A resumed step on a fresh browser: back to its page, with the inputs made there re-applied."""
        url = self.progress.url
        if not url or self.progress.count == 0 or self.env.driver.url not in ("", "about:blank"):
            return
        text = (
            f"resumed on a fresh browser: reopening {url} and re-applying "
            f"{plural(len(self.progress.inputs), 'input')}; no click or other action is repeated"
        )
        await self.env.journal.append(Noted(text=text, step_id=self.env.step_id))
        for data in [{"kind": "navigate", "url": url}, *self.progress.inputs]:
            before = await capture_before(self.env)
            self.followups.acting(parse_action(data), None)
            await perform(self.env, parse_action(data), step_gate_ref(self.gate), before, journaled=False)

    async def _note_fallback(self, decision: CognitionDecision) -> None:
        if decision.rationale.startswith("LLM_FALLBACK:"):
            self.progress.fallbacks += 1
            reason = decision.rationale.split(";")[0].removeprefix("LLM_FALLBACK:")
            self.progress.fallback_reason = reason
            self.progress.fallback_reasons[reason] = self.progress.fallback_reasons.get(reason, 0) + 1
            text = f"model could not decide ({reason}); the rule cognition decided instead"
            await self.env.journal.append(Noted(text=text, level="warning", step_id=self.env.step_id))

    def outputs(self) -> dict[str, Any]:
        p = self.progress
        return {
            "actions_recorded": p.count,
            "ui_actions": p.performed,
            "final_url": p.url,
            "refused": p.refused,
            "surprises": p.surprises,
            "unknown_outcomes": p.unknown,
            "downloads": p.downloads,
            "extracted": p.extracted,
            "cognition": {
                "decisions": p.decisions,
                "fallbacks": p.fallbacks,
                "fallback_reason": p.fallback_reason,
                "fallback_reasons": p.fallback_reasons,
            },
        }


def acted_on(action: Action, observation: Observation | None, performed: Performed) -> dict[str, Any] | None:
    """The element an action meant, as it was observed (name, role, form, row) or as it resolved: what
    the receipts and the check of effects name it by."""
    target: Target | None = getattr(action, "target", None)
    if target is None:
        return None
    if target.index is not None and observation is not None:
        seen = next((e for e in observation.elements if e.index == target.index), None)
        if seen is not None:
            return seen.model_dump(mode="json", include=_ELEMENT_FACTS)
    resolved = performed.outcome.resolved
    if resolved is not None:
        return {"name": resolved.name or "", "role": resolved.role}
    return None


_ELEMENT_FACTS = {
    "index",
    "tag",
    "role",
    "name",
    "input_type",
    "placeholder",
    "context",
    "form",
    "area",
    "href",
    "heading",
}


def _needs_observation(action: Action) -> bool:
    target: Target | None = getattr(action, "target", None)
    return action.kind in _OBSERVE_FOR or (target is not None and target.index is not None)


def _remap(action: Action, old: Observation | None, new: Observation) -> Action:
    """An index from an old observation, moved to the same element (role + name) in the new one."""
    target: Target | None = getattr(action, "target", None)
    if target is None or target.index is None or old is None:
        return action
    was = next((e for e in old.elements if e.index == target.index), None)
    if was is None:
        return action
    now = next(
        (e for e in new.elements if e.name == was.name and (e.role, e.tag) == (was.role, was.tag)), None
    )
    if now is None:
        return action
    return action.model_copy(update={"target": Target(index=now.index)})


def _stable_target(target: Any, selector: str | None) -> dict[str, Any] | None:
    """A target that still means the same element on a reloaded page (never an observation index)."""
    if isinstance(target, dict) and "index" not in target:
        return target
    return {"selector": selector} if selector else None
