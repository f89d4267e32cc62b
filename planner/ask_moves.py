"""The moves of the rule policy for asks (planner/ask_cognition.py), one per kind of ask: what to do
on this page for a fill, a tick, a choice, a search, a sort, an open, a press, a wizard step, a
change, a send, or a question; or that the target is elsewhere, or that a person must choose."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from browser.models import ElementInfo, Observation
from planner import grounding as g
from planner.ask_history import entries, served_ok, stuck
from planner.ask_lists import best_row, nth_item, superlative
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
from planner.booking_fields import option_for, same_slot
from planner.decisions import HistoryEntry
from planner.facts import find_fact
from planner.only_ticks import also_ticked, picked
from planner.page_words import shows, sort_option
from planner.slots import date_value, long_date

#: At most this many presses of Next while looking for a step's targets or its "until" step.
MAX_ADVANCE = 5


#: At most this many items opened while looking for an answer that is not on the page.
MAX_EXPLORE = 2


_INPUT = ("fill", "select", "check")


#: A trip search's parts, as search forms label them.
_TRIP_FIELDS = {"from": ("from", "origin", "leaving from", "departure airport"), "to": ("to", "destination",
                                                                                        "going to"),
                "date": ("departure date", "depart", "date"), "passengers": ("passengers", "travellers",
                                                                             "adults"),
                "class": ("class", "cabin", "travel class", "cabin class")}  # fmt: skip


_NEXT_WORDS = ("next", "continue", "tiếp", "tiếp tục", "next step", "forward")


@dataclass(frozen=True)
class Here:
    """A move for one ask on this page."""

    actions: list[dict[str, Any]]
    phase: str
    confidence: float
    why: str


@dataclass(frozen=True)
class Done:
    """The page already shows the ask's effect: nothing to do for it."""


@dataclass(frozen=True)
class Elsewhere:
    """The ask's target is not on this page (yet)."""

    why: str


@dataclass(frozen=True)
class Stop:
    """What was asked cannot be had on this site (no plan meets the needs): stop before acting on."""

    why: str


@dataclass(frozen=True)
class AskPerson:
    """Two or more elements match equally: a person must say which."""

    question: str


Move = Here | Done | Elsewhere | AskPerson | Stop


def _click(el: ElementInfo) -> dict[str, Any]:
    return {"kind": "click", "target": {"index": el.index}}


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


_SENDING = ("submit", "send", "delete", "remove", "buy", "pay", "sign up", "log out", "logout")


_QUESTION_WORDS = re.compile(
    r"(?i)\b(?:when|what|which|who|whom|whose|where|how|many|much|does|do|is|are|was|were|the|a|an|"
    r"takes?\s+place|happen(?:s|ing)?|tell|me|shown|show|shows|on|of|in)\b"
)


def _topic(question: str) -> str:
    """The words of a question that name its subject ("team offsite")."""
    return " ".join(_QUESTION_WORDS.sub(" ", question).split()) or question


