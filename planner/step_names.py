"""Step names a person can read in the plan: "Open the pricing page", "Prefill the signup form".

A plan is shown before it runs, and a name like "Perform the action" tells the person nothing about
what they are asked to allow. Names are built from the task's own words and the page's address.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from common.lazy import lazy_pattern
from planner import lexicon as lx
from planner._text import Text, collapse_spaces, search_terms
from planner.asks import AskList
from planner.task_signals import TextFlags, blank

_URL = lazy_pattern(r"https?://\S+|(?<![@\w.])[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:/\S*)?", re.IGNORECASE)
_FILLING = ("form", "fill", "fill in", "fill out", "prefill", "pre-fill", "điền", "biểu mẫu", "nhập")
_CUT = lazy_pattern(r"[,;:(!?]|\.(?:\s|$)|\s(?:and|then|but|và|rồi|roi|sau đó)\s|\{\{", re.IGNORECASE)
_TRAILING = lazy_pattern(r"(?:\s+(?:at|on|from|to|via|of|for|with|trên|tại|ở|o|tai|tren|the|a))+\s*$", re.I)
_FORM_KINDS = (
    ("signup", ("sign up", "signup", "register", "registration", "đăng ký", "đăng kí", "trial")),
    ("contact", ("contact", "liên hệ", "support")),
    ("booking", ("book", "booking", "reserve", "reservation", "đặt phòng", "đặt vé", "đặt bàn", "đặt lịch")),
    ("application", ("apply", "application", "visa")),
    ("checkout", ("checkout", "check out", "payment", "thanh toán")),
    ("quote", ("quote", "báo giá")),
    ("consultation", ("tư vấn", "consultation")),
)
_MAX_WORDS = 7
_LOGIN_BLANK = (*lx.LOGIN_WORDS, "tên đăng nhập")
_SKIPPED = lx.NOT_ACTION + lx.NO_SUBMIT + lx.LOGIN_VERBS + lx.THIS_PAGE


def page_name(url: str) -> str:
    """'the pricing page' for https://x.com/pricing, 'saas.example.com' for a bare host."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    segments = [s for s in parts.path.split("/") if s]
    words: list[str] = []
    for segment in reversed(segments):
        words = [w for w in re.split(r"[-_.+]", segment.rsplit(".", 1)[0]) if w.isalpha()]
        if words:
            break
    if words:
        return f"the {' '.join(words[:4]).lower()} page"
    return parts.hostname or url


def open_name(url: str) -> str:
    return f"Open {page_name(url)}"


def read_state_name(url: str | None) -> str:
    return f"Read {page_name(url)}, change nothing" if url else "Read the page, change nothing"


def _form_kind(text: Text) -> str:
    for kind, words in _FORM_KINDS:
        if search_terms(text, words):
            return f"{kind} "
    return ""


def act_name(task: str, flags: TextFlags, *, no_submit: bool) -> str:
    """What the main ACT step does, in the task's words: "Prefill the signup form", "Star the repository"."""
    text = Text(task)
    if flags.form and (no_submit or search_terms(blank(text, _LOGIN_BLANK), _FILLING)):
        verb = "Prefill" if no_submit else "Fill in"
        return f"{verb} the {_form_kind(text)}form"
    without_urls = Text(_URL.sub(lambda m: "," + " " * (len(m.group(0)) - 1), text.original))
    hits = search_terms(blank(without_urls, _SKIPPED), lx.CHANGE)
    if not hits:
        return "Prefill the form" if no_submit else "Do the task on the page"
    rest = blank(without_urls, lx.THIS_PAGE).original[hits[0].start() :]
    cut = _CUT.search(rest)
    clause = collapse_spaces(rest[: cut.start()] if cut else rest)
    clause = " ".join(clause.split()[:_MAX_WORDS])
    clause = _TRAILING.sub("", clause).strip()
    return clause[:1].upper() + clause[1:] if clause else "Do the task on the page"


def ask_step_name(asks: AskList, *, no_submit: bool) -> str:
    """ "Fill name, email and subject; don't send", "Search for "blue mug"": the asks, short."""
    parts = [a.describe() for a in asks.asks if a.kind != "answer"][:3]
    if len(asks.asks) > 3:
        parts.append("…")
    name = "; ".join(parts) or "Do the task on the page"
    if no_submit or asks.forbidden:
        name += "; don't " + (" or ".join(asks.forbidden[:2]) or "submit")
    name = name[:1].upper() + name[1:]
    return name if len(name) <= 90 else name[:89] + "…"
