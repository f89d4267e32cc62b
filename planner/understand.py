"""Query understanding. Task text + ContextPack -> TaskSpecV1, with secrets held apart.

Secrets are cut out first, so nothing downstream (entities, payload, the plan, a model prompt)
ever reads a password, token or card number: only `Understanding.secrets` holds the values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pydantic import SecretStr

from planner import lexicon as lx
from planner._text import Text, has_terms, search_terms
from planner.ask_reader import read_asks
from planner.ask_words import SUBMITTING
from planner.asks import AnswerAsk, Ask, AskList
from planner.context import build_context, detect_language
from planner.entities import extract_entities
from planner.models import Constraints, ContextPack, Entity, Intent, RiskFlag, TaskSpecV1
from planner.payload import extract_payload
from planner.secrets import extract_secrets
from planner.task_signals import TextFlags, read_flags

#: domain -> words that suggest it; the domain with most hits wins, ties go to the first listed.
DOMAINS: dict[str, tuple[str, ...]] = {
    "finance": ("stock", "stocks", "shares", "datafeed", "invest", "investment", "bank", "loan",
                "interest rate", "bitcoin", "crypto", "fund", "chứng khoán", "cổ phiếu", "tài chính",
                "đầu tư", "ngân hàng", "lãi suất", "vay", "quỹ", "giá vàng", "tỷ giá"),
    "travel": ("flight", "flights", "hotel", "hotels", "airbnb", "trip", "travel", "vé máy bay",
               "khách sạn", "du lịch", "chuyến bay", "đặt phòng", "đặt vé"),
    "shopping": ("buy", "cart", "checkout", "laptop", "smartphone", "shop", "deal", "discount", "mua",
                 "giỏ hàng", "sản phẩm", "giảm giá"),
    "software": ("github", "api", "python", "library", "framework", "sdk", "saas", "pricing plan",
                 "repository", "npm", "docker", "phần mềm", "thư viện", "lập trình"),
    "news": ("news", "headline", "tin tức", "thời sự", "báo"),
    "health": ("doctor", "clinic", "symptom", "hospital", "bác sĩ", "bệnh viện", "triệu chứng"),
    "education": ("course", "university", "school", "học", "khóa học", "trường", "đại học"),
    "email": ("gmail", "inbox", "outlook", "hộp thư"),
}  # fmt: skip


_PII_KEYS = frozenset(
    {"name", "first_name", "last_name", "email", "phone", "address", "password", "card_number"}
)


@dataclass(frozen=True)
class Understanding:
    """The spec (placeholders only) and, apart from it, the secret values the task declared."""

    spec: TaskSpecV1
    context: ContextPack
    secrets: dict[str, SecretStr] = field(default_factory=dict)
    flags: TextFlags | None = None

    def __repr__(self) -> str:
        return f"Understanding(spec={self.spec!r}, secrets={sorted(self.secrets)})"


def intent_of(flags: TextFlags) -> Intent:
    """Order of reading and changing: own state read first is D unless the task only changes it
    ("cancel my order 5521" is B); reading then changing is C; reading alone is A."""
    research = flags.research and not flags.no_research
    if flags.state_first and (research or not flags.action):
        return Intent.ACTION_THEN_RESEARCH
    if research and flags.action:
        return Intent.RESEARCH_THEN_ACTION
    if flags.action:
        return Intent.ACTION
    if research or flags.this_page:
        return Intent.RESEARCH
    return Intent.UNCLEAR


def _with_asks(intent: Intent, asks: AskList, has_page: bool) -> Intent:
    """Asks that act on a named page ("search the shop for blue mug", "sort the table by price",
    "archive the newsletter") make the task act; questions about the page whose only acting words
    were ruled out ("which plan suits us? Do not sign up") make it read. Research the person asked
    for (the best, the cheapest, a question first) keeps research before the action."""
    if not has_page or not asks.asks:
        return intent
    acting = [a for a in asks.asks if a.kind != "answer"]
    if not acting:
        ruled_out = bool(asks.forbidden) and not asks.unread
        return Intent.RESEARCH if ruled_out and intent is not Intent.ACTION_THEN_RESEARCH else intent
    if intent in (Intent.RESEARCH, Intent.UNCLEAR):
        return Intent.ACTION
    if intent is Intent.RESEARCH_THEN_ACTION and not any(_weighs(a) for a in asks.asks) and not asks.unread:
        return Intent.ACTION  # "search the shop", "go through the wizard": the page's own words, not research
    return intent


#: Words that ask to weigh options: research before acting.
_WEIGHING = re.compile(
    r"(?i)\b(?:best|better|cheapest|most|least|top|good|great|right|affordable|suit|fit|reviews?|rated|compare|"
    r"which|recommend|tốt nhất|rẻ nhất|phù hợp|nhất|tot nhat|re nhat)\b"
)


def _weighs(ask: Ask) -> bool:
    if isinstance(ask, AnswerAsk):
        return True
    text = {"search": "query", "choose": "option", "press": "item"}.get(ask.kind)
    return bool(text and _WEIGHING.search(str(getattr(ask, text, ""))))


def domain_of(text: Text) -> str | None:
    best: tuple[int, str | None] = (0, None)
    for domain, words in DOMAINS.items():
        hits = len({m.group(0) for m in search_terms(text, words)})
        if hits > best[0]:
            best = (hits, domain)
    return best[1]


def risks_of(
    text: Text, flags: TextFlags, intent: Intent, payload: dict[str, str], secrets: int
) -> list[RiskFlag]:
    """Risk flags; login/payment/side effects only count when the task acts, PII whenever it is named."""
    acting = intent not in (Intent.RESEARCH, Intent.UNCLEAR)
    risks: list[RiskFlag] = []
    if acting and flags.login:
        risks.append(RiskFlag.LOGIN)
    if acting and flags.payment:
        risks.append(RiskFlag.PAYMENT)
    if secrets or any(k in payload for k in _PII_KEYS) or (acting and has_terms(text, lx.PII_WORDS)):
        risks.append(RiskFlag.PII)
    if acting and (flags.form or flags.wants_submit or flags.send or flags.payment or flags.delete):
        risks.append(RiskFlag.EXTERNAL_SIDE_EFFECT)
    if acting and (flags.delete or flags.payment):
        risks.append(RiskFlag.IRREVERSIBLE)
    return risks


def understand(task: str, context: ContextPack | None = None) -> Understanding:
    """Pure and deterministic: the same task and context give the same spec (ids aside)."""
    scan = extract_secrets(task.strip())
    text = Text(scan.text)
    flags = read_flags(text)
    context = context or build_context(scan.text)
    entities, budget, deadline = extract_entities(text)
    intent = intent_of(flags)
    asks = read_asks(scan.text)
    has_page = any(e.kind == "url" for e in entities) or bool(context.active_tab.url)
    intent = _with_asks(intent, asks, has_page)
    acting = intent not in (Intent.RESEARCH, Intent.UNCLEAR)
    payload = extract_payload(text) if acting else {}
    for ref in scan.refs:
        if ref.kind == "card_number" and acting:
            payload.setdefault("card_number", ref.placeholder)
        if ref.name == "card_cvv" and acting:
            payload.setdefault("cvv", ref.placeholder)
        if ref.kind == "password" and acting:
            payload.setdefault("password", ref.placeholder)
    named = {payload[k]: k for k in ("name", "company") if k in payload}
    entities = [
        e for e in entities if not (e.kind == "product" and any(e.value in v for v in payload.values()))
    ]
    entities += [Entity(kind="name" if k == "name" else "company", value=v) for v, k in named.items()]
    research = intent in (Intent.RESEARCH, Intent.RESEARCH_THEN_ACTION, Intent.ACTION_THEN_RESEARCH)
    constraints = Constraints(
        no_submit=flags.no_submit or any(f in SUBMITTING for f in asks.forbidden),
        must_have_citations=research or (flags.citations and intent is not Intent.UNCLEAR),
        language=detect_language(scan.text),
        deadline=deadline,
        max_price=budget,
    )
    spec = TaskSpecV1(
        user_query=scan.text,
        intent=intent,
        entities=entities,
        constraints=constraints,
        domain_hint=domain_of(text),
        risk_flags=risks_of(text, flags, intent, payload, len(scan.refs)),
        payload=payload,
        secrets=scan.refs,
        asks=asks if has_page else AskList(forbidden=asks.forbidden),
    )
    return Understanding(spec=spec, context=context, secrets=scan.values, flags=flags)
