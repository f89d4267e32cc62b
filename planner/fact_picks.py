"""Which of several facts a question means (docs/architecture.md, "What was asked"): the one a
ranking word picks ("the newest meetup": the latest date), a count that stands beside what is counted,
and yes or no from a line that holds what was asked. Each says None (or leaves the question open)
when the page does not decide, so an answer is never a guess between equal lines."""

from __future__ import annotations

import re
from collections.abc import Sequence

from planner.fact_words import DATE, GENERIC, Fact, number, topic, words_of

#: Words that rank a list ("the newest meetup"): a line that shares words with the question cannot tell
#: which of the list's items it is, so such a question is answered from an item's own page or not at all.
RANKED = re.compile(
    r"(?i)\b(?:newest|latest|most recent|last|oldest|earliest|first|next|upcoming|previous|biggest|largest|"
    r"smallest|highest|lowest|best|worst|top|mới nhất|gần nhất|cũ nhất|đầu tiên|cuối cùng|tiếp theo)\b"
)


_LOWEST_FIRST = re.compile(
    r"(?i)\b(?:oldest|earliest|first|next|upcoming|smallest|lowest|cũ nhất|đầu tiên|tiếp theo)\b"
)


def ranked_pick(question: str, tied: Sequence[tuple[int, str]]) -> tuple[int, str] | None:
    """Of the equally fitting facts, the one the question's ranking word picks (the latest date for
    "newest", the earliest for "next"); None when they cannot be put in order."""
    if len({v for _, v in tied}) == 1:
        return tied[0]
    keyed = [(_order_key(v), i, v) for i, v in tied]
    if any(k is None for k, _, _ in keyed):
        return None
    pick = min if _LOWEST_FIRST.search(question) else max
    _, i, v = pick(keyed, key=lambda t: t[0] or "")
    return i, v


def _order_key(value: str) -> str | None:
    from planner.slots import date_value, long_date

    said = DATE.search(value)
    text = said.group(0) if said else value
    iso = date_value(text.strip()) or long_date(text.strip())
    if iso:
        return iso
    if said:
        return None  # a date without its year cannot be put before or after another
    n = number(value)
    return f"{n:020.4f}" if n is not None and n >= 0 else None


def counts_it(question: str, value: str, line: str) -> bool:
    """The number counts what was asked about: a word of the question stands right beside it ("6
    *branches*", "17 in *stock*", "*Inbox* (5)") or labels it ("*Tools* available today: 4"). A number beside
    other words ("3 copies" on one book's card) counts something else."""
    if not re.search(r"(?i)\b(?:how many|number of|count of|bao nhiêu|mấy)\b", question):
        return True
    asked = set(topic(question)) - {"number", "count"}
    at = line.find(value)
    after = [*words_of(value), *words_of(line[at + len(value) :])[:3]] if at >= 0 else []  # "25 minutes"
    label, sep, rest = line.partition(":")
    labelled = bool(sep) and value in rest and len(label.split()) <= 6
    lead = re.search(r"([^\W\d_]+)\s*\(?\s*$", line[:at]) if at >= 0 else None  # "Inbox (5)", "Unread 12"
    before = words_of(lead.group(1)) if lead else []
    return bool(asked & {*after, *before}) or (labelled and bool(asked & set(words_of(label))))


