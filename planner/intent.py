"""What a task reads, what it changes, and in which order: the meaning the router works from.

Words alone mislead: "open" in "open URL and summarize it" navigates in order to read; "my cart" in
"add it to my cart" is where a change lands, not state to read; "can you fill ...?" is an order
phrased as a question. This module reads those distinctions once, so `signals.read_flags` and the
router work from (reads, changes, order) instead of from the first keyword that matches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from planner import lexicon as lx
from planner._text import Text, search_terms

#: The person's own state, named in English: "my (latest) invoice", "my current plan", "do I have on".
_OWN_EN = re.compile(
    r"\b(?:my|our|current|existing)\s+(?:[\w'-]+\s+){0,3}?(?:" + "|".join(lx.STATE_NOUNS_EN) + r")s?\b"
    r"|\b(?:do|did)\s+(?:i|we)\s+have\b|\b(?:am\s+i|are\s+we)\s+(?:on|using|subscribed|paying)\b"
    r"|\bi(?:'m|\s+am)\s+(?:on|using|subscribed|paying)\b|\bcurrently\s+(?:using|subscribed|on)\b"
)
#: ... and in Vietnamese (matched on folded text): "hóa đơn (tháng này) của tôi", "tôi đang dùng".
_OWN_VI = re.compile(
    r"\b(?:" + "|".join(lx.STATE_NOUNS_VI) + r")\b(?:\s+[\w/-]+){0,4}?\s+cua\s+(?:toi|minh)\b"
    r"|\b(?:toi|minh)\s+dang\s+(?:dung|bat|su dung|dang ky|o goi|xai)\b"
    r"|\b(?:goi|tai khoan)\s+hien\s+tai\b"
)
#: Where a change lands is not state to read: "add it to my cart", "remove ... from my account".
_CHANGE_TARGET = re.compile(
    r"\b(?:to|into|in|from)\s+(?:my|our)\s+(?:shopping\s+)?(?:cart|basket|wishlist|list)\b"
    r"|\bvao\s+gio(?:\s+hang)?(?:\s+cua\s+(?:toi|minh))?\b"
)
_EN_QUESTION = re.compile(
    r"^\s*(?:what|which|how|why|when|where|who|whose|is|are|should|does|do|did|was|were|has|have|"
    r"tai sao|vi sao|co nen|lam sao|the nao)\b"
)
_POLITE = re.compile(
    r"^\s*(?:please\s+)?(?:can|could|would|will)\s+you\b|^\s*please\b|\b(?:duoc khong|giup (?:toi|minh)|"
    r"ho (?:toi|minh)|co the)\b"
)
#: A second clause after a question or a "then": "Which is best? Sign me up for it".
_CLAUSE_BREAK = re.compile(r"\b(?:then|and then|roi|sau do)\b|;|\?\s*\S")


@dataclass(frozen=True)
class Meaning:
    """The task's intent as (what is read, what is changed, in which order)."""

    reads_own_state: bool
    reads: bool
    changes: bool
    navigates_after_reading: bool
    question: bool

    @property
    def acts(self) -> bool:
        return self.changes or self.navigates_after_reading


def own_state(text: Text) -> bool:
    """The task names state that only the person's own account shows (their plan, bill, settings)."""
    spans = [m.span() for m in _CHANGE_TARGET.finditer(text.folded)]
    if spans:
        chars = list(text.original)
        for a, b in spans:
            chars[a:b] = " " * (b - a)
        text = Text("".join(chars))
    return bool(_OWN_EN.search(text.folded) or _OWN_VI.search(text.folded)) or bool(
        search_terms(text, lx.STATE_FIRST)
    )


def is_question(text: Text) -> bool:
    """Asked, not ordered: a question mark or an English wh-/yes-no opening, and no polite request."""
    asked = "?" in text.original or bool(_EN_QUESTION.match(text.folded))
    return asked and not _POLITE.search(text.folded)


def read_meaning(text: Text, action_text: Text) -> Meaning:
    """`action_text` is `text` with phrases whose verbs are not actions blanked (same offsets)."""
    changes = search_terms(action_text, lx.CHANGE)
    navigation = search_terms(action_text, lx.NAVIGATE)
    research = search_terms(text, lx.RESEARCH) + search_terms(text, lx.READING)
    question = is_question(text)
    howto = search_terms(text, lx.HOWTO)
    if changes and howto and howto[0].start() <= changes[0].start():
        changes = []  # "how do I cancel my order?" asks for a guide
    if changes and question and not _CLAUSE_BREAK.search(text.folded):
        changes = []  # "What is the best way to pay off a loan?" asks, it does not order
    first_read = min((m.start() for m in research), default=None)
    after = [m for m in navigation if first_read is not None and m.start() > first_read]
    return Meaning(
        reads_own_state=own_state(text),
        reads=bool(research) or question,
        changes=bool(changes),
        navigates_after_reading=bool(after) and not changes and not question,
        question=question,
    )
