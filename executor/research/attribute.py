"""Answer the question that was asked: when a task asks for an attribute of something ("What does
the Enterprise package cost?", "Which plan allows SSO?", "What is Pro's API limit?"), lead with that
fact, found in FETCH_DATA records first, then in the pages' sentences, cited as [n].

The comparison and summaries that follow stay as they were; this module only writes the first line,
and writes nothing when the question asks for no attribute or the evidence does not hold it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from executor.models import EvidenceItem
from executor.research.answers import marker, price_text, unique_records
from executor.research.extract import label
from executor.research.supporting_sentences import Sentence, cite, names
from executor.research.text import tokens

_PRICE_Q = re.compile(
    r"(?i)\b(?:cost|costs|price|prices|pricing|how much|fee|fees|charge|giá|gia|bao nhiêu|bao nhieu|phí)\b"
)
_WHICH_Q = re.compile(
    r"(?i)\b(?:which|what)\s+(?:plans?|packages?|tiers?|options?)\b|\bgói nào\b|\bgoi nao\b"
)
_URL = re.compile(r"https?://\S+")
#: Words of a question that name no attribute and no entity.
# fmt: off
_NOT_CONTENT = frozenset((
    "what", "which", "who", "when", "where", "how", "does", "do", "did", "is", "are", "was", "the", "a",
    "an", "of", "for", "to", "in", "on", "at", "it", "its", "this", "that", "these", "those", "plan",
    "plans", "package", "packages", "tier", "tiers", "option", "options", "allow", "allows", "allowed",
    "include", "includes", "including", "have", "has", "with", "offer", "offers", "support", "supports",
    "cost", "costs", "price", "much", "many", "per", "month", "year", "page", "site", "tell", "me",
    "please", "give", "show", "and", "or", "can", "could", "would", "should", "i", "my", "we", "our",
))
# fmt: on
_YES = re.compile(r"(?i)^(?:yes|✓|✔|included|unlimited|có|available|\d)")
_PERIOD = {"/mo": " per month", "/month": " per month", "/yr": " per year", "/year": " per year"}


def _entity(question: str, records: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The record the question names; the longest name wins ("Pro Plus" over "Pro")."""
    named = [r for r in records if names(question, str(r.get("name", "")))]
    return max(named, key=lambda r: len(str(r.get("name", ""))), default=None)


def _price(record: Mapping[str, Any]) -> str:
    shown = price_text(record)
    for short, long in _PERIOD.items():
        if shown.endswith(short):
            return shown[: -len(short)] + long
    return shown


def _content_words(question: str, entity: str | None) -> list[str]:
    drop = set(tokens(entity or ""))
    return [t for t in tokens(_URL.sub(" ", question)) if t not in _NOT_CONTENT and t not in drop]


def _field(record: Mapping[str, Any], words: Sequence[str]) -> tuple[str, str] | None:
    """The raw field whose label shares most words with the question ("API calls per day")."""
    raw = record.get("raw")
    if not isinstance(raw, Mapping) or not words:
        return None
    best: tuple[int, str, str] | None = None
    for key, value in list(raw.items())[1:]:
        hits = len(set(tokens(str(key))) & set(words))
        if hits and value and (best is None or hits > best[0]):
            best = (hits, str(key), str(value))
    return (best[1], best[2]) if best else None


def _offering(records: Sequence[Mapping[str, Any]], words: Sequence[str]) -> list[Mapping[str, Any]]:
    """Records with a field named by the question's words whose value says yes, or whose values
    mention the words ("SSO" in a features cell)."""
    out = []
    for r in records:
        raw = r.get("raw")
        if not isinstance(raw, Mapping):
            continue
        for key, value in list(raw.items())[1:]:
            label, cell = set(tokens(str(key))), set(tokens(str(value)))
            if (label & set(words) and _YES.match(str(value).strip())) or set(words) <= cell:
                out.append(r)
                break
    return out


def from_records(
    question: str, records: Sequence[dict[str, Any]], evidence: Sequence[EvidenceItem]
) -> str | None:
    """'Enterprise costs $999 per month [1].' / 'Pro: API calls per day 10,000 [1].' / 'Plans that
    include SSO: Team, Enterprise [1].'; None when the records do not answer the question."""
    records = unique_records(records)
    if not records:
        return None
    entity = _entity(question, records)
    src = marker(evidence, str(entity.get("source_url", ""))) if entity else ""
    words = _content_words(question, str(entity.get("name")) if entity else None)
    if entity is not None:
        field = _field(entity, words)
        if field is not None and not _PRICE_Q.search(field[0]):
            return f"{entity.get('name')}: {label(field[0])} {field[1]}{src}.".replace(":  ", ": ")
        if _PRICE_Q.search(question):
            return f"{entity.get('name')} costs {_price(entity)}{src}."
        return None
    if _WHICH_Q.search(question) and words:
        found = _offering(records, words)
        if found:
            cited = marker(evidence, str(found[0].get("source_url", "")))
            listed = ", ".join(f"{r.get('name')} ({_price(r)})" for r in found)
            return f"Plans that include {_as_written(question, words)}: {listed}{cited}."
    return None


def _as_written(question: str, words: Sequence[str]) -> str:
    """The question's own spelling of its content words ("SSO", not "sso")."""
    shown = [w for w in re.findall(r"[\w-]+", _URL.sub(" ", question)) if (tokens(w) or [""])[0] in words]
    return " ".join(dict.fromkeys(shown)) or " ".join(words)


def from_sentences(question: str, pool: Sequence[Sentence]) -> str | None:
    """The sentence holding most of the question's content words (at least two, or all of one)."""
    words = set(_content_words(question, None))
    if not words:
        return None
    scored = [(len(words & set(tokens(s.text))), -i, s) for i, s in enumerate(pool)]
    scored = [x for x in scored if x[0] >= min(2, len(words))]
    if not scored:
        return None
    return cite(max(scored, key=lambda x: (x[0], x[1]))[2])


def lead(
    question: str,
    records: Sequence[dict[str, Any]],
    pool: Sequence[Sentence],
    evidence: Sequence[EvidenceItem],
) -> str | None:
    """The answer to lead with: records first, then sentences; None when the question asks for no
    attribute (a plain "compare" or "summarize")."""
    if not (_PRICE_Q.search(question) or _WHICH_Q.search(question) or _asks(question)):
        return None
    return from_records(question, records, evidence) or from_sentences(question, pool)


_ASKS = re.compile(
    r"(?i)^\s*(?:what|which|who|when|where|how|is|are|does|do)\b|\?|\b(?:limit|limits|quota|date|"
    r"deadline|who|when|bao giờ|khi nào|ai là|là gì|giới hạn)\b"
)


def _asks(question: str) -> bool:
    return _ASKS.search(question) is not None


_SEARCH_STEPS = frozenset({"RETRIEVE", "WEB_SEARCH"})


def search_note(plan_steps: Sequence[Any], evidence: Sequence[EvidenceItem]) -> str | None:
    """When the plan's web search gave no evidence (it failed, or was not needed) but a page the
    task named did, say so: the answer stands on that page alone."""
    searches = {s.step_id for s in plan_steps if s.type_name in _SEARCH_STEPS}
    opened = {s.step_id for s in plan_steps if s.type_name == "OPEN_URL"}
    given = {e.step_id for e in evidence}
    if searches and opened & given and not searches & given:
        return "Note: no web search results were used; this answer comes from the page the task named."
    return None
