"""What the person said that no ask uses: a value given (an address, a phone number, a name, a
quoted phrase, a number) must land in an ask or be said unread, never dropped (docs/architecture.md,
"What was asked").

A reader that skips "Jo Smith" in "register me for the 5k run: Jo Smith, jo@x.co" plans a sign-up
that leaves the name out and can still end SUCCESS. Here each value of the task is looked for in the
asks' own words; a bare address or phone number becomes the fill a form asks for; anything else left
over is `unread`, which keeps the run from SUCCESS with a sentence naming it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from planner._text import fold
from planner.ask_verbs import verb_of
from planner.asks import Ask, ChooseAsk, FillAsk, SubmitAsk
from planner.booking_fields import party_size
from planner.slots import EMAIL, PHONE, clock_value, date_value, long_date

#: Two to four capitalised words in a row: a person's or a street's name ("Jo Smith", "Le Loi Street").
_NAME = re.compile(r"(?<![\w'’-])[A-ZÀ-Ỹ][a-zà-ỹ'’-]+(?:\s+[A-ZÀ-Ỹ][a-zà-ỹ'’-]+){1,3}(?![\w'’-])")
_QUOTED = re.compile(r"""["“]([^"”]{2,80})["”]""")
#: A number of two or more digits, or a date: what a form or a search is given, never decoration.
_NUMBERED = re.compile(r"(?<![\w.])\d[\d:/.,-]*\d(?:[a-zA-Z]{1,3}\b)?")
#: A small count with what it counts: "2 seats", "3 nights", "1 ticket".
_COUNTED = re.compile(
    r"(?<![\w.,:/-])\d{1,2}\s+(?!(?:am|pm|of|and|or|to|cái|chiếc|con|cuốn|quyển|bộ)\b)[a-zà-ỹ]{3,}\b"
)
#: A time of day or a day of the week: "at 7pm", "19:30", "on Friday", "thứ Sáu", "Chủ nhật".
_WHEN = re.compile(
    r"(?i)(?<![\w:.])\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|h\b|giờ(?:\s*\d{2})?(?:\s+(?:sáng|trưa|chiều|tối))?\b)|"
    r"\b(?:monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)\b|\bthứ\s+(?:hai|ba|tư|năm|sáu|bảy)\b|\bchủ\s+nhật\b"
)
_WEEKDAY = re.compile(
    r"(?i)(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"thứ\s+(?:hai|ba|tư|năm|sáu|bảy)|chủ\s+nhật)"
)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
#: A date with its month written out: "12 March 2027", "March 12, 2027".
_LONG_DATE = re.compile(
    rf"(?i)\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH},?\s+\d{{4}}\b|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b"
)
#: "4 people", "2 người": a party of that many.
_PARTY = re.compile(r"(?i)(\d{1,2})\s+(?:people|persons|guests|adults|diners|người|khách)")
#: "a table for 4", "for two": how many it is for.
_FOR_COUNT = re.compile(
    r"(?i)\bfor\s+(?P<n>\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\b(?!\s*[:/.]\d)"
)
#: "every topic except comedy", "all but the Sunday ones": a restriction the rules do not apply.
_EXCEPT = re.compile(
    r"(?i)\b(?:except(?:\s+for)?|but not|other than|apart from|excluding|ngoại trừ|trừ)\s+"
    r"(?P<what>(?:(?!(?:on|at|in|with|and|to|email|trên|với|và)\b)[^\s,.;!?]+\s*){1,4})"
)
#: Sentence openers a capitalised pair may start with: "Please Book" is not a name.
_OPENERS = frozenset(
    fold(w)
    for w in (
        "please", "then", "and", "also", "now", "just", "i", "my", "the", "a", "an", "on", "at", "in",
        "for", "to", "open", "go", "find", "search", "book", "register", "sign", "fill", "send", "tell",
        "what", "which", "when", "who", "where", "how", "is", "are", "do", "does", "can", "could", "hi",
        "hello", "dear", "url",
    )
)  # fmt: skip


def stated_values(task: str) -> list[str]:
    """The values a task gives, in its order, each once."""
    text = re.sub(r"\bhttps?://\S+|\bURL\b", " ", task)
    found: list[tuple[int, str]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, value: str) -> None:
        if any(start < b and a < end for a, b in taken):
            return  # inside a value already found ("a@b.co" holds no name)
        taken.append((start, end))
        found.append((start, value))

    for m in EMAIL.finditer(text):
        add(m.start(), m.end(), m.group(0))
    for m in PHONE.finditer(text):
        add(m.start(), m.end(), m.group(0).strip())
    for m in _QUOTED.finditer(text):
        add(m.start(), m.end(), m.group(1).strip())
    for m in _NAME.finditer(text):
        words = m.group(0).split()
        if verb_of(words[0]) is not None:
            words.pop(0)  # "Click Go": a verb opening the sentence, capitalised for it
        while words and fold(words[0].lower()) in _OPENERS:
            words.pop(0)  # "Please Jo Smith": the opener is not part of the name
        if len(words) >= 2 and all(w[0].isupper() for w in words):  # the class spans small letters too
            add(m.start(), m.end(), " ".join(words))
    for m in (*_LONG_DATE.finditer(text), *_WHEN.finditer(text)):  # one value each, before numbers
        add(m.start(), m.end(), m.group(0).strip())  # and counts: "12 March 2027", "6 giờ 30 tối"
    for m in _NUMBERED.finditer(text):
        add(m.start(), m.end(), m.group(0))
    for m in _COUNTED.finditer(text):
        add(m.start(), m.end(), m.group(0))
    for m in _EXCEPT.finditer(text):
        add(m.start(), m.end(), m.group(0).strip())
    for m in _FOR_COUNT.finditer(text):
        add(m.start("n"), m.end("n"), m.group("n"))
    return list(dict.fromkeys(v for _, v in sorted(found)))


