"""Reading a page's own words for what an ask needs: whether a line shows something ("Step 3 of 3:
Review"), and which option of a "Sort by" list sorts a column the asked way ("Cheapest first")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from browser.models import Observation
from planner import grounding as g
from planner.asks import SortAsk

_DESC_WORDS = re.compile(r"(?i)high(?:est)?\s*(?:to|-|→)\s*low|descending|most expensive|newest|z\s*-\s*a")


#: Sort options that name a column's order without naming the column ("Cheapest first").
_ORDER_WORDS = {
    "price": (("cheapest", "lowest price", "price low"), ("most expensive", "highest price", "price high")),
    "time": (("earliest",), ("latest",)), "date": (("oldest",), ("newest", "latest")),
    "duration": (("fastest", "shortest"), ("longest",)), "rating": (("lowest rated",), ("best rated",
                                                                                        "rating")),
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
    return next(iter(same_way or fitting), None)


def shows(obs: Observation, words: str) -> bool:
    """The visible page text holds every word of `words` on one line."""
    wanted = g.tokens(words)
    return (
        any(all(w in g.tokens(line) for w in wanted) for line in obs.text.splitlines()) if wanted else False
    )


#: A page saying it has nothing for what was asked ("No flights found ...", "0 results").
_NONE_FOUND = re.compile(
    r"(?i)\b(?:no\s+(?:[\w-]+\s+){0,2}(?:found|available|match(?:es|ed)?)|nothing\s+(?:found|matches)|0\s+results|"
    r"không\s+(?:tìm thấy|có\s+kết quả))"
)


def none_found(text: str) -> str | None:
    """The page's line that says nothing matched, cut to its sentence, or None."""
    for line in text.splitlines():
        m = _NONE_FOUND.search(line)
        if m is not None:
            return re.split(r"(?<=[.!?])\s", line[m.start() :].strip(), maxsplit=1)[0][:160]
    return None


#: A line that says something went wrong.
ERROR_TEXT = re.compile(
    r"(?i)\b(?:error|failed|invalid|incorrect|could not|couldn't|went wrong|try again|not allowed|denied|"
    r"bad request|server error)\b|lỗi|thất bại|không hợp lệ"
)
#: A line that says what the site wants changed: "Please fill in: street.", "Email is required".
_ASKS_FOR = re.compile(r"(?i)^(?:please|vui lòng)\b|\b(?:required|missing|must be|bắt buộc)\b")


def complaint(text: str) -> str | None:
    """The page's own sentence about a send it refused, the one saying what to change first."""
    lines = [" ".join(line.split()) for line in text.splitlines() if 3 < len(line.strip()) <= 200]
    return next((line for line in lines if _ASKS_FOR.search(line)), None) or next(
        (line for line in lines if ERROR_TEXT.search(line)), None
    )