_VI_TIME = r"phút|giờ|ngày|tháng|năm"
_TIME = rf"(?:seconds?|secs?|s|minutes?|mins?|min|m|hours?|hrs?|h|days?|weeks?|months?|years?|{_VI_TIME})"
_LENGTH = r"(?:metres?|meters?|m|km|kilometres?|kilometers?|miles?|mi|cm|mm|ft|feet|foot|inches|yards?)"
_WEIGHT = r"(?:kg|g|grams?|kilograms?|lbs?|pounds?|tons?|tonnes?)"
_AREA = r"m²|m2|sq ?ft|square (?:feet|metres?|meters?)|acres?|hectares?|ha"
_SIZE = rf"(?:{_LENGTH}|{_AREA}|gb|mb|tb|kb|pages|rooms)"
#: "how long is the episode": a bare number ("from 2019", "in 120 countries") measures nothing; the
#: value has to carry a unit of what the question measures, or be a running time ("45:30", "1h 20m").
_MEASURES = (
    (re.compile(r"(?i)\b(?:how long|bao lâu|dài bao nhiêu)\b"), rf"(?:{_TIME}|{_LENGTH}|pages)"),
    (re.compile(r"(?i)\b(?:how far|how tall|how high|how deep|bao xa|cao bao nhiêu)\b"), _LENGTH),
    (re.compile(r"(?i)\b(?:how old|bao nhiêu tuổi)\b"), r"(?:years?|months?|weeks?|days?|tuổi|năm)"),
    (re.compile(r"(?i)\b(?:how heavy|nặng bao nhiêu)\b"), _WEIGHT),
    (re.compile(r"(?i)\b(?:how big|how large|rộng bao nhiêu)\b"), _SIZE),
)
#: What finishes a running time after its first number: "45" + ":30", "1h" + " 20m".
_RUNNING_REST = re.compile(r":\d{2}(?::\d{2})?(?!\d)|(?<=h)\s?\d{1,2}\s?(?:m|mins?|minutes)(?!\w)")


def measured(question: str, value: str, rest: str) -> str | None:
    """The number as a measure of what the question asks ("how long": "45 minutes", "45:30"; "how
    far": "3 km"), `rest` being the line after it; None when it measures something else. A question
    that measures nothing takes the number as it is."""
    unit = next((unit for asks, unit in _MEASURES if asks.search(question)), None)
    value = value.strip()
    if unit is None:
        return value
    running = _RUNNING_REST.match(value[-1] + rest, 1)
    if running:
        return value + running.group(0)
    said = re.match(rf"(?i)^[\d.,]+\s?{unit}(?!\w)", value) or re.match(rf"(?i)^\s?{unit}(?!\w)", rest)
    return value if said else None


#: Words that deny what stands right after them ("pets are *not* allowed", "*no* pets").
_NEGATIVE = frozenset(words_of("not no never cannot cant isnt arent doesnt dont wont nor khong chua"))


def _denied(tokens: list[str], asked: set[str]) -> bool:
    """A denial within three words before a word of what was asked: "Pets are not allowed"."""
    return any(
        t in _NEGATIVE and any(w in asked for w in tokens[i + 1 : i + 4]) for i, t in enumerate(tokens)
    )


#: "Can I ...", "should we ...": how the question is put, not what it asks about.
_AUXILIARY = frozenset(words_of("can could may might should would will shall must you we they our your my"))


def yes_or_no(question: str, line: str) -> Fact:
    """Yes or no only when the page says it: a line that opens with it ("No, tools go back by 21:00"),
    or one that holds every word of what is asked with a "not" right before one of them ("Pets are
    not allowed"). Otherwise the line is quoted and the question stays open: "Each member may bring
    one guest" may well mean yes, but weighing it (or "closed from 14 March" against "open on the
    15th") is a judgement the rules do not make."""
    said = re.match(r"(?i)\s*(yes|no|có|không)\b", line)  # "No, guests are not allowed."
    if said:
        return Fact(value="Yes" if said.group(1).lower() in ("yes", "có") else "No", line=line, kind="yes_no")
    asked = set(topic(question)) - GENERIC - _AUXILIARY
    tokens = words_of(re.sub(r"(?i)n[’']t\b", " not", line))  # "aren't" -> "are not"
    holds = all(w in tokens or any(h.startswith(w[:5]) for h in tokens if len(w) >= 5) for w in asked)
    if asked and holds and _denied(tokens, asked):
        return Fact(value="No", line=line, kind="yes_no")
    return Fact(value=line, line=line, kind="yes_no", satisfied=False,
                because="the page does not say yes or no in as many words")  # fmt: skip
