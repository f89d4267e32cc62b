"""Reads a task the way people write it into asks (planner/asks.py): one clause at a time, each
opened by a verb, with prohibitions set aside as constraints and questions kept as questions.

"Open URL, fill the name Carol Ng and email carol@example.com, then submit the form" reads as
fill name, fill email, submit. "Compare the plans ... which suits a team of eight? Do not sign up
for anything" reads as one question, with "sign up" forbidden: a prohibition never becomes a step.
What no verb explains is kept in `unread`, so the plan can say which part it will not do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from common.secrecy import PLACEHOLDER
from planner._text import fold
from planner.ask_coverage import cover
from planner.ask_verbs import verb_of
from planner.ask_words import (
    AT_URL,
    ING,
    JUST_LOOK,
    JUST_TELL,
    KEEP_REST,
    NEGATION,
    POLITE,
    QUESTION_START,
    URL,
    WITHOUT,
    as_question,
    fact_kind,
    forbidden_verb,
    is_field_word,
    noun_phrase,
)
from planner.asks import (
    AnswerAsk,
    Ask,
    AskList,
    FillAsk,
    OpenAsk,
    PressAsk,
    SubmitAsk,
    ToggleAsk,
)
from planner.field_values import read_list, unlisted

#: Between clauses: commas and "and"/"then" before a verb, sentence ends, "but".
_BREAK = re.compile(
    r"\s*(?:[;\n]|\s[-–—]\s|(?<=[.!?])\s+|,\s*(?:and\s+then|and|then|but|rồi|và|sau đó|nhưng)?"
    r"|\s(?:and\s+then|then|and|but|rồi|và|sau đó|nhưng)\s)\s*",
    re.I,
)

# --- prohibitions ---------------------------------------------------------------------------------


# --- questions ------------------------------------------------------------------------------------


# --- where a target lives -------------------------------------------------------------------------


# --- one clause -----------------------------------------------------------------------------------


@dataclass
class _Reading:
    asks: list[Ask]
    forbidden: list[str]
    unread: list[str]
    navigation_only: bool = False


_KEEP_WHOLE = re.compile(r"""["“][^"”]*["”]|""" + PLACEHOLDER.pattern)
#: A clause that only says where: "According to URL", "On URL".
_ONLY_PLACE = re.compile(
    r"(?i)^(?:according to|on|at|from|in|theo|trên|tại)?\s*(?:the\s+)?(?:page\s+)?(?:URL)?\W*$|^according to"
    r"\W*$"
)


_ASIDE = re.compile(r"\s*\(\s*((?:đừng|don'?t|do not|never|không|no|without)\b[^)]*)\)", re.I)
#: "frobnicate the widget": a clause with a verb the rules do not know (never part of a list of values).
VERB_OBJECT = re.compile(
    r"^(?!the\b|a\b|an\b|my\b|your\b|what\b|when\b|where\b|who\b|how\b|which\b|why\b)[a-z]{3,}\s+"
    r"(?:(?:the|a|an|my|your|this|that|all|some|every)\s|"
    r"(?:it|them|one|him|her|me|us)\b)"  # "reserve it": a verb of its own, never a value of the last
)
_OPENS_PAGE = re.compile(r"(?i)^(?:open|go to|visit|navigate to|head to|mở|vào|truy cập)\s+URL\W*$")
#: "... and what it costs": a question about what the question before it found.
_ABOUT_IT = re.compile(r"(?i)^(?:what|how much|when|where|how many)\s+(?:it|they|that one|this one|that)\b")


