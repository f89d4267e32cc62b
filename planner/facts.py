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
from planner.fact_picks import RANKED, counts_it, measured, ranked_pick, yes_or_no
from planner.fact_words import (
    CHEAP,
    DATE,
    DEAR,
    EMAIL,
    GENERIC,
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
            value = measured(question, m.group(0), line[m.end() :]) if kind == "number" else m.group(0)
            if value is not None and not set(words_of(value)) <= asked:
                return value.strip()
        return None
    if kind == "person":
        asked = set(words_of(question))
        for m in PERSON.finditer(line):
            if not set(words_of(m.group(0))) & asked:
                return m.group(0)
        return None
    return None


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
    return [w for n in names for w in words_of(n) if w not in GENERIC]


def _score(line: str, words: Sequence[str]) -> float:
    have = set(words_of(line))
    return sum(1.0 for w in set(words) if w in have) / (len(set(words)) or 1) if have else 0.0


def find_fact(question: str, kind: FactKind, text: str) -> Fact | None:
    """The fact `question` asks for on this page, or None when the page does not hold one."""
    found = _find(question, kind, text)
    if found is not None and kind == "yes_no" and found.value not in ("Yes", "No"):
        return yes_or_no(question, found.line)  # a labelled value or a table cell is not a yes or a no
    return found


#: "the page title", "the title of this page": the page's own title, its text's first line.
_TITLE = re.compile(
    r"(?i)\b(?:page|site|tab)(?:'s)? title\b|\btitle of (?:the|this) (?:page|site|tab)\b|tiêu đề trang"
)


def _find(question: str, kind: FactKind, text: str) -> Fact | None:
    if kind == "text" and _TITLE.search(question):
        title = next((line.strip() for line in text.splitlines() if line.strip()), "")
        return Fact(value=title, line=title, kind=kind) if title else None
    if kind == "text" and _SUMMARY.search(question):
        one = bool(re.search(r"(?i)\b(?:one sentence|tl;?dr|một câu)\b", question))
        line = summary_sentence(text, 1 if one else 3)
        return Fact(value=line, line=line, kind=kind) if line else None
    if kind == "text" and SAYS.search(question):
        return _what_it_says(question, page_lines(text), text)
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
        return _best_line(question, kind, lines, words)
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
    if kind == "count":  # "how many branches": a number beside other words counts something else
        scored = [p for p in scored if counts_it(question, p[2], lines[p[1]])]
        if not scored:
            return None
    named = named_words(question)
    if named:  # "how many Stoneware Mugs": only a line in their card (or on a page about them) answers
        scored = [p for p in scored if set(named) <= set(words_of(_card(lines, p[1])))]
        if not scored:
            return None
    best, i, value = scored[0]
    tied = [(i2, v2) for sc, i2, v2 in scored if sc == best]
    if RANKED.search(question):
        ranked = ranked_pick(question, tied)
        if ranked is None:
            return None  # "the newest meetup's date": several items fit and none is known newest
        i, value = ranked
    elif kind in ("count", "number") and len({v for _, v in tied}) > 1:
        return None  # two list items count different things equally well: the question picks neither
    specific = [w for w in words if w not in GENERIC]
    if best == 0 and (specific or len({v for _, v in typed}) > 1):
        return None  # the only date on the page is not an answer when it shares nothing with the question
    return Fact(value=value, line=lines[i], kind=kind)


#: "What does the notice say", "what's in the newsletter", "what is the memo about": the item's gist.
SAYS = re.compile(
    r"(?i)\bwhat\s+(?:does|do|did)\b.+\b(?:say|says|said|announce|tell us)\b|\bwhat(?:'s|’s| is| was)\s+"
    r"(?:in|written in)\s+(?:the|that|this)\b|\bwhat\s+(?:is|was)\s+(?:the|that|this)\s+[\w -]+\s+about\b|"
    r"\b(?:nói gì|viết gì|có nội dung gì)\b"
)


def _best_line(question: str, kind: FactKind, lines: Sequence[str], words: Sequence[str]) -> Fact | None:
    """The line that shares most of the question's words and says something beyond them; None when
    the question ranks a list (which item is "the newest" no shared word tells) or no line does."""
    asked = set(words_of(question))
    words = [w for w in words if not RANKED.fullmatch(w)]  # "newest" is how it ranks, not what it is about
    faq = _answered_below(lines, words)
    if faq is not None:
        return yes_or_no(question, faq) if kind == "yes_no" else Fact(value=faq, line=faq, kind=kind)
    ranked = sorted(
        ((_score(line, words), i) for i, line in enumerate(lines)
         if set(words_of(line)) - asked),  # a line that only repeats the question answers nothing
        key=lambda p: (-p[0], p[1]),
    )  # fmt: skip
    if not ranked or ranked[0][0] < _enough(words, kind):
        return None
    at = ranked[0][1]
    tied = [(i, lines[i]) for sc, i in ranked if sc == ranked[0][0]]
    if kind == "text" and RANKED.search(question):
        picked = ranked_pick(question, tied)
        if picked is None:
            return None
        at = picked[0]
    elif kind == "text" and len({line for _, line in tied}) > 1:
        return None  # two lines say as much of it: which one is meant, the words do not tell
    if kind == "yes_no":
        return yes_or_no(question, lines[at])
    return Fact(value=lines[at], line=lines[at], kind=kind)


def _enough(words: Sequence[str], kind: FactKind) -> float:
    """How much of the question a line must share: all of one or two words, two of three and more
    for a line quoted as the answer ("how do I *cancel* my booking" is not "change my booking")."""
    if len(words) <= 2 and kind == "text":
        return 1.0
    return 0.66 if kind == "text" else (0.5 if len(words) > 1 else 1.0)


def _answered_below(lines: Sequence[str], words: Sequence[str]) -> str | None:
    """A page of questions and answers (a FAQ, a help centre): the page's question that is the
    person's (all of its words, or all but one of four and more), answered by the line under it."""
    scored = sorted(
        ((_score(line, words), i) for i, line in enumerate(lines[:-1]) if line.rstrip().endswith("?")),
        key=lambda p: (-p[0], p[1]),
    )
    need = 1.0 if len(set(words)) <= 3 else 0.75
    if not scored or scored[0][0] < need or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    at = scored[0][1]
    return None if lines[at + 1].rstrip().endswith("?") else lines[at + 1]


def _what_it_says(question: str, lines: Sequence[str], text: str) -> Fact | None:
    """ "What does the maintenance notice say?": the gist of a page about the notice (its title or
    headings name it); a page that only mentions or links it does not say it."""
    specific = set(topic(question)) - GENERIC
    if specific and not specific <= set(words_of(" ".join(lines[:2]))):  # its title and first heading
        return None
    gist = summary_sentence(text, 3)
    return Fact(value=gist, line=gist, kind="text") if gist else None


def _card(lines: Sequence[str], i: int) -> str:
    """A fact's line with the three above it (its card) and the page's first lines (its title)."""
    return " ".join([*lines[max(0, i - 3) : i + 1], *lines[:5]])


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
        # "Drill" / "Jigsaw" are two items of a list, not a label and its value
        a_value = a_value and (bool(re.search(r"[\d@]", value)) or len(value.split()) >= 2)
        if (
            0 < len(label.split()) <= 3
            and not re.search(r"\d|[:.!?]$", label)
            and ":" not in label
            and a_value
            and label != value  # a title repeated as the heading labels nothing
        ):
            out.append(f"{label}: {value}")
    return out


def labelled_fact(question: str, text: str) -> Fact | None:
    """The value a "Label: value" line gives for the question's subject, or None."""
    return _labelled(text, topic(question), "text", question)


def _labelled(text: str, words: Sequence[str], kind: FactKind, question: str) -> Fact | None:
    """A "Label: value" line whose label is the question's subject ("Renewal date: 1 March 2027")."""
    found: list[tuple[float, str, str]] = []
    for raw in _label_lines(text):
        label, sep, value = raw.partition(":") if ":" in raw else raw.partition("\t")
        label, value = label.strip(), value.strip()
        if not sep or not value or len(label) > 40 or not label:
            continue
        named = set(words_of(label))
        score = len(named & set(words)) / len(named) if named else 0.0
        if score >= 0.5:
            found.append((score, " ".join(raw.split()), value))
    if not found:
        return None
    top = max(f[0] for f in found)
    tied = [f for f in found if f[0] == top]
    _, line, value = tied[0]
    if RANKED.search(question) and len({v for _, _, v in tied}) > 1:
        picked = ranked_pick(question, [(n, v) for n, (_, _, v) in enumerate(tied)])
        if picked is None:
            return None  # "the newest meetup" among several labelled meetups: which one, no label says
        _, line, value = tied[picked[0]]
    if kind in ("text", "item", "yes_no"):
        value = re.split(r"(?<=\S)[.;]\s+(?=[A-Z])", value)[
            0
        ]  # "QX7L2P. Seat 34A.": the value ends with its sentence
        if kind == "text" and set(words_of(value)) <= set(words_of(question)):
            return None  # "Notices: Workshop maintenance notice" only repeats what was asked about
        return Fact(value=value, line=line, kind=kind)
    typed = _of_kind(kind, value, question)
    return Fact(value=typed, line=line, kind=kind) if typed else None


# --- tables ---------------------------------------------------------------------------------------
