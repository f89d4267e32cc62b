"""Answering a question from a page's text without a model: the fact the question asks for, with
the line it stands on (docs/architecture.md, "What was asked").

The page's own words decide: a table answers "which is the cheapest", "how many notebooks are in
stock" and "the cheapest plan that allows 8 users and 50 GB" from its numbers; a "Label: value" line
answers a question about that label; otherwise the lines that share most words with the question
are searched for a fact of the kind asked for (a date for "when", an amount for "how much", an
address for "email address"). No fact of that kind means no answer: the caller says so, never
pastes the page instead.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from planner.asks import FactKind
from planner.fact_words import (
    CHEAP,
    DATE,
    DEAR,
    EMAIL,
    MONEY,
    NUMBER,
    PERSON,
    PHONE,
    TIME,
    Fact,
    number,
    page_lines,
    tables,
    topic,
    words_of,
)
from planner.table_facts import table_fact


def _of_kind(kind: FactKind, line: str, question: str) -> str | None:
    if kind == "date":
        m = DATE.search(line)
        return m.group(0) if m else None
    if kind == "time":
        m = TIME.search(line)
        return m.group(0) if m else None
    if kind == "price":
        m = MONEY.search(line)
        return m.group(0).strip().rstrip(".,") if m else None
    if kind == "email":
        m = EMAIL.search(line)
        return m.group(0) if m else None
    if kind == "phone":
        m = next((m for m in PHONE.finditer(line) if len(re.sub(r"\D", "", m.group(0))) >= 7), None)
        return m.group(0).strip() if m else None
    if kind in ("count", "number"):
        asked = set(words_of(question))
        for m in NUMBER.finditer(line):
            if kind == "count" and not re.fullmatch(r"\d[\d,]*(?:\s?\D.*)?", m.group(0).strip()):
                continue  # "4.8" counts nothing
            if kind == "count" and re.match(r"\d+\.\d", m.group(0)):
                continue
            if not set(words_of(m.group(0))) <= asked:
                return m.group(0).strip()
        return None
    if kind == "person":
        asked = set(words_of(question))
        for m in PERSON.finditer(line):
            if not set(words_of(m.group(0))) & asked:
                return m.group(0)
        return None
    return None


#: Words that name the kind of fact, not what it is about ("the email address", "the price").
_GENERIC = frozenset(
    words_of("email e-mail address date time price cost phone number amount day when contact url")
)


def named_words(question: str) -> list[str]:
    """Words of the names the question gives (capitalised, past its first word): "Stoneware Mugs"."""
    text = question.strip()
    names = [
        re.sub(r"['’]s$", "", m.group(0))  # "Priya's email" names Priya
        for m in re.finditer(r"[\w'’-]+", text)
        # a capital then small letters ("GB" or "USD" is a unit, not a name), not a sentence's start
        if m.group(0)[0].isupper() and m.group(0)[1:2].islower()
        and m.start() > 0 and not re.search(r"[.?!]\s*$", text[: m.start()])
    ]  # fmt: skip
    return [w for n in names for w in words_of(n) if w not in _GENERIC]


def _score(line: str, words: Sequence[str]) -> float:
    have = set(words_of(line))
    return sum(1.0 for w in set(words) if w in have) / (len(set(words)) or 1) if have else 0.0


def find_fact(question: str, kind: FactKind, text: str) -> Fact | None:
    """The fact `question` asks for on this page, or None when the page does not hold one."""
    if kind == "text" and _SUMMARY.search(question):
        one = bool(re.search(r"(?i)\b(?:one sentence|tl;?dr|một câu)\b", question))
        line = summary_sentence(text, 1 if one else 3)
        return Fact(value=line, line=line, kind=kind) if line else None
    for table in tables(text):
        found = table_fact(question, kind, table)
        if found is not None:
            return found
    words = topic(question)
    listed = _cheapest_listed(question, text)
    if listed is not None:
        return listed
    pairs = _labelled(text, words, kind, question)
    if pairs is not None:
        return pairs
    lines = page_lines(text)
    if kind in ("text", "yes_no", "item"):
        ranked = sorted(
            ((_score(line, words), i) for i, line in enumerate(lines)), key=lambda p: (-p[0], p[1])
        )
        if ranked and ranked[0][0] >= (0.5 if len(words) > 1 else 1.0):
            line = lines[ranked[0][1]]
            return Fact(value=line, line=line, kind=kind)
        return None
    # A fact of the kind asked for, on the line that shares most words with the question; a line
    # sharing none is taken only when it is the page's one fact of that kind.
    typed = [(i, v) for i, line in enumerate(lines) if (v := _of_kind(kind, line, question))]
    if not typed:
        return None
    # A message header ("SkyWays <bookings@...> to me, 31 Mar") dates the message, not what it is about.
    sent = re.search(r"(?i)\b(?:sen[dt]|wr[io]te|written|receiv|arriv|get|got|gửi|nhận)", question)
    header = 0.5 if kind in ("date", "time") and not sent else 0.0
    scored = sorted(
        ((_score(lines[i], words) - header * bool(EMAIL.search(lines[i])), i, v) for i, v in typed),
        key=lambda p: (-p[0], p[1]),
    )
    best, i, value = scored[0]
    specific = [w for w in words if w not in _GENERIC]
    named = named_words(question)
    near = " ".join([*lines[max(0, i - 3) : i + 1], *lines[:5]])  # its card, or a page about it (title)
    if named and not set(named) <= set(words_of(near)):
        return None  # "how many Stoneware Mugs": a line that does not name them answers another question
    if best == 0 and (specific or len({v for _, v in typed}) > 1):
        return None  # the only date on the page is not an answer when it shares nothing with the question
    return Fact(value=value, line=lines[i], kind=kind)


#: "Hello Sam, Your contract ...": the greeting that opens a body line is not part of what it says.
_GREETING_LEAD = re.compile(r"(?i)^(?:hi|hello|hey|dear|chào)\s+[\w .'-]{1,30},\s*")
_REQUEST = re.compile(
    r"(?i)\b(?:please|confirm|reply|let (?:me|us) know|by (?:\d|mon|tue|wed|thu|fri|sat|sun|"
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|deadline|vui lòng|xin hãy)"
)
_SUMMARY = re.compile(r"(?i)\b(?:summari[sz]e|sum up|gist|tl;?dr|in one sentence|tóm tắt|tom tat)\b")
_GREETING = re.compile(
    r"(?i)^(?:hi|hello|hey|dear|good (?:morning|afternoon)|best|regards|kind regards|best regards|thanks|"
    r"thank you|cheers|sincerely|chào|kính gửi|thân|trân trọng)\b"
)


def summary_sentence(text: str, most: int = 1) -> str | None:
    """The lines that say most, in the page's order: in the body (greetings and sign-offs skipped),
    those holding the most facts (numbers, dates, amounts), earlier ones first on a tie. A gist is
    what changed and what to do about it, which an email rarely says in one line."""
    scored: list[tuple[float, int, str]] = []
    sentences = (s.strip() for line in page_lines(text) for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", line))
    for i, line in enumerate(sentences):
        line = _GREETING_LEAD.sub("", line)
        if len(line) < 30 or _GREETING.match(line):
            continue
        facts = len(re.findall(r"\d[\d,.]*", line)) + len(DATE.findall(line)) + len(MONEY.findall(line))
        asks = 1.0 if _REQUEST.search(line) else 0.0  # what the reader is asked to do is the gist too
        scored.append((facts + asks + min(len(line), 240) / 240, i, line))
    best = sorted(scored, key=lambda s: (-s[0], s[1]))[:most]
    while len(best) > 1 and sum(len(line) + 2 for _, _, line in best) > _GIST_MAX:
        best.pop()  # one line a person reads at a glance: the least telling part goes first
    kept = sorted(best, key=lambda s: s[1])
    # One sentence, its parts joined by semicolons: the first sentence of an answer is the one read.
    joined = "; ".join(line.rstrip(".!? ") for _, _, line in kept)
    return f"{joined}." if joined else None


#: A gist longer than this is the page again, not its gist.
_GIST_MAX = 280


_EARLY = re.compile(r"(?i)\b(?:earliest|first|soonest|sớm nhất|đầu tiên)\b")
_LATE = re.compile(r"(?i)\b(?:latest|last|muộn nhất|cuối cùng)\b")
_DIRECT = re.compile(r"(?i)\b(?:direct|non-?stop|thẳng|bay thẳng)\b")


def _cheapest_listed(question: str, text: str) -> Fact | None:
    """ "Which one is cheapest", "the earliest direct flight" over a list of cards: each card's
    price (or time), its name on a line above it, and what the question requires of it (direct)."""
    cheap, dear = CHEAP.search(question), DEAR.search(question)
    early, late = _EARLY.search(question), _LATE.search(question)
    if not (cheap or dear or early or late):
        return None
    pattern = MONEY if cheap or dear else TIME
    lines = page_lines(text)
    found: list[tuple[float, str, str, str]] = []
    listed = 0
    for i, line in enumerate(lines):
        m = pattern.search(line)
        if m is None or (pattern is TIME and not re.match(r"\s*\d", line)):
            continue
        amount = _clock(m.group(0)) if pattern is TIME else number(m.group(0))
        if amount is None:
            continue
        card = lines[max(0, i - 3) : i + 3]
        listed += 1
        if _DIRECT.search(question) and not any(re.search(r"(?i)\bdirect\b|non-?stop", c) for c in card[2:5]):
            continue
        above = [lines[j] for j in range(i - 1, max(-1, i - 4), -1) if not pattern.search(lines[j])]
        name = next((a for a in above if _letters(a) >= 0.5), None)  # the nearest line of words above
        if name and 2 <= len(name) <= 60:
            found.append((amount, name, m.group(0).strip(), line))
    if listed < 2 or not found:  # a superlative needs a list, and something on it that fits
        return None
    lowest = bool(cheap or early)
    amount, name, shown, line = (min if lowest else max)(found, key=lambda f: f[0])
    word = {True: "cheapest" if cheap else "earliest"}.get(lowest) or ("most expensive" if dear else "latest")
    if pattern is TIME:
        return Fact(value=f"{shown}: {name} is the {word}", line=f"{name}: {line}", kind="time")
    return Fact(value=f"{name} is the {word} ({shown})", line=f"{name}: {shown}", kind="item")


def _clock(text: str) -> float | None:
    m = re.match(r"\s*(\d{1,2})(?::(\d{2}))?\s*(am|pm)?", text, re.I)
    if m is None:
        return None
    hour = (
        int(m.group(1)) % 12 + (12 if (m.group(3) or "").lower() == "pm" else 0)
        if m.group(3)
        else int(m.group(1))
    )
    return hour * 60 + int(m.group(2) or 0)


def _letters(line: str) -> float:
    """How much of a line is words: an airline's name beats a line of times and durations."""
    return sum(c.isalpha() for c in line) / max(1, len(line))


