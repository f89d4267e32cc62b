"""Did each thing the person asked for happen? Read from the page and the network, not from the
cognition's word (docs/architecture.md, "What was asked").

Each ask of a step (planner/asks.py) is checked against the page the step left behind, what the
actions did to it (the history: which element, whether the page changed) and what the site answered
to what they sent. The check grounds the ask again on the final page with the same rules the rule
cognition uses, so a model's cognition is held to the same claims. The result is one sentence per
unmet ask, in the person's words ("the site answered HTTP 500 to the form", "Email does not hold
ada@example.com"); none means every ask was observed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import unquote_plus

from browser.models import Observation
from planner import grounding as g
from planner._text import fold
from planner.ask_history import chosen_after_search
from planner.ask_lists import superlative
from planner.asks import (
    AdvanceAsk,
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
    meaningful_unread,
)
from planner.booking_fields import option_for, same_slot
from planner.decisions import HistoryEntry
from planner.fact_words import number, tables
from planner.only_ticks import also_ticked, picked
from planner.page_words import ERROR_TEXT, complaint, none_found, shows, sort_option
from planner.synonyms import alternatives

_CLICKS = ("click", "press", "check", "select")
#: A line that repeats the query back ("12 results for ...") rather than listing a result.
_ECHO = re.compile(
    r"(?i)\b(?:results?|searched|search(?:ing)? for|showing|matches)\b|kết quả|tìm kiếm|đã tìm"
)


def _ok(history: Sequence[HistoryEntry], kinds: Sequence[str]) -> list[HistoryEntry]:
    return [h for h in history if h.status == "ok" and h.action.get("kind") in kinds]


def _named(h: HistoryEntry) -> str:
    el = h.element or {}
    return str(el.get("name") or el.get("placeholder") or "")


def _matches(h: HistoryEntry, words: str) -> float:
    el = h.element or {}
    context = str(el.get("context") or "")
    return max(
        max(g.words_score(w, _named(h)), g.words_score(w, context) * 0.9)
        for w in alternatives(g.item_words(words))
    )


def _context(h: HistoryEntry) -> str:
    return str((h.element or {}).get("context") or "")


def _changed(h: HistoryEntry) -> bool:
    return bool(h.dom_changed) or (h.url_after is not None and h.url_after != h.url_before)


def _send_problem(h: HistoryEntry) -> str | None:
    """What went wrong with what an action sent: an HTTP error, a failure, or no answer at all."""
    for sent in h.sent:
        status, failure = sent.get("status"), sent.get("failure")
        where = str(sent.get("url") or "").split("?")[0]
        if failure:
            return f"the request to {where} failed ({failure})"
        if status is None:
            return f"the site never answered the request to {where}"
        if int(status) >= 400:
            return f"the site answered HTTP {status} to the request to {where}"
    return None


class AskCheck:
    """Checks one step's asks against the final page `obs` (and its full text) and the history."""

    def __init__(
        self,
        asks: AskList,
        obs: Observation,
        text: str,
        history: Sequence[HistoryEntry],
        *,
        observed: set[int] | None = None,
    ) -> None:
        self.asks = asks
        self.obs = obs
        self.text = text
        self.history = history
        #: Asks the page showed done before it was left (a radio already chosen on the sent form).
        self.observed = observed or set()

    def unmet(self) -> list[str]:
        out = []
        for i, ask in enumerate(self.asks.asks):
            why = self.check(ask)
            if why is not None and not (i in self.observed and self._left_in_order()):
                out.append(why)
        out += [
            f'I did not do "{part}": I could not tell what it asks for'
            for part in meaningful_unread(self.asks)
        ]
        out += self._forbidden()
        out += [f"{_named(h) or h.action.get('kind')} was refused: {h.message}" for h in self.history
                if h.status == "blocked" and h.message and not any(h.message in o for o in out)]  # fmt: skip
        out += [p for h in _ok(self.history, _CLICKS)
                if (p := self._send_problem(h)) is not None and not any(p in o for o in out)]  # fmt: skip
        said = none_found(self.obs.text) if out else None
        if said and not any(said in o for o in out):  # the page's own reason goes first, once
            out.insert(0, f'the page says "{said}"')
        return list(dict.fromkeys(out))

    def check(self, ask: Ask) -> str | None:
        if isinstance(ask, FillAsk):
            return self._fill(ask)
        if isinstance(ask, ToggleAsk):
            return self._toggle(ask)
        if isinstance(ask, ChooseAsk):
            return self._choose(ask)
        if isinstance(ask, SearchAsk):
            return self._search(ask)
        if isinstance(ask, SortAsk):
            return self._sort(ask)
        if isinstance(ask, OpenAsk):
            return self._clicked(ask.what, f"{ask.what} was never opened")
        if isinstance(ask, PressAsk):
            return self._press(ask)
        if isinstance(ask, AdvanceAsk):
            return None if shows(self.obs, ask.until) else f"the {ask.until} step is not shown"
        if isinstance(ask, ChangeAsk):
            found = ask.value.lower() in self.text.lower()
            return None if found else f'the page does not show "{ask.value}" after trying to {ask.verb} it'
        if isinstance(ask, SubmitAsk):
            return self._submit(ask)
        if isinstance(ask, DownloadAsk):
            got = _ok(self.history, ("download",))
            return None if got else f"{ask.describe()} did not happen: no file was downloaded"
        return None  # answers are checked where the answer is written

    # --- per kind --------------------------------------------------------------------------------

    def _fill(self, ask: FillAsk) -> str | None:
        typed = [h for h in _ok(self.history, ("fill", "select")) if _same_value(h, ask.value)]
        # read back in the form it was typed into (a footer's newsletter "Your email" is another field)
        form = typed[-1].element.get("form") if typed and typed[-1].element else None
        pick = g.find_field(self.obs, ask.field, ask.value, form=form)
        el = pick.element
        if el is not None:
            if el.value_hidden:
                return None if typed else f"nothing was typed into {ask.field}"
            shown = (el.value or "").strip()
            if _value_is(shown, ask.value) or (el.options and shown == _option(ask.value, el.options)):
                return None
            if not typed and el.options and _option(ask.value, el.options) is None:  # "9pm", the last is 7:30
                offers = ", ".join(el.options[:8])
                return f'{el.name or ask.field} has no option for "{ask.value}" (it offers {offers})'
            if not typed or not self._sent_after(typed[-1]):
                return (
                    f'{el.name or ask.field} holds "{shown}", not "{ask.value}"'
                    if shown
                    else (f'{el.name or ask.field} is empty; "{ask.value}" was not entered')
                )
        if typed and (self._sent_after(typed[-1]) or (el is None and self._left_page(typed[-1]))):
            return None  # typed, then the form was sent: the field is gone with its page
        return f'no field for {ask.field} holds "{ask.value}"'

    def _toggle(self, ask: ToggleAsk) -> str | None:
        pick = g.find_toggle(self.obs, ask.what)
        state = "on" if ask.on else "off"
        if pick.element is not None and pick.element.checked is not None:
            if pick.element.checked != ask.on:
                return f"{pick.element.name or ask.what} is not {state}"
            extra = also_ticked(self.obs, pick.element, picked(self.asks)) if ask.only else []
            if extra:
                return f"only {ask.what} was asked for, but {', '.join(e.name for e in extra)} is ticked too"
            return None
        done = [h for h in _ok(self.history, ("check", "click")) if _matches(h, ask.what) >= g.MATCH]
        if done and done[-1].action.get("checked", True) == ask.on:
            return None
        return f"{ask.what} was not turned {state}"

    def _choose(self, ask: ChooseAsk) -> str | None:
        if chosen_after_search(self.history, self.asks.asks) is not None:
            return f"{ask.option} was chosen after the search ran, and the search was not run again with it"
        if superlative(
            ask.option
        ):  # a row picked by its numbers: its picker was pressed and the page moved on
            picked = [
                h for h in _ok(self.history, ("click",)) if _context(h) and _changed(h) and h.phase == "do"
            ]
            return None if picked else f"the {ask.option} was not chosen: {self._listing()}"
        selected = g.find_select(self.obs, ask.option, ask.among)
        if selected is not None:  # the select shows what it holds: that decides, not what was sent to it
            el, option = selected
            if el.value and g.words_score(option, el.value) >= 0.99:
                return None
            return f'"{option}" is not chosen in {g.describe(el)}: it shows "{el.value or "nothing"}"'
        pick = g.find_option(self.obs, ask.option, ask.among)
        if pick.element is not None and pick.element.checked:
            return None
        done = [h for h in _ok(self.history, ("check", "click", "select")) if _matches(h,
                                                                                       ask.option) >= g.MATCH
                or g.words_score(ask.option, str(h.action.get("value") or "")) >= g.MATCH]  # fmt: skip
        if done and (done[-1].action.get("kind") != "click" or _changed(done[-1])):
            return None
        return f"{ask.option} was not chosen: {self._listing()}"

    def _listing(self) -> str:
        """What the page offers instead, in its own rows' words (a person reads them to see why)."""
        rows = list(dict.fromkeys(e.context for e in self.obs.elements if e.context and g.pressable(e)))[:3]
        return "the page lists " + "; ".join(rows) if rows else "nothing on the page offers it"

    def _search(self, ask: SearchAsk) -> str | None:
        if ask.fields:
            return self._searched_for(ask)
        query = ask.query.lower()
        if query not in unquote_plus(self.obs.url).lower():
            fills = _ok(self.history, ("fill",))
            typed = [h for h in fills if str(h.action.get("value") or "").lower() == query]
            if not typed:
                return f'"{ask.query}" was never typed into a search box'
            after = self.history[self.history.index(typed[-1]) + 1 :]
            if not [h for h in _ok(after, ("click", "press")) if _changed(h)]:
                return f'the search for "{ask.query}" was never run (no results appeared)'
        empty = none_found(self.text)  # a search that ran and found nothing did not find what was wanted
        if empty:
            return f'the search for "{ask.query}" found nothing: the page says "{empty}"'
        unseen = self._unshown_words(ask.query)
        if unseen:
            return f'the results of the search for "{ask.query}" never mention {", ".join(unseen)}'
        return None

    def _unshown_words(self, query: str) -> list[str]:
        """The query's words that no result shows: a site that lists anything for a query it did not
        match (or a query holding more than the subject) has not found what was asked. The page's echo
        of the whole query ("Results for ...", "Bạn đã tìm: ...") is not a result."""
        lines = [
            line
            for line in self.text.splitlines()
            if not (query.lower() in line.lower() and _ECHO.search(line))
        ]
        shown = set(g.tokens("\n".join(lines)))
        missing = set(g.tokens(query)) - shown
        return [f'"{w}"' for w in query.split() if missing.intersection(g.tokens(w))]

    def _searched_for(self, ask: SearchAsk) -> str | None:
        """A search with parts is done when the results' address or page shows each part."""
        shown = fold(unquote_plus(self.obs.url) + "\n" + self.text).lower()
        missing = [f"{k} {v}" for k, v in ask.fields.items() if not _shown_value(v, shown)]
        if not missing:
            return None
        return "the search was not run for " + ", ".join(missing)

    def _sort(self, ask: SortAsk) -> str | None:
        for el in self.obs.elements:
            option = (
                sort_option(el.options, ask) if el.options and g.name_score("sort", el) >= g.MATCH else None
            )
            if option is not None:
                return None if el.value == option else f'the list is not sorted by {ask.column} ("{option}")'

        for table in tables(self.text):
            col = table.column(ask.column)
            if col is None:
                continue
            values = [number(r[col]) for r in table.rows if col < len(r)]
            if any(v is None for v in values) or len(values) < 2:
                values_text = [r[col].lower() for r in table.rows if col < len(r)]
                ordered = values_text == sorted(values_text, reverse=ask.descending)
            else:
                nums = [v for v in values if v is not None]
                ordered = nums == sorted(nums, reverse=ask.descending)
            if ordered:
                return None
            return f"the {table.header[col]} column is not in order"
        clicked = [
            h for h in _ok(self.history, ("click",)) if _matches(h, ask.column) >= g.MATCH and _changed(h)
        ]
        return None if clicked else f"the table was not sorted by {ask.column}"

    def _clicked(self, words: str, otherwise: str) -> str | None:
        done = [h for h in _ok(self.history, ("click", "press")) if _matches(h, words) >= g.MATCH]
        if not done:
            return otherwise
        if not any(_changed(h) for h in done):
            return f"nothing changed on the page after clicking {_named(done[-1]) or words}"
        return None

    def _press(self, ask: PressAsk) -> str | None:
        done = [h for h in _ok(self.history, ("click", "press")) if _matches(h, ask.what) >= g.MATCH
                or ask.what.lower() in _named(h).lower()]  # fmt: skip
        if ask.item:
            opened = any(
                _matches(h, ask.item) >= g.MATCH
                and g.covers(g.item_words(ask.item), f"{_named(h)} {_context(h)}")
                for h in _ok(self.history, ("click",))
            )
            done = [h for h in done if opened or _matches(h, ask.item) >= g.MATCH]
        if not done:
            what = f'"{ask.what}" for {ask.item}' if ask.item else f'"{ask.what}"'
            return f"I could not find {what} on the page, so it was not done"
        if not any(_changed(h) or h.sent for h in done):
            return f"nothing changed on the page after pressing {_named(done[-1]) or ask.what}"
        return _send_problem(done[-1])

    def _submit(self, ask: SubmitAsk) -> str | None:
        sent = self._sent(ask)
        if sent is not None or not ask.about:
            return sent
        # "sign me up for the pottery class": the form pressed (its heading, its row) or the page the
        # site answered with names it; the newsletter's "Sign up" beside it is another send
        last = [h for h in _ok(self.history, ("click", "press")) if _is_control(h)][-1]
        heading = str((last.element or {}).get("heading") or "")
        shown = f"{_named(last)} {_context(last)} {heading} {self.obs.title} {self.text}"
        if g.words_score(g.item_words(ask.about), shown) >= g.MATCH:
            return None
        return f'the page does not show that what was sent was for "{ask.about}"'

    def _sent(self, ask: SubmitAsk) -> str | None:
        pressed = [h for h in _ok(self.history, ("click", "press")) if _is_control(h)]
        if not pressed:
            refused = [
                h
                for h in self.history
                if h.status == "blocked" and h.action.get("kind") in ("click", "press")
            ]
            why = f": {refused[-1].message}" if refused and refused[-1].message else ""
            if ask.about and not why:  # the policy stopped before a form that is not for it
                why = f' (no form on the page says it is for "{ask.about}")'
            return f"the form was never sent: the {ask.purpose} button was never pressed{why}"
        last = pressed[-1]
        problem = self._send_problem(last)
        if problem is not None:
            return f"the form was not accepted: {problem}"
        if any(s.get("status") is not None for s in last.sent):
            return None
        if not _changed(last):
            return f"nothing was sent: the page did not change after pressing {_named(last) or 'the button'}"
        error = ERROR_TEXT.search(self.obs.text)
        if error and ask.purpose in ("login", "signup", "send"):
            line = next((ln for ln in self.obs.text.splitlines() if error.group(0) in ln), error.group(0))
            return f'the site shows an error after sending: "{line.strip()[:120]}"'
        if ask.purpose == "login" and any(
            e.input_type == "password" and e.visible for e in self.obs.elements
        ):
            return "the sign-in form is still shown after pressing the sign-in button"
        return None

    def _forbidden(self) -> list[str]:
        out = []
        if any(fold(w).startswith("open") for w in self.asks.forbidden):
            items = [a.item for a in self.asks.asks if isinstance(a, PressAsk) and a.item]
            for h in _ok(self.history, ("click",)):
                if any(g.words_score(g.item_words(item), _named(h)) >= g.MATCH for item in items):
                    out.append(f'"{_named(h)}" was opened although you said not to open it')
        for h in _ok(self.history, ("click", "press")):
            name = _named(h).lower()
            for word in self.asks.forbidden:
                if word and re.search(rf"(?<![a-z]){re.escape(word.lower())}(?![a-z])", name):
                    out.append(f'"{_named(h)}" was pressed although you said not to {word}')
        return out

    def _left_in_order(self) -> bool:
        """The page that showed an ask done was left by a send the site accepted (nothing failed)."""
        sends = [s for h in _ok(self.history, _CLICKS) for s in h.sent]
        return bool(sends) and all(s.get("status") is not None and int(s["status"]) < 400 for s in sends)

    def _send_problem(self, h: HistoryEntry) -> str | None:
        """What went wrong with what `h` sent, with the page's own sentence about it when it says one."""
        problem = _send_problem(h)
        said = complaint(self.obs.text) if problem else None
        return f'{problem}; the page says "{said}"' if said else problem

    def _sent_after(self, h: HistoryEntry) -> bool:
        after = self.history[self.history.index(h) + 1 :] if h in self.history else []
        return any(s.get("status") is not None and int(s["status"]) < 400 for x in after for s in x.sent)

    def _left_page(self, h: HistoryEntry) -> bool:
        after = self.history[self.history.index(h) + 1 :] if h in self.history else []
        return any(_changed(x) for x in after)


