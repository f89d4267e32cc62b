"""The rule policy for a step whose goal reads as asks (planner/asks.py): do what was asked, one
ask at a time, on the page as it is.

Each decision serves one ask and says which (`CognitionDecision.ask`, `.phase`), so the history tells
what is done: an ask is done once an action of its own went through, or when the page already shows
its effect (the field holds the value, the box is ticked). Asks are taken in the person's order, but
one whose target is not on this page yet waits while a later one that is can be done (a wizard's
second step, a result that appears after the search). A target that lives somewhere else ("in the
settings dialog") is opened first; when nothing left can be done here, a wizard's Next moves on. A
target that two elements match equally is a question, never a guess; one that is not on the page
ends the step, and the check of effects afterwards says which ask was not met.
"""

from __future__ import annotations

from collections.abc import Sequence

from browser.models import Observation
from planner import grounding as g
from planner.ask_history import chosen_after_search, entries, filled, same_action, served_ok, stuck
from planner.ask_lists import way_to_form
from planner.ask_moves import (
    MAX_ADVANCE,
    AskPerson,
    Done,
    Elsewhere,
    Here,
    Move,
    Moves,
    Stop,
)
from planner.asks import (
    AdvanceAsk,
    AnswerAsk,
    Ask,
    AskList,
    ChangeAsk,
    ChooseAsk,
    DownloadAsk,
    FillAsk,
    OpenAsk,
    PressAsk,
    SearchAsk,
    SortAsk,
    SubmitAsk,
    ToggleAsk,
)
from planner.decisions import CognitionDecision, HistoryEntry
from planner.page_words import none_found


