"""Sub-queries with roles (official / news / data / background) for research steps."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from common.secrecy import PLACEHOLDER
from planner import lexicon as lx
from planner._text import Text, collapse_spaces, search_terms
from planner.models import Intent, SubQuery, SubQueryRole, TaskSpecV1
from planner.task_signals import blank

_FILLER = (
    "please", "can you", "could you", "help me", "for me", "i want to", "i need to", "i'd like to",
    "hãy", "giúp tôi", "giúp mình", "cho tôi", "cho mình", "tôi muốn", "mình muốn", "làm ơn", "vui lòng",
    "and then", "then", "rồi", "sau đó", "và", "the", "a", "an", "about", "with sources", "with citations",
    "me", "is", "are", "on", "latest", "có nguồn", "nguồn", "dẫn nguồn", "giúp",
)  # fmt: skip
#: Words that carry no topic: a search engine given "Open and plans it offers" finds nothing useful.
_STOP = (
    "it", "its", "they", "them", "their", "this", "that", "these", "those", "of", "for", "to", "in",
    "at", "by", "from", "with", "and", "or", "does", "do", "did", "i", "my", "you", "your", "we", "our",
    "us", "be", "was", "were", "has", "have", "had", "will", "would", "should", "could", "can", "there",
    "here", "all", "every", "each", "any", "some", "it offers", "they offer", "page", "site", "của",
    "các", "những", "đó", "trên", "ở", "là", "có", "cho", "với", "mà", "không", "được", "trang", "bài",
)  # fmt: skip
_DROPPED = lx.RESEARCH + lx.READING + lx.NAVIGATE + _FILLER + _STOP + lx.NO_SUBMIT
_BARE = lx.RESEARCH + lx.READING + _FILLER + lx.NO_SUBMIT
_WORDS = {
    "official": {"en": "official documentation terms", "vi": "trang chính thức điều khoản"},
    "data": {"en": "pricing packages comparison table", "vi": "bảng giá các gói"},
    "news": {"en": "latest news", "vi": "tin tức mới nhất"},
    "reviews": {"en": "reviews", "vi": "đánh giá"},
}
_MAX = 5


def research_clause(spec: TaskSpecV1) -> str:
    """The part of the task that asks for research: up to the first action verb, if one follows."""
    text = Text(spec.user_query)
    if spec.intent is Intent.RESEARCH:
        return text.original
    actions = [m for m in search_terms(blank(text, lx.NOT_ACTION), lx.ACTION) if m.start() > 0]
    research = search_terms(text, lx.RESEARCH)
    cut = len(text.original)
    if actions and research and research[0].start() < actions[0].start():
        cut = actions[0].start()
    return text.original[:cut]


def bare_topic(spec: TaskSpecV1) -> str:
    """The research topic with nothing filled in: empty when the task names no subject at all."""
    clause = re.sub(r"\([^)]*\)|" + PLACEHOLDER.pattern, " ", research_clause(spec))
    text = Text(clause)
    chars = list(clause)
    for m in search_terms(text, _BARE):
        for i in range(m.start(), m.end()):
            chars[i] = " "
    return collapse_spaces(re.sub(r"[^\w\s$€£.,/:-]+|[?!.,;:]+(?=\s|$)", " ", "".join(chars)))


def topic_of(spec: TaskSpecV1) -> str:
    """The research clause's content words: no verbs (research, reading, navigation), filler, stop
    words, secrets, URLs or parentheses. The whole query only when nothing is left."""
    clause = re.sub(r"\([^)]*\)|" + PLACEHOLDER.pattern + r"|https?://\S+", " ", research_clause(spec))
    text = Text(clause)
    chars = list(clause)
    for m in search_terms(text, _DROPPED):
        for i in range(m.start(), m.end()):
            chars[i] = " "
    topic = collapse_spaces(re.sub(r"[?!.,;:]+(?=\s|$)", " ", "".join(chars)))
    site = _site_name(spec)
    if topic and site and site.casefold() not in topic.casefold():
        topic = f"{site} {topic}"
    return topic or collapse_spaces(spec.user_query)[:120]


def _site_name(spec: TaskSpecV1) -> str:
    """The first named site's name ("saas" for saas.example.com): what the page's facts are about."""
    for e in spec.entities:
        host = urlsplit(e.value).hostname or "" if e.kind == "url" else ""
        if host and not _is_address(host):
            return host.removeprefix("www.").split(".")[0]
    return ""


def _is_address(host: str) -> bool:
    """An IP address or localhost names no product: "127 plans and features" searches nothing."""
    return host == "localhost" or bool(re.fullmatch(r"[\d.]+|\[?[0-9a-fA-F:]+\]?", host))


def state_topic(spec: TaskSpecV1) -> str:
    """For mode D: what the state belongs to (named products, else the site's host name)."""
    names = [e.value for e in spec.entities if e.kind == "product"]
    hosts = [urlsplit(e.value).hostname or "" for e in spec.entities if e.kind == "url"]
    names += [h.removeprefix("www.").split(".")[0] for h in hosts if h and not _is_address(h)]
    return " ".join(dict.fromkeys(n for n in names if n))


def generate_sub_queries(
    spec: TaskSpecV1, *, compare: bool, data: bool, news: bool, state: bool = False
) -> list[SubQuery]:
    """Deterministic, at most five, deduplicated; roles follow what the task asks about."""
    lang = "vi" if spec.constraints.language == "vi" else "en"
    topic = topic_of(spec)
    if state and state_topic(spec):
        topic = f"{state_topic(spec)} {'các gói và tính năng' if lang == 'vi' else 'plans and features'}"
    products = [e.value for e in spec.entities if e.kind == "product"][:3]
    out: list[SubQuery] = [SubQuery(q=topic, role=SubQueryRole.BACKGROUND, lang=lang)]
    if compare and len(products) >= 2:
        for product in products:
            out.append(SubQuery(q=f"{product} {_WORDS['data'][lang]}", role=SubQueryRole.DATA, lang=lang))
        out.append(
            SubQuery(
                q=f"{' vs '.join(products)} {_WORDS['reviews'][lang]}", role=SubQueryRole.NEWS, lang=lang
            )
        )
    elif data or compare:
        out.append(SubQuery(q=f"{topic} {_WORDS['data'][lang]}", role=SubQueryRole.DATA, lang=lang))
    out.append(SubQuery(q=f"{topic} {_WORDS['official'][lang]}", role=SubQueryRole.OFFICIAL, lang=lang))
    if news:
        out.append(SubQuery(q=f"{topic} {_WORDS['news'][lang]}", role=SubQueryRole.NEWS, lang=lang))
    budget = next((e.value for e in spec.entities if e.kind == "budget"), None)
    if budget:
        word = "dưới" if lang == "vi" else "under"
        out.append(SubQuery(q=f"{topic} {word} {budget}", role=SubQueryRole.DATA, lang=lang))
    seen: set[str] = set()
    unique: list[SubQuery] = []
    for sq in out:
        key = sq.q.casefold()
        if key not in seen:
            seen.add(key)
            unique.append(sq)
    return unique[:_MAX]
