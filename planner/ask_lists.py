"""Choosing from a list the way a person reads it: "the cheapest flight", "the fastest one", "the
first result". The rows are the page's own (each control's row text, `ElementInfo.context`): their
prices, times and durations decide, never the order a page would like (docs/architecture.md, "What
was asked")."""

from __future__ import annotations

import re
from collections.abc import Callable

from browser.models import ElementInfo, Observation
from planner import grounding as g
from planner.fact_words import MONEY, TIME, number

_SUPERLATIVE = re.compile(
    r"(?i)\b(?P<word>cheapest|least expensive|lowest price|most expensive|fastest|shortest|quickest|earliest|"
    r"latest|rẻ nhất|nhanh nhất|sớm nhất|đắt nhất)\b"
)
_ORDINAL = re.compile(r"(?i)\b(?P<word>first|1st|top|second|2nd|third|3rd|last|đầu tiên|cuối cùng)\b")
_DURATION = re.compile(r"(?i)\b(?:(\d+)\s*h(?:ours?|rs?)?)?\s*(?:(\d+)\s*m(?:in(?:utes?)?)?)?\b")
_PICKERS = re.compile(r"(?i)\b(?:select|choose|book|add|buy|view|details|chọn|đặt|mua)\b")
_DIRECT_WANTED = re.compile(r"(?i)\b(?:direct|non-?stop|thẳng)\b")
_DIRECT_ROW = re.compile(r"(?i)\bdirect\b|non-?stop|\b0 stops?\b")


def _money(text: str) -> float | None:
    m = MONEY.search(text)
    return number(m.group(0)) if m else None


def _clock(text: str) -> float | None:
    m = TIME.search(text)
    if m is None:
        return None
    hours, _, minutes = m.group(0).partition(":")
    return int(hours) * 60 + int(minutes[:2] or 0) if hours.strip().isdigit() else None


def _duration(text: str) -> float | None:
    for m in _DURATION.finditer(text):
        if m.group(1) or m.group(2):
            return int(m.group(1) or 0) * 60 + int(m.group(2) or 0)
    return None


_KEYS: dict[str, tuple[Callable[[str], float | None], bool]] = {
    "cheapest": (_money, False), "least expensive": (_money, False), "lowest price": (_money, False),
    "rẻ nhất": (_money, False), "most expensive": (_money, True), "đắt nhất": (_money, True),
    "fastest": (_duration, False), "shortest": (_duration, False), "quickest": (_duration, False),
    "nhanh nhất": (_duration, False), "earliest": (_clock, False), "sớm nhất": (_clock, False),
    "latest": (_clock, True),
}  # fmt: skip


def superlative(words: str) -> str | None:
    m = _SUPERLATIVE.search(words)
    return m.group("word").lower() if m else None


def best_row(obs: Observation, words: str) -> ElementInfo | None:
    """The control that picks the row a superlative names ("the cheapest direct flight"): among the
    rows with a picker (Select, Book, Add to cart), the one whose price, time or duration is least (or
    most); rows that do not fit ("direct") are left out. None when the page lists no such rows."""
    word = superlative(words)
    if word is None:
        return None
    key, highest = _KEYS[word]
    rows = [e for e in obs.elements if g.pressable(e) and e.context and _PICKERS.search(e.name or "")]
    if _DIRECT_WANTED.search(words):
        rows = [e for e in rows if _DIRECT_ROW.search(e.context)]
    valued = [(v, e) for e in rows if (v := key(e.context)) is not None]
    if not valued:
        return None
    return (max if highest else min)(valued, key=lambda p: p[0])[1]


def nth_item(obs: Observation, words: str) -> ElementInfo | None:
    """ "the first result", "the last one": a result of the page's main list, by its place in it."""
    m = _ORDINAL.search(words)
    if m is None:
        return None
    place = {"first": 0, "1st": 0, "top": 0, "đầu tiên": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}
    items = [
        e
        for e in obs.elements
        if g.pressable(e) and (e.role or e.tag) in ("link", "a") and not e.area and len(g.tokens(e.name)) >= 2
    ]
    if not items:
        return None
    word = m.group("word").lower()
    index = -1 if word in ("last", "cuối cùng") else place.get(word, 0)
    return items[index] if -len(items) <= index < len(items) else None


def way_to_form(obs: Observation, purpose: str, avoid: list[str], about: str = "") -> ElementInfo | None:
    """The link a person follows to the form a send needs ("Sign up" in the nav bar) when the fields
    are not on this page: named for the purpose, and not itself a form's submit button. Of one such
    link per row ("Book" beside each class), the row that names what the send is for ("book the
    pottery class")."""
    names = {"signup": ("sign up", "register", "create account", "get started", "start free", "join",
                        "membership", "enrol", "enroll", "đăng ký", "tham gia"),
             "login": ("log in", "sign in", "login", "đăng nhập"),
             "send": ("contact", "contact us", "report", "feedback", "request", "enquiry", "apply", "liên hệ",
                      "phản ánh", "góp ý", "báo cáo"),
             "order": ("cart", "checkout", "giỏ hàng"),
             "book": ("book", "booking", "appointment", "reserve", "reservation", "đặt", "đặt lịch",
                      "đặt chỗ"),
             }.get(purpose, ())  # fmt: skip
    for name in names:
        pick = g.find_control(obs, name, avoid=avoid)
        if pick.element is None and len(pick.candidates) > 1 and pick.score >= 0.85:
            # a "Reserve" link on every event's row: only the row the task names, never a guess
            return _row_named([e for e in pick.candidates if _leads(e)], about)
        el = pick.element
        if el is not None and pick.score >= 0.85 and _leads(el):
            return el
    return None


def _leads(el: ElementInfo) -> bool:
    """A link to the form's page, or the tab that shows it; never a button, which may do the deed itself."""
    return (el.role or el.tag) in ("link", "a", "tab") and el.form is None


def _row_named(links: list[ElementInfo], about: str) -> ElementInfo | None:
    if not about or len(links) < 2:
        return None
    scored = sorted(
        ((g.words_score(about, f"{e.context} {e.name}"), e.index, e) for e in links), reverse=True
    )
    best, second = scored[0][0], scored[1][0]
    return scored[0][2] if best >= 0.3 and second == 0 else None  # one row names it, no other shares a word