class _Policy(Moves):
    # --- one decision ------------------------------------------------------------------------------

    def decide(self) -> CognitionDecision:
        decision = self._decide()
        return decision.model_copy(update={"observed": self.observed}) if self.observed else decision

    def _decide(self) -> CognitionDecision:
        pending: list[int] = []
        waiting: list[str] = []
        self.observed: list[int] = []
        for i, ask in enumerate(self.asks.asks):
            if self._finished(i, ask):
                continue
            move = self._move(i, ask)
            if isinstance(move, Done):
                self.observed.append(i)
                continue
            if isinstance(move, Stop):
                done = {"kind": "done", "success": False, "summary": move.why}
                return CognitionDecision(decision="answer", confidence=0.3, rationale=move.why,
                                         actions=[done],
                                         answer=move.why, ask=i)  # fmt: skip
            if isinstance(move, AskPerson):
                return CognitionDecision(decision="request_info", confidence=0.3, question=move.question,
                                         rationale=move.question, ask=i)  # fmt: skip
            if isinstance(move, Here) and move.phase == "do" and self._done_before(move):
                self.observed.append(i)  # another hand did it already (an earlier decision, a model)
                continue
            if isinstance(move, Here) and isinstance(ask, SubmitAsk) and pending:
                # a send waits for every ask before it: booking before the direct flight was chosen
                # books something else ("Get deals" was pressed for "book")
                pending.append(i)
                waiting.append(f"the {ask.purpose} was not sent, since not everything before it was done")
                continue
            if isinstance(move, Here):
                return CognitionDecision(decision="act", actions=move.actions, confidence=move.confidence,
                                         rationale=move.why, ask=i, phase=move.phase)  # fmt: skip
            pending.append(i)
            waiting.append(move.why)
        if pending:
            onward = self._advance(pending[0]) or self._to_the_form(pending)
            if onward is not None:
                return onward
        return self._finish(pending, waiting)

    def _done_before(self, move: Here) -> bool:
        """The one action this ask needs already went through on this page, decided by someone else."""
        return all(
            any(h.status == "ok" and h.ask is None and same_action(h.action, a) for h in self.history)
            for a in move.actions
        )

    def _to_the_form(self, pending: list[int]) -> CognitionDecision | None:
        """The fields of a sign-up (a sign-in, an order) are not on this page: follow the link a
        person would ("Sign up" in the nav bar), once."""
        submits = [a.purpose for a in self.asks.asks if isinstance(a, SubmitAsk)]
        purpose = submits[0] if submits else self.asks.sent_later
        if purpose is None or any(h.phase == "to_form" for h in self.history):
            return None
        about = next((a.about for a in self.asks.asks if isinstance(a, SubmitAsk)), self.asks.sent_about)
        link = way_to_form(self.obs, purpose, self.avoid, about)
        if link is None:
            return None
        return CognitionDecision(decision="act", actions=[{"kind": "click", "target": {"index": link.index}}],
                                 confidence=0.8, rationale=f'follow "{link.name}" to its form',
                                 ask=pending[0],
                                 phase="to_form")  # fmt: skip

    def _finished(self, i: int, ask: Ask) -> bool:
        if stuck(self.history, i) or self._sent_later(i):
            return True
        kind = ask.kind
        if isinstance(ask, FillAsk):  # by this policy or another hand (memory's hints): the value went in
            return served_ok(self.history, i, "input") or any(filled(h, ask) for h in self.history)
        if kind == "search":  # run again when a filter of its form was picked on the results
            late = chosen_after_search(self.history, self.asks.asks)
            return served_ok(self.history, i, "run") and late is None
        if kind == "change":
            return served_ok(self.history, i, "confirm")
        if kind == "press" and isinstance(ask, PressAsk) and ask.item:
            return served_ok(self.history, i, "press")
        if kind in ("advance", "answer") or (isinstance(ask, ToggleAsk) and ask.only):
            return False  # decided from the page each time ("only jazz": boxes ticked by default too)
        return served_ok(self.history, i, "do")

    def _sent_later(self, i: int) -> bool:
        """A send after this ask went through: it waited for this ask to be done or seen done (a radio
        chosen by default), so the ask is not looked for again on the page the send led to."""
        later = range(i + 1, len(self.asks.asks))
        return any(isinstance(self.asks.asks[j], SubmitAsk) and served_ok(self.history, j) for j in later)

    def _finish(self, pending: list[int], waiting: list[str]) -> CognitionDecision:
        done = [
            f"pressed the {a.purpose} button" if isinstance(a, SubmitAsk) else a.describe()
            for i, a in enumerate(self.asks.asks)
            if i not in pending and a.kind != "answer"
        ]
        if pending:
            said = none_found(self.obs.text)  # "No flights found ... with no stops": the page's reason first
            summary = "; ".join(dict.fromkeys([*([f'the page says "{said}"'] if said else []), *waiting]))
            success = False
        else:
            summary = "Done: " + "; ".join(done) + "." if done else "Nothing was left to do on the page."
            success = True
        return CognitionDecision(decision="answer", confidence=0.9 if success else 0.3, rationale=summary,
                                 actions=[{"kind": "done", "success": success, "summary": summary}],
                                 answer=summary)  # fmt: skip

    def _advance(self, i: int) -> CognitionDecision | None:
        """Nothing left can be done here: a wizard's Next (never a forbidden control) moves on."""
        if len(entries(self.history, i, "advance")) >= MAX_ADVANCE:
            return None
        move = self._press_next(i)
        if move is None:
            return None
        return CognitionDecision(decision="act", actions=move.actions, confidence=move.confidence,
                                 rationale=move.why, ask=i, phase="advance")  # fmt: skip

    # --- moves per kind ------------------------------------------------------------------------------

    def _move(self, i: int, ask: Ask) -> Move:
        if isinstance(ask, FillAsk):
            return self._reveal_or(i, ask, self._fill(i, ask))
        if isinstance(ask, ToggleAsk):
            return self._reveal_or(i, ask, self._toggle(ask))
        if isinstance(ask, ChooseAsk):
            return self._reveal_or(i, ask, self._choose(ask))
        if isinstance(ask, SearchAsk):
            return self._search(i, ask)
        if isinstance(ask, SortAsk):
            return self._sort(ask)
        if isinstance(ask, OpenAsk):
            return self._reveal_or(i, ask, self._open(ask))
        if isinstance(ask, PressAsk):
            return self._reveal_or(i, ask, self._press(i, ask))
        if isinstance(ask, AdvanceAsk):
            return self._advance_until(i, ask)
        if isinstance(ask, ChangeAsk):
            return self._change(i, ask)
        if isinstance(ask, SubmitAsk):
            return self._submit(ask)
        if isinstance(ask, DownloadAsk):
            pick = g.find_control(self.obs, ask.what or "download", avoid=self.avoid)
            if pick.element is None and ask.what:
                pick = g.find_control(self.obs, "download", avoid=self.avoid)
            if pick.element is None:
                return Elsewhere(pick.why)
            action = {"kind": "download", "target": {"index": pick.element.index}}
            return Here([action], "do", min(0.95, pick.score), f"download from {g.describe(pick.element)}")
        if isinstance(ask, AnswerAsk):
            return self._explore(i, ask)
        raise AssertionError(f"no move for {ask.kind}")  # every kind of ask is handled above


def decide_asks(
    asks: AskList, observation: Observation, history: Sequence[HistoryEntry]
) -> CognitionDecision:
    """The next move toward the asks, or the step's end with what was and was not done."""
    return _Policy(asks, observation, history).decide()
