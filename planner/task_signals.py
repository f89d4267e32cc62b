"""Routing signals: plain booleans read from the task, before any mode is chosen."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from planner import lexicon as lx
from planner._text import Text, has_terms, search_terms
from planner.intent import read_meaning
from planner.models import ContextPack, Intent, RiskFlag, TaskSpecV1


class RiskLevel(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


#: "Enterprise plan limits at https://...": a page named with data words and no verb is read.
_NAMES_PAGE = re.compile(r"https?://|\b[\w-]+\.[a-z]{2,}/")
_NOT_ACTION = lx.NOT_ACTION + lx.NO_SUBMIT
_URL = re.compile(r"https?://\S+|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/\S*", re.IGNORECASE)


@dataclass(frozen=True)
class TextFlags:
    """What the words of a task say, before the task is turned into a TaskSpec."""

    research: bool
    action: bool
    state_first: bool
    no_research: bool
    no_submit: bool
    wants_submit: bool
    login: bool
    payment: bool
    delete: bool
    send: bool
    download: bool
    form: bool
    citations: bool
    this_page: bool
    data: bool
    compare: bool
    news: bool
    question: bool


def blank(text: Text, phrases: tuple[str, ...]) -> Text:
    """The text with `phrases` replaced by spaces (same length), so their verbs are not read."""
    chars = list(text.original)
    for m in search_terms(text, phrases):
        for i in range(m.start(), m.end()):
            chars[i] = " "
    return Text("".join(chars))


#: "do not delete any of my files": a verb the person ruled out is no action to take.
_NEGATED = re.compile(r"(?i)\b(?:do\s+not|don[’']?t|never|without|đừng|không\s+được)\s+[\w-]+")


def without_negated(text: Text) -> Text:
    """The text with each ruled-out verb ("do not delete", "đừng xoá") blanked (same length)."""
    if not _NEGATED.search(text.original):
        return text
    return Text(_NEGATED.sub(lambda m: " " * len(m.group(0)), text.original))


def _without_urls(text: Text) -> Text:
    """URLs blanked: "/post/3" or "/visit" in an address is no verb."""
    if not _URL.search(text.original):
        return text
    return Text(_URL.sub(lambda m: " " * len(m.group(0)), text.original))


def read_flags(text: Text) -> TextFlags:
    action_text = _without_urls(without_negated(blank(text, _NOT_ACTION)))
    meaning = read_meaning(text, action_text)
    research = meaning.reads or (has_terms(text, lx.DATA_WORDS) and _NAMES_PAGE.search(text.folded))
    return TextFlags(
        research=bool(research),
        action=meaning.acts,
        state_first=meaning.reads_own_state,
        no_research=has_terms(text, lx.NO_RESEARCH),
        no_submit=has_terms(text, lx.NO_SUBMIT),
        wants_submit=has_terms(action_text, lx.SUBMIT_WORDS),
        login=has_terms(action_text, lx.LOGIN_WORDS) or "{{secret:password" in text.original,
        payment=has_terms(action_text, lx.PAYMENT_WORDS) or "{{secret:card_number" in text.original,
        delete=has_terms(action_text, lx.DELETE_WORDS),
        send=has_terms(action_text, lx.SEND_WORDS),
        download=has_terms(action_text, lx.DOWNLOAD_WORDS),
        form=has_terms(action_text, lx.FORM_WORDS),
        citations=has_terms(text, lx.CITATIONS),
        this_page=has_terms(text, lx.THIS_PAGE),
        data=has_terms(text, lx.DATA_WORDS),
        compare=has_terms(text, lx.COMPARE_WORDS),
        news=has_terms(text, lx.NEWS_WORDS),
        question=meaning.question,
    )


@dataclass(frozen=True)
class Signals:
    """The routing signals plus what the router and builders need to explain themselves."""

    needs_research: bool
    needs_action: bool
    needs_state_first: bool
    risk_level: RiskLevel
    has_citations_required: bool
    has_target: bool
    no_submit: bool
    flags: TextFlags
    reasons: list[str] = field(default_factory=list)


_HIGH = frozenset({RiskFlag.LOGIN, RiskFlag.PAYMENT, RiskFlag.IRREVERSIBLE})
_MEDIUM = frozenset({RiskFlag.PII, RiskFlag.EXTERNAL_SIDE_EFFECT})


def risk_level(flags: list[RiskFlag]) -> RiskLevel:
    if any(f in _HIGH for f in flags):
        return RiskLevel.HIGH
    if any(f in _MEDIUM for f in flags):
        return RiskLevel.MEDIUM
    return RiskLevel.LOW


def extract_signals(
    spec: TaskSpecV1, context: ContextPack | None = None, flags: TextFlags | None = None
) -> Signals:
    """Pure: the same spec and context always give the same signals (and reason codes).

    `flags` may be passed when the caller already read them from the same (scrubbed) task text.
    """
    flags = flags or read_flags(Text(spec.user_query))
    reasons: list[str] = []
    needs_research = spec.intent in (
        Intent.RESEARCH,
        Intent.RESEARCH_THEN_ACTION,
        Intent.ACTION_THEN_RESEARCH,
    )
    needs_action = spec.intent in (Intent.ACTION, Intent.RESEARCH_THEN_ACTION, Intent.ACTION_THEN_RESEARCH)
    if flags.research and needs_research:
        reasons.append("HAS_RESEARCH_VERBS")
    if flags.action and needs_action:
        reasons.append("HAS_ACTION_VERBS")
    if spec.intent is Intent.ACTION_THEN_RESEARCH:
        reasons.append("STATE_IN_UI")
    if flags.no_research:
        reasons.append("NO_RESEARCH_REQUESTED")
    tab_url = context.active_tab.url if context else None
    has_url = any(e.kind == "url" for e in spec.entities)
    has_target = has_url or bool(tab_url)
    if has_url:
        reasons.append("TARGET_URL_IN_TASK")
    elif tab_url:
        reasons.append("TARGET_ACTIVE_TAB")
    return Signals(
        needs_research=needs_research,
        needs_action=needs_action,
        needs_state_first=spec.intent is Intent.ACTION_THEN_RESEARCH,
        risk_level=risk_level(spec.risk_flags),
        has_citations_required=spec.constraints.must_have_citations,
        has_target=has_target,
        no_submit=spec.constraints.no_submit,
        flags=flags,
        reasons=reasons,
    )