def _clauses(text: str) -> list[str]:
    """Pieces that each start with a verb (or a question); a piece without one continues the last
    (", email a@b.co and subject Billing" belongs to the fill before it). Quoted values and
    placeholders are never split."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    protected = _KEEP_WHOLE.sub(keep, text)
    parts = re.split(f"({_BREAK.pattern})", protected, flags=re.I)
    joined = [
        (re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], p), parts[i - 1] if i else "")
        for i, p in enumerate(parts)
        if i % 2 == 0 and p and p.strip() and not _ONLY_PLACE.match(p.strip())
    ]
    pieces = _share_subject([p for p, _ in joined])
    out: list[str] = []
    for piece, before in zip(pieces, (b for _, b in joined), strict=True):
        polite = POLITE.sub("", POLITE.sub("", piece.strip()))
        only = re.match(r"(?i)just\s", piece.strip()) and not (verb_of(polite) or as_question(polite))
        piece = piece.strip() if only else polite  # ", just the family events": which ones, not filler
        if JUST_LOOK.match(piece) or KEEP_REST.match(piece):
            continue  # "xem giúp mình", "check": where to look, already known
        asked = QUESTION_START.match(piece) is not None or as_question(piece) is not None
        continues_question = (
            bool(out)
            and as_question(out[-1]) is not None
            and not out[-1].rstrip().endswith("?")
            and QUESTION_START.match(piece) is None  # "..., how much storage am I using?" asks anew
        ) or (bool(out) and as_question(out[-1]) is not None and _ABOUT_IT.match(piece) is not None)
        after_page = (
            bool(out) and _OPENS_PAGE.match(out[-1]) is not None
        )  # "Open URL, frobnicate ...": its own
        unknown_verb = VERB_OBJECT.match(piece) is not None and verb_of(piece) is None  # "frobnicate the x"
        starts = not _ONLY_THESE.match(piece) and (
            verb_of(piece) is not None
            or (asked and not continues_question)
            or NEGATION.match(piece)
            or after_page
            or unknown_verb
        )
        if out and not starts:
            joiner = ", " if not out[-1].endswith((".", "?", "!")) else " "
            if _SEARCHED.match(out[-1]) and re.fullmatch(r"(?i)\s+(?:and|và)\s+", before):
                joiner = before  # "search for Pride and Prejudice": one title, not a list
            out[-1] = f"{out[-1]}{joiner}{piece}"
        else:
            out.append(piece)
    return out


#: ", but only jazz nights", "just the family events": which ones of what the clause before asks for.
_ONLY_THESE = re.compile(r"(?i)^(?:but\s+|nhưng\s+)?(?:only|just|chỉ)\s")
_SEARCHED = re.compile(r"(?i)^(?:search|look up|find|tìm)\b")
_QUESTION_WORD = r"(?:when|where|who|what time|what date|how much|how many|why)"
_BARE_QUESTION = re.compile(rf"(?i)^{_QUESTION_WORD}\W*$")
_ASKED_ABOUT = re.compile(rf"(?i)^{_QUESTION_WORD}\s+(?P<rest>.+)$")


def _share_subject(pieces: list[str]) -> list[str]:
    """ "When and where is the meetup?": the bare "When" asks about the same subject as the question
    after it ("when is the meetup"), not about nothing."""
    out = list(pieces)
    for i in range(len(out) - 2, -1, -1):
        after = _ASKED_ABOUT.match(out[i + 1].strip())
        if _BARE_QUESTION.match(out[i].strip()) and after is not None:
            out[i] = f"{out[i].strip().rstrip(',')} {after.group('rest')}"
    return out


def read_asks(task: str) -> AskList:
    """The task's asks, prohibitions and unread parts, in the order the person gave them."""
    reading = _Reading(asks=[], forbidden=[], unread=[])
    text = URL.sub(lambda m: "URL" if m.group(0) else "", task)
    text = AT_URL.sub(" ", text)
    text = _ASIDE.sub(r". \1.", text)  # "(đừng submit)": a prohibition said in passing is one all the same
    for m in WITHOUT.finditer(text):
        reading.forbidden.append(
            ING.get(m.group("verb").lower(), m.group("verb").lower().removesuffix("ing"))
        )
    text = WITHOUT.sub("", text)
    read_only = bool(JUST_TELL.search(text))
    for clause in _clauses(text):
        _read_clause(clause, reading)
    if read_only:
        reading.forbidden.extend(
            w for w in ("submit", "send", "sign up", "buy") if w not in reading.forbidden
        )
        reading.asks = [a for a in reading.asks if a.kind in ("answer", "open", "search", "sort")]
    forbidden = list(dict.fromkeys(f for f in reading.forbidden if f))
    asks = [a for a in reading.asks if not _is_forbidden(a, forbidden)]
    asks, unread = _needs_join_choice(_found_then_used(asks), reading.unread)
    asks = asks if _IN_TURN.search(text) else _set_before_sent(asks)
    asks, unread = cover(task, asks, forbidden, unread)
    return AskList(asks=asks, forbidden=forbidden, unread=unread)


#: Words that put one thing after another ("sign up, then turn off the emails in settings").
_IN_TURN = re.compile(r"(?i)\b(?:then|after(?:wards)?|once|next|finally|later)\b|rồi|sau đó|sau khi")


def _set_before_sent(asks: list[Ask]) -> list[Ask]:
    """ "Register with jo@x.co and untick the marketing emails": a box or field named after the send
    belongs to the form being sent (a person sets it first), unless the task puts them in turn."""
    sent = next((i for i, a in enumerate(asks) if isinstance(a, SubmitAsk)), None)
    if sent is None:
        return asks
    settings = [a for a in asks[sent + 1 :] if isinstance(a, ToggleAsk | FillAsk) and not a.where]
    if not settings:
        return asks
    rest = [a for a in asks[sent:] if a not in settings]
    return [*asks[:sent], *settings, *rest]


#: A stated need: a number of people or seats, an amount of storage ("12 people", "200 GB").
_NEED = re.compile(r"(?i)\b\d[\d,.]*\s*(?:people|persons|users|seats|members|người|gb|tb|mb)\b")