class Moves:
    """What each kind of ask does on the page `obs`, given the step's `history`; `avoid` holds the
    words the person forbade."""

    def __init__(self, asks: AskList, obs: Observation, history: Sequence[HistoryEntry]) -> None:
        self.asks = asks
        self.obs = obs
        self.history = history
        self.avoid = list(asks.forbidden)

    def _press_next(self, i: int) -> Here | None:
        for word in _NEXT_WORDS:
            pick = g.find_control(self.obs, word, avoid=self.avoid)
            if pick.element is not None and pick.score >= 0.85:
                return Here([_click(pick.element)], "advance", 0.8, f'press "{pick.element.name}" to go on')
        return None

    def _reveal_or(self, i: int, ask: Ask, move: Move) -> Move:
        """A target not in view that lives somewhere named ("the settings dialog"): open that first."""
        if not isinstance(move, Elsewhere) or not ask.where or served_ok(self.history, i, "reveal"):
            return move
        if stuck(self.history, i):
            return move
        pick = g.find_control(self.obs, ask.where, avoid=self.avoid)
        if pick.element is None:
            pick = g.find_item(self.obs, ask.where, avoid=self.avoid)
        if pick.element is None:
            return move
        return Here(
            [_click(pick.element)], "reveal", min(0.9, pick.score), f'open "{pick.element.name}" first'
        )

    def _fill(self, i: int, ask: FillAsk) -> Move:
        form, _ = _working_form(self.history)
        pick = g.find_field(self.obs, ask.field, ask.value, form=form)
        if ask.where and ask.field == "quantity":  # "add 2 of the blue mugs": the quantity in that item's row
            rows = [(g.words_score(ask.where, e.context), e) for e in self.obs.elements if g.fillable(e)]
            row = g.choose(((s + 0.3 * g.field_score("quantity", e), e) for s, e in rows), "a quantity")
            pick = row if row.ok else pick
        if pick.element is None:
            return (
                AskPerson(pick.why)
                if len(pick.candidates) > 1 and pick.score >= g.MATCH
                else Elsewhere(pick.why)
            )
        el, value = pick.element, ask.value
        iso = date_value(value) or long_date(value)
        if el.input_type == "date" and iso is None:
            return Stop(f'{g.describe(el)} takes a date, and "{value}" is not one')
        value = iso if el.input_type == "date" and iso else value
        if el.value is not None and not el.value_hidden and el.value.strip() == value.strip():
            return Done()
        if el.tag == "select" or el.options:
            option = option_for(value, el.options, g.words_score)
            if option is None or (g.words_score(value, option) < g.MATCH and not same_slot(value, option)):
                return Elsewhere(
                    f'"{el.name}" has no option "{value}" (it offers {", ".join(el.options[:6])})'
                )
            if el.value == option:
                return Done()
            action = {"kind": "select", "target": {"index": el.index}, "value": option}
        else:
            action = {"kind": "fill", "target": {"index": el.index}, "value": value}
        return Here([action], "input", min(0.95, pick.score), f"fill {g.describe(el)} for {ask.field}")

    def _toggle(self, ask: ToggleAsk) -> Move:
        pick = g.find_toggle(self.obs, ask.what)
        if pick.element is None:
            return (
                AskPerson(pick.why)
                if len(pick.candidates) > 1 and pick.score >= g.MATCH
                else Elsewhere(pick.why)
            )
        el = pick.element
        if el.checked is not None and el.checked == ask.on:
            extra = also_ticked(self.obs, el, picked(self.asks)) if ask.only else []
            if extra:  # "only jazz nights": a box the page ticked by default is unticked
                action = {"kind": "check", "target": {"index": extra[0].index}, "checked": False}
                return Here(
                    [action], "do", 0.9, f"turn off {g.describe(extra[0])} (only {ask.what} was asked)"
                )
            return Done()
        if el.input_type in ("checkbox", "radio"):
            action = {"kind": "check", "target": {"index": el.index}, "checked": ask.on}
        else:
            action = _click(el)
        return Here(
            [action], "do", min(0.95, pick.score), f"turn {'on' if ask.on else 'off'} {g.describe(el)}"
        )

    def _choose(self, ask: ChooseAsk) -> Move:
        if superlative(ask.option):  # "the cheapest flight": the page's numbers decide, not the names
            row = best_row(self.obs, f"{ask.option} {ask.among}")
            if row is None:
                return Elsewhere(f"no list of options here to find the {ask.option} in")
            return Here([_click(row)], "do", 0.9, f"choose {g.describe(row)}, the {superlative(ask.option)}")
        selected = g.find_select(self.obs, ask.option, ask.among)
        if selected is not None:
            el, option = selected
            if el.value and g.words_score(option, el.value) >= 0.99:
                return Done()
            chosen = {"kind": "select", "target": {"index": el.index}, "value": option}
            return Here([chosen], "do", 0.9, f'choose "{option}" in {g.describe(el)}')
        pick = g.find_option(self.obs, ask.option, ask.among)
        if pick.element is None:
            return (
                AskPerson(pick.why)
                if len(pick.candidates) > 1 and pick.score >= g.MATCH
                else Elsewhere(pick.why)
            )
        el = pick.element
        if el.checked:
            return Done()
        action: dict[str, Any] = _click(el)
        if el.input_type == "radio":
            action = {"kind": "check", "target": {"index": el.index}, "checked": True}
        return Here([action], "do", min(0.95, pick.score), f"choose {g.describe(el)}")

    def _search_form(self, i: int, ask: SearchAsk) -> Move | None:
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
            return Here([action], "input", 0.9, f"fill {g.describe(el)} with {key} {value}")
        button = g.find_control(self.obs, "search", avoid=self.avoid)
        if button.element is None:
            return Elsewhere(button.why)
        return Here([_click(button.element)], "run", 0.9, f'press "{button.element.name}" to search')

    def _search(self, i: int, ask: SearchAsk) -> Move:
        if ask.fields:
            move = self._search_form(i, ask)
            if move is not None:
                return move
        box = g.find_search(self.obs)
        if box.element is None:
            opener = g.find_control(self.obs, "search", avoid=self.avoid)
            if opener.element is not None and not served_ok(self.history, i, "reveal"):
                return Here([_click(opener.element)], "reveal", 0.8, "open the search box")
            return Elsewhere(f'no search box on the page to search for "{ask.query}"')
        el = box.element
        if not served_ok(self.history, i, "input") or (el.value or "").strip() != ask.query:
            action = {"kind": "fill", "target": {"index": el.index}, "value": ask.query}
            return Here([action], "input", 0.9, f'type "{ask.query}" into {g.describe(el)}')
        button = g.find_search_button(self.obs, el)
        if button is not None:
            return Here([_click(button)], "run", 0.9, f'press "{button.name}" to search')
        press = {"kind": "press", "key": "Enter", "target": {"index": el.index}}
        return Here([press], "run", 0.85, "press Enter in the search box")

    def _pressing(self, pick: g.Pick, what: str) -> Move:
        if pick.element is None:
            return (
                AskPerson(pick.why)
                if len(pick.candidates) > 1 and pick.score >= g.MATCH
                else Elsewhere(pick.why)
            )
        return Here(
            [_click(pick.element)], "do", min(0.95, pick.score), f"{what}: {g.describe(pick.element)}"
        )

    def _sort(self, ask: SortAsk) -> Move:
        """A "Sort by" select with an option for the column and the direction, else the column's header."""
        for el in self.obs.elements:
            if not (el.visible and el.enabled and el.options) or g.name_score("sort", el) < g.MATCH:
                continue
            option = sort_option(el.options, ask)
            if option is not None:
                if el.value == option:
                    return Done()
                action = {"kind": "select", "target": {"index": el.index}, "value": option}
                return Here([action], "do", 0.9, f'choose "{option}" in {g.describe(el)}')
        pick = g.find_control(
            self.obs, ask.column, prefer=("button", "columnheader", "link"), avoid=self.avoid
        )
        return self._pressing(pick, f"sort by {ask.column}")

    def _open(self, ask: OpenAsk) -> Move:
        ordinal = nth_item(self.obs, ask.what)
        if ordinal is not None:  # "the first result": its place in the page's list
            return Here([_click(ordinal)], "do", 0.85, f"open {g.describe(ordinal)}")
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

    def _press(self, i: int, ask: PressAsk) -> Move:
        if ask.what.lower() in _NEXT_WORDS:
            move = self._press_next(i)
            return (
                Here(move.actions, "do", move.confidence, move.why) if move else Elsewhere("no Next button")
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
            return Elsewhere(
                in_row.why if in_row.element is None else f"no {ask.what} control in the row of {ask.item}"
            )
        if not served_ok(self.history, i, "open"):
            item = g.find_item(self.obs, ask.item, avoid=self.avoid)
            if item.element is None:
                return (
                    AskPerson(item.why)
                    if len(item.candidates) > 1 and item.score >= g.MATCH
                    else Elsewhere(item.why)
                )
            return Here(
                [_click(item.element)], "open", min(0.9, item.score), f"open {g.describe(item.element)}"
            )
        pick = g.find_control(self.obs, ask.what, avoid=self.avoid)
        return self._phase(self._pressing(pick, f"{ask.what} {ask.item}"), "press")

    @staticmethod
    def _phase(move: Move, phase: str) -> Move:
        return Here(move.actions, phase, move.confidence, move.why) if isinstance(move, Here) else move

    def _advance_until(self, i: int, ask: AdvanceAsk) -> Move:
        if shows(self.obs, ask.until):
            return Done()
        if len(entries(self.history, i, "advance")) >= MAX_ADVANCE:
            return Elsewhere(f"the {ask.until} step never showed")
        move = self._press_next(i)
        return move if move is not None else Elsewhere(f"no way on to the {ask.until} step")

    def _change(self, i: int, ask: ChangeAsk) -> Move:
        if served_ok(self.history, i, "input"):
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
            return Here([action], "input", 0.85, f'type "{ask.value}" into {g.describe(el)}')
        if served_ok(self.history, i, "reveal"):
            return Elsewhere(f"no field to {ask.verb} {ask.what} after opening its control")
        opener = g.find_control(self.obs, f"{ask.verb} {ask.what}".strip(), avoid=self.avoid)
        if opener.element is None:
            opener = g.find_control(self.obs, ask.verb, avoid=self.avoid)
        if opener.element is None:
            return Elsewhere(opener.why)
        return Here(
            [_click(opener.element)], "reveal", min(0.9, opener.score), f"open {g.describe(opener.element)}"
        )

    def _submit(self, ask: SubmitAsk) -> Move:
        form, last = _working_form(self.history)
        if form is None:  # filled by an earlier step: the form whose fields hold values
            form, last = g.filled_form(self.obs)
        pick = g.find_submit(self.obs, ask.purpose, form=form, after=last, avoid=self.avoid)
        if ask.about and pick.element is not None and not _for_it(self.obs, pick.element, ask.about):
            return Stop(f'no form on this page says it is for "{ask.about}", so none was sent')
        return self._pressing(pick, ask.describe())

    def _explore(self, i: int, ask: AnswerAsk) -> Move:
        """The answer on this page ends the step; otherwise the item the question names is opened. An
        answer that says the site cannot give what was asked (no plan meets the needs) stops the step
        before anything that depended on it is done."""
        fact = find_fact(ask.question, ask.expects, self.obs.text)
        if fact is not None:
            return Done() if fact.satisfied else Stop(fact.because or fact.value)
        if len(entries(self.history, i, "explore")) >= MAX_EXPLORE:
            return Done()
        clicked = {(h.element or {}).get("name") for h in entries(self.history, i, "explore")}
        pick = g.find_item(self.obs, _topic(ask.question), avoid=[*self.avoid, *_SENDING])
        if pick.element is None or pick.element.name in clicked or pick.score < 0.65:
            return Done()
        return Here(
            [_click(pick.element)], "explore", 0.7, f"open {g.describe(pick.element)} to find the answer"
        )


def _for_it(obs: Observation, button: ElementInfo, about: str) -> bool:
    """ "Sign me up for the pottery class": the form's own words (its heading, its row, its button)
    say so; with one form on the page, the page's title and text may. The newsletter's form beside
    the class's is never sent for the class, nor the class's for a yoga class the page never names."""
    own = f"{button.name} {button.context} {button.heading}"
    forms = {e.form for e in obs.elements if e.form is not None}
    shown = own if len(forms) > 1 else f"{own} {obs.title} {obs.text}"
    return g.words_score(g.item_words(about), shown) >= g.MATCH