def _shown_value(value: str, shown: str) -> bool:
    """A searched value is shown: as typed, or its words (a date also as written out by the site)."""
    folded = fold(value).lower()
    if folded in shown:
        return True
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return value in shown
    words = g.tokens(value)
    return bool(words) and all(w in shown for w in words)


def _same_value(h: HistoryEntry, value: str) -> bool:
    typed = h.action.get("value")
    if isinstance(typed, str) and h.action.get("kind") == "select":  # "4 people" picked for "4"
        return typed == _option(value, [typed])
    return isinstance(typed, str) and (_value_is(typed, value) or g.words_score(value, typed) >= 0.99)


def _option(value: str, options: Sequence[str]) -> str | None:
    """The option a list offers for `value` ("7:00 PM" for "19:00", "4 people" for "4"), if any."""
    option = option_for(value, options, g.words_score)
    return (
        option
        if option is not None and (same_slot(value, option) or g.words_score(value, option) >= g.MATCH)
        else None
    )


def _value_is(shown: str, value: str) -> bool:
    a, b = " ".join(shown.lower().split()), " ".join(value.lower().split())
    return a == b or (bool(a) and g.words_score(b, a) >= 0.99) or same_slot(a, b)


def _is_control(h: HistoryEntry) -> bool:
    el = h.element or {}
    return (
        el.get("tag") in ("button", "input")
        or el.get("role") in ("button", None)
        or h.action.get("kind") == "press"
    )
