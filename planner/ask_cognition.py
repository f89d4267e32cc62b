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

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from browser.models import ElementInfo, Observation
from planner import grounding as g
from planner.asks import (
    AdvanceAsk,
    AnswerAsk,
    Ask,
    AskList,
    ChangeAsk,
    ChooseAsk,
    FillAsk,
    OpenAsk,
    PressAsk,
    SearchAsk,
    SortAsk,
    SubmitAsk,
    ToggleAsk,
)
from planner.decisions import CognitionDecision, HistoryEntry
from planner.facts import find_fact
from planner.slots import date_value

#: At most this many presses of Next while looking for a step's targets or its "until" step.
MAX_ADVANCE = 5
#: At most this many items opened while looking for an answer that is not on the page.
MAX_EXPLORE = 2
_INPUT = ("fill", "select", "check")
#: A trip search's parts, as search forms label them.
_TRIP_FIELDS = {"from": ("from", "origin", "leaving from", "departure airport"), "to": ("to", "destination", "going to"),
                "date": ("departure date", "depart", "date"), "passengers": ("passengers", "travellers", "adults")}  # fmt: skip
_NEXT_WORDS = ("next", "continue", "tiếp", "tiếp tục", "next step", "forward")


@dataclass(frozen=True)
class _Here:
    """A move for one ask on this page."""

    actions: list[dict[str, Any]]
    phase: str
    confidence: float
    why: str


@dataclass(frozen=True)
class _Done:
    """The page already shows the ask's effect: nothing to do for it."""


@dataclass(frozen=True)
class _Elsewhere:
    """The ask's target is not on this page (yet)."""

    why: str


@dataclass(frozen=True)
class _Stop:
    """What was asked cannot be had on this site (no plan meets the needs): stop before acting on."""

    why: str


@dataclass(frozen=True)
class _Ask:
    """Two or more elements match equally: a person must say which."""

    question: str


_Move = _Here | _Done | _Elsewhere | _Ask | _Stop


def _click(el: ElementInfo) -> dict[str, Any]:
    return {"kind": "click", "target": {"index": el.index}}


def _entries(history: Sequence[HistoryEntry], i: int, phase: str | None = None) -> list[HistoryEntry]:
    return [h for h in history if h.ask == i and (phase is None or h.phase == phase)]


def _ok(history: Sequence[HistoryEntry], i: int, phase: str | None = None) -> bool:
    return any(h.status == "ok" for h in _entries(history, i, phase))


def _stuck(history: Sequence[HistoryEntry], i: int) -> bool:
    """Two attempts for one ask that did not go through: trying again would meet the same page."""
    return sum(1 for h in _entries(history, i) if h.status != "ok") >= 2


def _filled(h: HistoryEntry, ask: FillAsk) -> bool:
    """An input that went through with the ask's value into a field named like the ask's field."""
    if (
        h.status != "ok"
        or h.action.get("kind") not in ("fill", "select")
        or h.action.get("value") != ask.value
    ):
        return False
    name = str((h.element or {}).get("name") or "")
    return max((g.words_score(s, name) for s in g.synonyms(ask.field)), default=0.0) >= g.MATCH


def _best_field(obs: Observation, names: Sequence[str], value: str) -> g.Pick:
    """The field any of `names` finds with the best score."""
    picks = [g.find_field(obs, n, value) for n in names]
    found = [p for p in picks if p.element is not None]
    return max(found, key=lambda p: p.score) if found else picks[0]


def _working_form(history: Sequence[HistoryEntry]) -> tuple[int | None, int | None]:
    """(form number, element index) of the last input that went through: the form being worked on."""
    for h in reversed(history):
        if h.status == "ok" and h.action.get("kind") in _INPUT and h.element:
            return h.element.get("form"), h.element.get("index")
    return None, None