def _held(value: str, tokens: set[str]) -> bool:
    """ "2 seats" is used when an ask holds the number and the word: a fill of "seats" with "2"."""
    count, noun = value.split(None, 1)
    return count in tokens and any(t.startswith(fold(noun.lower())[:4]) for t in tokens)


def _said(asks: Sequence[Ask], others: Iterable[str]) -> str:
    parts = [str(v) for a in asks for v in a.model_dump().values() if isinstance(v, str | dict | list)]
    return fold(" ".join([*parts, *others]).lower())


#: Words that say the name after them is the person's: "for Nguyễn Văn An", "I'm Jo Smith".
_NAMED = r"(?:for|as|cho|tên|name|named|called|i'm|i am|tôi là|my name is)\s*:?\s*"


def _typed_fill(value: str, task: str) -> FillAsk | None:
    """The fill a bare value stands for: an address, a phone number, a name said as the person's, and
    for a booking the time of day, the weekday and how many it is for ("a table for 4 at 7pm")."""
    clock = clock_value(value) if re.search(r"(?i):|am|pm|h|giờ", value) else None  # "10.50" is a price
    if clock is not None:
        return FillAsk(field="time", value=clock)
    party = _PARTY.fullmatch(value)
    if party:
        return FillAsk(field="guests", value=party.group(1))
    if date_value(value) or long_date(value):
        return FillAsk(field="date", value=value)
    if _WEEKDAY.fullmatch(value):
        return FillAsk(field="day", value=value[0].upper() + value[1:])
    if re.search(rf"(?i)\bfor\s+{re.escape(value)}\b", task) and _FOR_COUNT.fullmatch(f"for {value}"):
        return FillAsk(field="guests", value=party_size(value))
    if EMAIL.fullmatch(value):
        return FillAsk(field="email", value=value)
    if PHONE.fullmatch(value):
        return FillAsk(field="phone", value=value)
    if re.search(rf"(?i)\b{_NAMED}{re.escape(value)}\b", task) and _NAME.fullmatch(value):
        return FillAsk(field="name", value=value)
    return None


#: "an appointment with Anna Lee", "với bác sĩ Trần Văn Minh": the one the booking is with.
_WITH = r"(?:with|với)\s+(?:(?:dr|doctor|bác sĩ|bs|thầy|cô|anh|chị)\.?\s+)?"


def _with_whom(value: str, task: str) -> ChooseAsk | None:
    """A name said as whom a booking is with is picked among the people the form offers."""
    if _NAME.fullmatch(value) and re.search(rf"(?i)\b{_WITH}{re.escape(value)}\b", task):
        return ChooseAsk(option=value)
    return None


def _login(asks: Sequence[Ask]) -> bool:
    """A sign-in is given a username ("as jo"), never a person's name to type."""
    return any(isinstance(a, SubmitAsk) and a.purpose == "login" for a in asks)


def cover(task: str, asks: list[Ask], forbidden: list[str], unread: list[str]) -> tuple[list[Ask], list[str]]:
    """`asks` with a fill for each bare address, phone number or name said as the person's ("for Jo
    Smith") that no ask uses (when the task fills or sends a form), and `unread` with every other
    value no ask, prohibition or unread part holds."""
    said = _said(asks, [*forbidden, *unread])
    acting = any(a.kind in ("fill", "submit", "choose", "toggle", "change") for a in asks)
    filled = {fold(a.field.lower()) for a in asks if isinstance(a, FillAsk)}
    new_asks, new_unread = list(asks), list(unread)
    tokens = set(re.findall(r"\w+", said))
    # a restriction ("except comedy") is met by an ask that uses it, not by the words a sign-up's
    # "what for" or a prohibition happened to swallow
    unswallowed = [a.model_copy(update={"about": ""}) if isinstance(a, SubmitAsk) else a for a in asks]
    narrow = _said(unswallowed, unread)
    for value in stated_values(task):
        held = narrow if _EXCEPT.fullmatch(value) else said
        if fold(value.lower()) in held or (_COUNTED.fullmatch(value) and _held(value, tokens)):
            continue
        fill: Ask | None = (_with_whom(value, task) or _typed_fill(value, task)) if acting else None
        if isinstance(fill, FillAsk) and fill.field == "name" and _login(asks):
            fill = None
        if isinstance(fill, ChooseAsk) or (isinstance(fill, FillAsk) and fill.field not in filled):
            submit = next((i for i, a in enumerate(new_asks) if a.kind == "submit"), len(new_asks))
            new_asks.insert(submit, fill)  # typed (or picked) before the form is sent
            filled.add(fill.field if isinstance(fill, FillAsk) else "")
        else:
            new_unread.append(value)
    return new_asks, new_unread
