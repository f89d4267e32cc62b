"""Tolerant matching of a target's words against what the page offers (no browser needed).

Case, whitespace and surrounding punctuation never matter; near-miss spellings match when similar
enough (difflib ratio >= THRESHOLD); when nothing does, the closest names are the answer so the
model can correct itself instead of guessing.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from browser.models import ElementInfo, Target

THRESHOLD = 0.8
_TIE = 0.02
_SPACE = re.compile(r"\s+")
_EDGE_PUNCT = " \t\n:*?!.,;()[]\"'"


def normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip(_EDGE_PUNCT).casefold()


def similarity(query: str, candidate: str) -> float:
    """1.0 for equal after normalising; 0.9 when one holds the other as whole words; else difflib."""
    q, c = normalise(query), normalise(candidate)
    if not q or not c:
        return 0.0
    if q == c:
        return 1.0
    if re.search(rf"(^|\W){re.escape(q)}($|\W)", c) or re.search(rf"(^|\W){re.escape(c)}($|\W)", q):
        return 0.9
    return difflib.SequenceMatcher(None, q, c).ratio()


def field_of(target: Target, element: ElementInfo) -> str | None:
    """The element text a target kind is compared with; None when the element cannot match."""
    if target.role is not None:
        if (element.role or "").casefold() != target.role.casefold():
            return None
        return element.name
    if target.placeholder is not None:
        return element.placeholder
    if target.label is not None:
        return element.name if element.tag in {"input", "select", "textarea"} or element.role in {
            "textbox", "combobox", "listbox", "checkbox", "radio", "searchbox", "spinbutton", "slider",
            "switch",
        } else None  # fmt: skip
    if target.text is not None:
        return element.name
    return None


def query_of(target: Target) -> str:
    if target.role is not None:
        return target.name or ""
    return target.placeholder or target.label or target.text or ""


@dataclass
class FuzzyResult:
    """`best` holds the elements sharing the top score (one = a match, several = ambiguous)."""

    best: list[ElementInfo] = field(default_factory=list)
    score: float = 0.0
    closest: list[str] = field(default_factory=list)

    @property
    def matched(self) -> bool:
        return len(self.best) == 1 and self.score >= THRESHOLD

    @property
    def ambiguous(self) -> bool:
        return len(self.best) > 1 and self.score >= THRESHOLD


def fuzzy_match(
    target: Target, elements: Sequence[ElementInfo], limit: int = 5, purpose: Purpose | None = None
) -> FuzzyResult:
    """Scores every element the target kind (and the action's purpose) allows against the query."""
    query = query_of(target)
    scored: list[tuple[float, ElementInfo, str]] = []
    for element in elements:
        if not fits(purpose, element.tag, element.input_type, element.role):
            continue
        text = field_of(target, element)
        if text is None:
            continue
        if target.role is not None and target.name is None:
            scored.append((1.0, element, text))
            continue
        scored.append((similarity(query, text), element, text))
    if not scored:
        return FuzzyResult()
    scored.sort(key=lambda t: t[0], reverse=True)
    top = scored[0][0]
    best = [e for s, e, _ in scored if top - s <= _TIE]
    visible = [e for e in best if e.visible]
    if len(best) > 1 and len(visible) == 1:
        best = visible
    closest: list[str] = []
    for _, _, text in scored:
        if text and text not in closest:
            closest.append(text)
        if len(closest) >= limit:
            break
    return FuzzyResult(best=best, score=top, closest=closest)


Purpose = Literal["fill", "check", "select", "upload"]
_NOT_TYPABLE = {"checkbox", "radio", "button", "submit", "reset", "file", "image", "range", "color", "hidden"}


def fits(purpose: Purpose | None, tag: str, input_type: str | None, role: str | None) -> bool:
    """Whether an element can take the action: a fill never lands on a radio button, and so on."""
    tag, kind, role = tag.lower(), (input_type or "").lower(), (role or "").lower()
    if purpose is None:
        return True
    if purpose == "fill":
        return (
            tag == "textarea"
            or (tag == "input" and kind not in _NOT_TYPABLE)
            or (role in {"textbox", "searchbox", "combobox", "spinbutton"} and tag not in {"select", "input"})
        )
    if purpose == "check":
        return (tag == "input" and kind in {"checkbox", "radio"}) or role in {"checkbox", "radio", "switch"}
    if purpose == "select":
        return tag == "select" or (role in {"listbox", "combobox"} and tag != "input")
    return tag == "input" and kind == "file"