class _Policy:
    def __init__(self, asks: AskList, obs: Observation, history: Sequence[HistoryEntry]) -> None:
        self.asks = asks
        self.obs = obs
        self.history = history
        self.avoid = list(asks.forbidden)

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
            if isinstance(move, _Done):
                self.observed.append(i)
                continue
            if isinstance(move, _Stop):
                done = {"kind": "done", "success": False, "summary": move.why}
                return CognitionDecision(decision="answer", confidence=0.3, rationale=move.why, actions=[done],
                                         answer=move.why, ask=i)  # fmt: skip
            if isinstance(move, _Ask):
                return CognitionDecision(decision="request_info", confidence=0.3, question=move.question,
                                         rationale=move.question, ask=i)  # fmt: skip
            if isinstance(move, _Here):
                return CognitionDecision(decision="act", actions=move.actions, confidence=move.confidence,
                                         rationale=move.why, ask=i, phase=move.phase)  # fmt: skip
            pending.append(i)
            waiting.append(move.why)
        if pending:
            onward = self._advance(pending[0])
            if onward is not None:
                return onward
        return self._finish(pending, waiting)

    def _finished(self, i: int, ask: Ask) -> bool:
        if _stuck(self.history, i):
            return True
        kind = ask.kind
        if isinstance(ask, FillAsk):  # by this policy or another hand (memory's hints): the value went in
            return _ok(self.history, i, "input") or any(_filled(h, ask) for h in self.history)
        if kind == "search":
            return _ok(self.history, i, "run")
        if kind == "change":
            return _ok(self.history, i, "confirm")
        if kind == "press" and isinstance(ask, PressAsk) and ask.item:
            return _ok(self.history, i, "press")
        if kind in ("advance", "answer"):
            return False  # decided from the page each time
        return _ok(self.history, i, "do")

    def _finish(self, pending: list[int], waiting: list[str]) -> CognitionDecision:
        done = [a.describe() for i, a in enumerate(self.asks.asks) if i not in pending and a.kind != "answer"]
        if pending:
            summary = "; ".join(dict.fromkeys(waiting))
            success = False
        else:
            summary = "did: " + "; ".join(done) if done else "nothing to do on the page"
            success = True
        return CognitionDecision(decision="answer", confidence=0.9 if success else 0.3, rationale=summary,
                                 actions=[{"kind": "done", "success": success, "summary": summary}],
                                 answer=summary)  # fmt: skip

    def _advance(self, i: int) -> CognitionDecision | None:
        """Nothing left can be done here: a wizard's Next (never a forbidden control) moves on."""
        if len(_entries(self.history, i, "advance")) >= MAX_ADVANCE:
            return None
        move = self._press_next(i)
        if move is None:
            return None
        return CognitionDecision(decision="act", actions=move.actions, confidence=move.confidence,
                                 rationale=move.why, ask=i, phase="advance")  # fmt: skip

    def _press_next(self, i: int) -> _Here | None:
        for word in _NEXT_WORDS:
            pick = g.find_control(self.obs, word, avoid=self.avoid)
            if pick.element is not None and pick.score >= 0.85:
                return _Here([_click(pick.element)], "advance", 0.8, f'press "{pick.element.name}" to go on')
        return None

    # --- moves per kind ------------------------------------------------------------------------------

    def _move(self, i: int, ask: Ask) -> _Move:
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
        if isinstance(ask, AnswerAsk):
            return self._explore(i, ask)
        return _Elsewhere(f"cannot {ask.describe()}")  # pragma: no cover - every kind is handled

    def _reveal_or(self, i: int, ask: Ask, move: _Move) -> _Move:
        """A target not in view that lives somewhere named ("the settings dialog"): open that first."""
        if not isinstance(move, _Elsewhere) or not ask.where or _ok(self.history, i, "reveal"):
            return move
        if _stuck(self.history, i):
            return move
        pick = g.find_control(self.obs, ask.where, avoid=self.avoid)
        if pick.element is None:
            pick = g.find_item(self.obs, ask.where, avoid=self.avoid)
        if pick.element is None:
            return move
        return _Here(
            [_click(pick.element)], "reveal", min(0.9, pick.score), f'open "{pick.element.name}" first'
        )

    def _fill(self, i: int, ask: FillAsk) -> _Move:
        form, _ = _working_form(self.history)
        pick = g.find_field(self.obs, ask.field, ask.value, form=form)
        if ask.where and ask.field == "quantity":  # "add 2 of the blue mugs": the quantity in that item's row
            rows = [(g.words_score(ask.where, e.context), e) for e in self.obs.elements if g.fillable(e)]
            row = g.choose(((s + 0.3 * g.field_score("quantity", e), e) for s, e in rows), "a quantity")
            pick = row if row.ok else pick
        if pick.element is None:
            return (
                _Ask(pick.why) if len(pick.candidates) > 1 and pick.score >= g.MATCH else _Elsewhere(pick.why)
            )
        el = pick.element
        value = ask.value
        if el.input_type == "date":
            value = date_value(value) or value
        if el.value is not None and not el.value_hidden and el.value.strip() == value.strip():
            return _Done()
        if el.tag == "select" or el.options:
            option = max(el.options, key=lambda o: g.words_score(value, o), default=value)
            if el.value == option:
                return _Done()
            if g.words_score(value, option) < g.MATCH:
                return _Elsewhere(
                    f'"{el.name}" has no option "{value}" (it offers {", ".join(el.options[:6])})'
                )
            action = {"kind": "select", "target": {"index": el.index}, "value": option}
        else:
            action = {"kind": "fill", "target": {"index": el.index}, "value": value}
        return _Here([action], "input", min(0.95, pick.score), f"fill {g.describe(el)} for {ask.field}")

    def _toggle(self, ask: ToggleAsk) -> _Move:
        pick = g.find_toggle(self.obs, ask.what)
        if pick.element is None:
            return (
                _Ask(pick.why) if len(pick.candidates) > 1 and pick.score >= g.MATCH else _Elsewhere(pick.why)
            )
        el = pick.element
        if el.checked is not None and el.checked == ask.on:
            return _Done()
        if el.input_type in ("checkbox", "radio"):
            action = {"kind": "check", "target": {"index": el.index}, "checked": ask.on}
        else:
            action = _click(el)
        return _Here(
            [action], "do", min(0.95, pick.score), f"turn {'on' if ask.on else 'off'} {g.describe(el)}"
        )

    def _choose(self, ask: ChooseAsk) -> _Move:
        selected = g.find_select(self.obs, ask.option, ask.among)
        if selected is not None:
            el, option = selected
            if el.value and g.words_score(option, el.value) >= 0.99:
                return _Done()
            action = {"kind": "select", "target": {"index": el.index}, "value": option}
            return _Here([action], "do", 0.9, f'choose "{option}" in {g.describe(el)}')
        pick = g.find_option(self.obs, ask.option, ask.among)
        if pick.element is None:
            return (
                _Ask(pick.why) if len(pick.candidates) > 1 and pick.score >= g.MATCH else _Elsewhere(pick.why)
            )
        el = pick.element
        if el.checked:
            return _Done()
        if el.input_type == "radio":
            action = {"kind": "check", "target": {"index": el.index}, "checked": True}
        else:
            action = _click(el)
        return _Here([action], "do", min(0.95, pick.score), f"choose {g.describe(el)}")

    def _search_form(self, i: int, ask: SearchAsk) -> _Move | None:
        """A search form that asks for each part (from, to, date, passengers): fill each, then run it."""
        picks = {
            key: _best_field(self.obs, _TRIP_FIELDS.get(key, (key,)), value)
            for key, value in ask.fields.items()
        }
        if not all(p.element is not None for p in picks.values()):
            return None
        for key, value in ask.fields.items():
            el = picks[key].element
            assert el is not None
            option = (
                max(el.options, key=lambda o: g.words_score(value, o), default=value) if el.options else value
            )
            if el.value is not None and (el.value == option or g.words_score(value, el.value) >= 0.99):
                continue
            if el.tag == "select" or el.options:
                action = {"kind": "select", "target": {"index": el.index}, "value": option}
            else:
                action = {"kind": "fill", "target": {"index": el.index}, "value": value}
            return _Here([action], "input", 0.9, f"fill {g.describe(el)} with {key} {value}")
        button = g.find_control(self.obs, "search", avoid=self.avoid)
        if button.element is None:
            return _Elsewhere(button.why)
        return _Here([_click(button.element)], "run", 0.9, f'press "{button.element.name}" to search')

    def _search(self, i: int, ask: SearchAsk) -> _Move:
        if ask.fields:
            move = self._search_form(i, ask)
            if move is not None:
                return move
        box = g.find_search(self.obs)
        if box.element is None:
            opener = g.find_control(self.obs, "search", avoid=self.avoid)
            if opener.element is not None and not _ok(self.history, i, "reveal"):
                return _Here([_click(opener.element)], "reveal", 0.8, "open the search box")
            return _Elsewhere(f'no search box on the page to search for "{ask.query}"')
        el = box.element
        if not _ok(self.history, i, "input") or (el.value or "").strip() != ask.query:
            if (el.value or "").strip() != ask.query or not _ok(self.history, i, "input"):
                action = {"kind": "fill", "target": {"index": el.index}, "value": ask.query}
                return _Here([action], "input", 0.9, f'type "{ask.query}" into {g.describe(el)}')
        button = g.find_search_button(self.obs, el)
        if button is not None:
            return _Here([_click(button)], "run", 0.9, f'press "{button.name}" to search')
        press = {"kind": "press", "key": "Enter", "target": {"index": el.index}}
        return _Here([press], "run", 0.85, "press Enter in the search box")

    def _pressing(self, pick: g.Pick, what: str) -> _Move:
        if pick.element is None:
            return (
                _Ask(pick.why) if len(pick.candidates) > 1 and pick.score >= g.MATCH else _Elsewhere(pick.why)
            )
        return _Here(
            [_click(pick.element)], "do", min(0.95, pick.score), f"{what}: {g.describe(pick.element)}"
        )

    def _sort(self, ask: SortAsk) -> _Move:
        """A "Sort by" select with an option for the column and the direction, else the column's header."""
        for el in self.obs.elements:
            if not (el.visible and el.enabled and el.options) or g.name_score("sort", el) < g.MATCH:
                continue
            option = sort_option(el.options, ask)
            if option is not None:
                if el.value == option:
                    return _Done()
                action = {"kind": "select", "target": {"index": el.index}, "value": option}
                return _Here([action], "do", 0.9, f'choose "{option}" in {g.describe(el)}')
        pick = g.find_control(
            self.obs, ask.column, prefer=("button", "columnheader", "link"), avoid=self.avoid
        )
        return self._pressing(pick, f"sort by {ask.column}")

    def _open(self, ask: OpenAsk) -> _Move:
        kind_words = set(g.tokens(ask.what)) & set(g.KIND_WORDS)
        pick = (
            g.find_control(self.obs, ask.what, avoid=self.avoid)
            if kind_words
            else g.find_item(self.obs, ask.what, avoid=self.avoid)
        )
        if pick.element is None and not pick.candidates[1:]:
            other = (
                g.find_item(self.obs, ask.what, avoid=self.avoid)
                if kind_words
                else g.find_control(self.obs, ask.what, avoid=self.avoid)
            )
            pick = other if other.element is not None else pick
        return self._pressing(pick, f"open {ask.what}")

    def _press(self, i: int, ask: PressAsk) -> _Move:
        if ask.what.lower() in _NEXT_WORDS:
            move = self._press_next(i)
            return (
                _Here(move.actions, "do", move.confidence, move.why) if move else _Elsewhere("no Next button")
            )
        if not ask.item:
            return self._pressing(g.find_control(self.obs, ask.what, avoid=self.avoid), f"press {ask.what}")
        in_row = g.find_control(self.obs, ask.what, item=ask.item, avoid=self.avoid)
        if (
            in_row.element is not None
            and g.words_score(g.item_words(ask.item), in_row.element.context) >= g.MATCH
        ):
            return self._phase(self._pressing(in_row, f"{ask.what} {ask.item}"), "press")
        if "open" in self.avoid:  # "star it but don't open it": only the control in its row will do
            return _Elsewhere(
                in_row.why if in_row.element is None else f"no {ask.what} control in the row of {ask.item}"
            )
        if not _ok(self.history, i, "open"):
            item = g.find_item(self.obs, ask.item, avoid=self.avoid)
            if item.element is None:
                return (
                    _Ask(item.why)
                    if len(item.candidates) > 1 and item.score >= g.MATCH
                    else _Elsewhere(item.why)
                )
            return _Here(
                [_click(item.element)], "open", min(0.9, item.score), f"open {g.describe(item.element)}"
            )
        pick = g.find_control(self.obs, ask.what, avoid=self.avoid)
        return self._phase(self._pressing(pick, f"{ask.what} {ask.item}"), "press")

    @staticmethod
    def _phase(move: _Move, phase: str) -> _Move:
        return _Here(move.actions, phase, move.confidence, move.why) if isinstance(move, _Here) else move

    def _advance_until(self, i: int, ask: AdvanceAsk) -> _Move:
        if shows(self.obs, ask.until):
            return _Done()
        if len(_entries(self.history, i, "advance")) >= MAX_ADVANCE:
            return _Elsewhere(f"the {ask.until} step never showed")
        move = self._press_next(i)
        return move if move is not None else _Elsewhere(f"no way on to the {ask.until} step")

    def _change(self, i: int, ask: ChangeAsk) -> _Move:
        if _ok(self.history, i, "input"):
            pick = g.find_control(self.obs, ask.verb, avoid=self.avoid, prefer=("button",))
            if pick.element is None or pick.element.area != "dialog":
                for word in ("save", "ok", "apply", "done", "confirm", "update"):
                    other = g.find_control(self.obs, word, avoid=self.avoid)
                    if other.element is not None and other.score >= 0.85:
                        pick = other
                        break
            return self._phase(self._pressing(pick, f"{ask.verb} to {ask.value}"), "confirm")
        field_words = "name" if ask.verb.lower() in ("rename", "đổi tên") else ask.what or ask.verb
        fields = [e for e in self.obs.elements if g.fillable(e)]
        dialog = [e for e in fields if e.area == "dialog"]
        pick = g.find_field(self.obs, field_words, ask.value)
        el = pick.element or (dialog[0] if len(dialog) == 1 else None)
        if el is not None:
            action = {"kind": "fill", "target": {"index": el.index}, "value": ask.value}
            return _Here([action], "input", 0.85, f'type "{ask.value}" into {g.describe(el)}')
        if _ok(self.history, i, "reveal"):
            return _Elsewhere(f"no field to {ask.verb} {ask.what} after opening its control")
        opener = g.find_control(self.obs, f"{ask.verb} {ask.what}".strip(), avoid=self.avoid)
        if opener.element is None:
            opener = g.find_control(self.obs, ask.verb, avoid=self.avoid)
        if opener.element is None:
            return _Elsewhere(opener.why)
        return _Here(
            [_click(opener.element)], "reveal", min(0.9, opener.score), f"open {g.describe(opener.element)}"
        )

    def _submit(self, ask: SubmitAsk) -> _Move:
        form, last = _working_form(self.history)
        pick = g.find_submit(self.obs, ask.purpose, form=form, after=last, avoid=self.avoid)
        return self._pressing(pick, ask.describe())

    def _explore(self, i: int, ask: AnswerAsk) -> _Move:
        """The answer on this page ends the step; otherwise the item the question names is opened. An
        answer that says the site cannot give what was asked (no plan meets the needs) stops the step
        before anything that depended on it is done."""
        fact = find_fact(ask.question, ask.expects, self.obs.text)
        if fact is not None:
            return _Done() if fact.satisfied else _Stop(fact.because or fact.value)
        if len(_entries(self.history, i, "explore")) >= MAX_EXPLORE:
            return _Done()
        clicked = {(h.element or {}).get("name") for h in _entries(self.history, i, "explore")}
        pick = g.find_item(self.obs, _topic(ask.question), avoid=[*self.avoid, *_SENDING])
        if pick.element is None or pick.element.name in clicked or pick.score < 0.65:
            return _Done()
        return _Here(
            [_click(pick.element)], "explore", 0.7, f"open {g.describe(pick.element)} to find the answer"
        )