_LISTED_QUESTION = re.compile(
    r"(?i)^(?P<qw>what(?:'s|’s| is| are| was| were)|tell me)\s+(?P<items>(?:the|its)\s.+)$"
)
_QUESTION_ITEM = re.compile(r"(?i),\s*(?:and\s+)?(?=(?:the|its)\s)|\s+and\s+(?=(?:the|its)\s)")
_OF_WHAT = re.compile(r"(?i)\s+(?:of|for|at|on|in)\s+\S.*$")


def _each_asked(question: str) -> list[str]:
    """ "What are the opening hours and the address of the clinic?": two facts, each its own question
    about the clinic, so an answer holding one of them is not taken for both."""
    m = _LISTED_QUESTION.match(question.strip().rstrip(" ?"))
    if m is None:
        return [question]
    parts = _QUESTION_ITEM.split(m.group("items"))
    if len(parts) < 2 or any(len(p.split()) > 8 for p in parts):
        return [question]
    tail = _OF_WHAT.search(parts[-1])
    of = tail.group(0) if tail else ""
    return [f"{m.group('qw')} {p if _OF_WHAT.search(p) else p + of}?" for p in parts if p.strip()]


_LOCATE = re.compile(
    r"(?i)^find\s+(?P<what>(?:the|my)\s+(?!\w+est\b|best\b|right\b|good\b|top\b|top-\w+|most\b|highly\b|popular\b).+)$"
)


def _found_then_used(asks: list[Ask]) -> list[Ask]:
    """ "Find the laser cutting meetup, open it and book a seat": what is found is then acted on, so
    it is the item to open, not a question answered with a line of the page. A choice ("find the
    cheapest plan and sign up") stays a question: its answer decides the action."""
    out: list[Ask] = []
    for i, ask in enumerate(asks):
        # "the/my X": one thing to locate; "a good course", "the best plan" are choices to research
        found = _LOCATE.match(ask.question) if isinstance(ask, AnswerAsk) else None
        later = [a for a in asks[i + 1 :] if not isinstance(a, AnswerAsk)]
        if found is not None and isinstance(ask, AnswerAsk) and ask.expects == "text" and later:
            out.append(OpenAsk(what=noun_phrase(found.group("what")), where=ask.where))
        else:
            out.append(ask)
    return out


def _needs_join_choice(asks: list[Ask], unread: list[str]) -> tuple[list[Ask], list[str]]:
    """ "We're 12 people and need roughly 200 GB. Cheapest plan that works?": the needs said in a
    sentence of their own are what the choice must meet, so they join its question."""
    needs = [u for u in unread if _NEED.search(u)]
    choice = next((a for a in asks if isinstance(a, AnswerAsk) and a.expects == "item"), None)
    if not needs or choice is None:
        return asks, unread
    joined = choice.model_copy(update={"question": f"{choice.question.rstrip(' ?')} for {'; '.join(needs)}"})
    return [joined if a is choice else a for a in asks], [u for u in unread if u not in needs]


def _read_clause(clause: str, reading: _Reading) -> None:
    negated = NEGATION.match(clause)
    if negated is not None:
        verb = forbidden_verb(negated.group("rest"))
        if verb:
            reading.forbidden.append(verb)
        return
    found = verb_of(clause)
    if found is not None:
        verb, reader, rest = found
        asks = reader(verb, rest)
        if asks is not None:
            reading.asks.extend(asks)
            return
    asked = as_question(clause)
    if asked is not None and QUESTION_START.match(clause) is None and VERB_OBJECT.match(clause.lower()):
        asked = None  # "can you fix the drill?": a request put politely, not a question about the page
    if asked is not None:
        reading.asks.extend(AnswerAsk(question=q, expects=fact_kind(q)) for q in _each_asked(asked))
        return
    listed = read_list(re.sub(r"^([^:,]{1,30}):\s*", r"\1 ", clause)) if found is None else []
    if listed and all(is_field_word(f.field) for f in listed):
        reading.asks.extend(FillAsk(field=f.field, value=f.value) for f in listed)
        # "Report a broken light at 12 Hang Bac, email a@b.co": the part that names no field is unread
        reading.unread.extend(i for i in unlisted(re.sub(r"^([^:,]{1,30}):\s*", r"\1 ", clause)))
        return
    if (found is None and clause.strip(" .") and clause.strip(" .") != "URL") or (
        found is not None and asks is None
    ):
        reading.unread.append(clause.strip(" ."))


def _is_forbidden(ask: Ask, forbidden: list[str]) -> bool:
    """An ask the person also ruled out ("sign up ... do not sign up") is dropped, never done."""
    if not forbidden:
        return False
    words = {fold(f) for f in forbidden}
    if isinstance(ask, SubmitAsk):
        said = {"login": "log in", "signup": "sign up", "send": "send", "order": "order", "book": "book",
                "reply": "reply", "save": "save", "confirm": "confirm"}[ask.purpose]  # fmt: skip
        return fold(said) in words or ("submit" in words and ask.purpose != "login")
    if isinstance(ask, PressAsk):
        return any(fold(ask.what.lower()).startswith(w) for w in words)
    return False
