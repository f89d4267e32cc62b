"""Routing signals: plain booleans read from the task, before any mode is chosen."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from planner import lexicon as lx
from planner._text import Text, has_terms, search_terms
from planner.models import ContextPack, Intent, RiskFlag, TaskSpecV1


class RiskLevel(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


_WH_START = re.compile(
    r"^\s*(?:what|which|how|why|when|where|who|is|are|should|can|could|do|does|tai sao|vi sao|"
    r"co nen|lam sao|the nao)\b"
)
_CLAUSE_BREAK = re.compile(r"\b(?:then|and then|roi|sau do)\b|;")


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


def read_flags(text: Text) -> TextFlags:
    action_text = blank(text, lx.NOT_ACTION + lx.NO_SUBMIT)
    no_submit = has_terms(text, lx.NO_SUBMIT)
    question = text.original.rstrip().endswith("?")
    action_hits = search_terms(action_text, lx.ACTION)
    howto = search_terms(text, lx.HOWTO)
    action = bool(action_hits) and not (howto and howto[0].start() <= action_hits[0].start())
    if action and question and _WH_START.match(text.folded) and not _CLAUSE_BREAK.search(text.folded):
        action = False  # "What is the best way to pay off a loan?" asks, it does not order
    return TextFlags(
        research=has_terms(text, lx.RESEARCH) or (question and not action),
        action=action,
        state_first=has_terms(text, lx.STATE_FIRST),
        no_research=has_terms(text, lx.NO_RESEARCH),
        no_submit=no_submit,
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
        question=question,
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
    if flags.state_first and needs_action:
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
        needs_state_first=flags.state_first and needs_action,
        risk_level=risk_level(spec.risk_flags),
        has_citations_required=spec.constraints.must_have_citations,
        has_target=has_target,
        no_submit=spec.constraints.no_submit,
        flags=flags,
        reasons=reasons,
    )