def _label_lines(text: str) -> list[str]:
    """The page's lines, with a label standing alone above its value ("Storage" / "38.2 GB of 100 GB
    used", as a list of terms shows them) joined as "Storage: 38.2 GB of 100 GB used"."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    out = list(lines)
    for label, value in itertools.pairwise(lines):
        a_value = len(value.split()) <= 8 and not re.search(r"[.!?]$", value)  # not a sentence
        if (
            0 < len(label.split()) <= 3
            and not re.search(r"\d|[:.!?]$", label)
            and ":" not in label
            and a_value
        ):
            out.append(f"{label}: {value}")
    return out


def labelled_fact(question: str, text: str) -> Fact | None:
    """The value a "Label: value" line gives for the question's subject, or None."""
    return _labelled(text, topic(question), "text", question)


def _labelled(text: str, words: Sequence[str], kind: FactKind, question: str) -> Fact | None:
    """A "Label: value" line whose label is the question's subject ("Renewal date: 1 March 2027")."""
    best: tuple[float, str, str] | None = None
    for raw in _label_lines(text):
        label, sep, value = raw.partition(":") if ":" in raw else raw.partition("\t")
        label, value = label.strip(), value.strip()
        if not sep or not value or len(label) > 40 or not label:
            continue
        named = set(words_of(label))
        score = len(named & set(words)) / len(named) if named else 0.0
        if score >= 0.5 and (best is None or score > best[0]):
            best = (score, " ".join(raw.split()), value)
    if best is None:
        return None
    _, line, value = best
    if kind in ("text", "item", "yes_no"):
        value = re.split(r"(?<=\S)[.;]\s+(?=[A-Z])", value)[
            0
        ]  # "QX7L2P. Seat 34A.": the value ends with its sentence
        return Fact(value=value, line=line, kind=kind)
    typed = _of_kind(kind, value, question)
    return Fact(value=typed, line=line, kind=kind) if typed else None


# --- tables ---------------------------------------------------------------------------------------