_SENDING = ("submit", "send", "delete", "remove", "buy", "pay", "sign up", "log out", "logout")
_QUESTION_WORDS = re.compile(
    r"(?i)\b(?:when|what|which|who|whom|whose|where|how|many|much|does|do|is|are|was|were|the|a|an|"
    r"takes?\s+place|happen(?:s|ing)?|tell|me|shown|show|shows|on|of|in)\b"
)


def _topic(question: str) -> str:
    """The words of a question that name its subject ("team offsite")."""
    return " ".join(_QUESTION_WORDS.sub(" ", question).split()) or question


_DESC_WORDS = re.compile(r"(?i)high(?:est)?\s*(?:to|-|→)\s*low|descending|most expensive|newest|z\s*-\s*a")


#: Sort options that name a column's order without naming the column ("Cheapest first").
_ORDER_WORDS = {
    "price": (("cheapest", "lowest price", "price low"), ("most expensive", "highest price", "price high")),
    "time": (("earliest",), ("latest",)), "date": (("oldest",), ("newest", "latest")),
    "duration": (("fastest", "shortest"), ("longest",)), "rating": (("lowest rated",), ("best rated", "rating")),
}  # fmt: skip


def sort_option(options: Sequence[str], ask: SortAsk) -> str | None:
    """The option of a "Sort by" list for the column in the asked direction ("Price: low to high",
    "Cheapest first")."""
    words = _ORDER_WORDS.get(g.tokens(ask.column)[0] if g.tokens(ask.column) else "", ((), ()))
    ordered = [o for o in options for w in words[1 if ask.descending else 0] if w in o.lower()]
    if ordered:
        return ordered[0]
    fitting = [o for o in options if g.words_score(ask.column, o) >= 0.45]
    same_way = [o for o in fitting if bool(_DESC_WORDS.search(o)) == ask.descending]
    return (same_way or fitting or [None])[0]


def shows(obs: Observation, words: str) -> bool:
    """The visible page text holds every word of `words` on one line."""
    wanted = g.tokens(words)
    return (
        any(all(w in g.tokens(line) for w in wanted) for line in obs.text.splitlines()) if wanted else False
    )


def decide_asks(
    asks: AskList, observation: Observation, history: Sequence[HistoryEntry]
) -> CognitionDecision:
    """The next move toward the asks, or the step's end with what was and was not done."""
    return _Policy(asks, observation, history).decide()
