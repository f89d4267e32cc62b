"""Entities named in a task: URLs, emails, phones, amounts, budgets, dates, product and site names."""

from __future__ import annotations

import re

from planner._text import Text, fold
from planner.models import Entity

_URL = re.compile(r"\bhttps?://[^\s<>\"'()]+", re.IGNORECASE)
_DOMAIN = re.compile(
    r"(?<![@\w./-])((?:[a-z0-9-]+\.)+(?:com|vn|net|org|io|dev|ai|app|co|edu|gov|info|me|xyz|uk|de)"
    r"(?:\.[a-z]{2})?(?:/[^\s<>\"'(),]*)?)(?![\w@])",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
_PHONE = re.compile(r"(?<![\w{])(\+?\d[\d .-]{7,14}\d)(?![\w}])")
_AMOUNT = re.compile(
    r"(?i)(?P<cur1>\$|€|£|usd\s?|vnd\s?)?(?P<num>\d{1,3}(?:[.,]\d{3})+|\d+(?:[.,]\d+)?)\s?"
    r"(?P<unit>k\b|tr\b|triệu|trieu|tỷ|ty\b|nghìn|nghin|ngàn|ngan|million|m\b|bn\b|billion)?\s?"
    r"(?P<cur2>usd|vnd|vnđ|đồng|dong|đ\b|\$|eur|euro|dollars?)?"
)
_BUDGET_CUE = re.compile(
    r"(?i)(?:under|below|less than|at most|max(?:imum)?|budget(?: of| is)?|within|up to|"
    r"dưới|duoi|không quá|khong qua|tối đa|toi da|ngân sách|ngan sach|tầm|tam)\s*:?\s*$"
)
_DATE = re.compile(
    r"(?i)\b(\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|today|tomorrow|tonight|next week|"
    r"next month|this week|(?:on |by |before |next |this )?(?:monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday)|end of (?:the )?(?:day|week|month)|hôm nay|hom nay|ngày mai|ngay mai|"
    r"tuần sau|tuan sau|tuần tới|tuan toi|tháng sau|thang sau|cuối tuần|cuoi tuan|cuối tháng|cuoi thang|"
    r"thứ (?:hai|ba|tư|năm|sáu|bảy)|chủ nhật)\b"
)
_DEADLINE_CUE = re.compile(
    r"(?i)(?:\bby|\bbefore|\bdeadline|\bdue|trước|truoc|hạn chót|han chot|hạn)\s*:?\s*$"
)
_TOKEN = re.compile(r"[^\W_][\w+-]*[^\W_]|[^\W_]")
_SENTENCE_END = re.compile(r"[.!?:;\n(]\s*$")
_MONEY_AFTER = re.compile(r"(?i)^\s?(?:đ|vnd|vnđ|usd|\$|k|tr|triệu|trieu|dong|đồng)\b")
_UNIT_SCALE = {
    "k": 1e3, "nghin": 1e3, "ngan": 1e3, "tr": 1e6, "trieu": 1e6, "million": 1e6, "m": 1e6,
    "ty": 1e9, "bn": 1e9, "billion": 1e9,
}  # fmt: skip
#: Capitalised words that start a sentence or a command, not names (compared folded).
_STOP_PROPER = frozenset(
    {
        "i", "the", "a", "an", "please", "then", "and", "or", "open", "go", "fill", "research", "compare",
        "find", "summarize", "summarise", "explain", "what", "which", "how", "why", "check", "log", "sign",
        "download", "book", "buy", "send", "submit", "email", "name", "company", "phone", "password",
        "don't", "do", "search", "read", "look", "tell", "show", "visit", "click", "navigate", "register",
        "pay", "order", "delete", "remove", "enter", "type", "write", "give", "get", "is", "are", "my",
        "just", "use", "using", "with", "can", "could", "would", "should", "let", "help", "list", "when",
        "where", "who", "vao", "mo", "tim", "nghien", "so", "dien", "dang", "toi", "hay", "giup", "xem",
        "cho", "nhap", "gui", "mua", "dat", "tai", "tong", "phan", "giai", "kiem", "xoa", "huy", "lam",
        "bam", "nhan", "dung", "khong", "chua", "trang", "form", "url", "pdf", "ok", "hien", "goi", "cac",
        "nhung", "mot", "ban", "doc", "tra", "truy", "neu", "sau", "roi", "va", "thu", "ngay", "thang",
        "tuan", "nam", "mai", "hom",
    }
)  # fmt: skip
_DATE_WORDS = frozenset(
    ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow"]
)


def normalise_url(raw: str) -> str:
    raw = raw.rstrip(".,;:!?)")
    return raw if raw.lower().startswith(("http://", "https://")) else "https://" + raw


def find_urls(text: str) -> list[str]:
    urls = [normalise_url(m.group(0)) for m in _URL.finditer(text)]
    stripped = _URL.sub(" ", _EMAIL.sub(" ", text))
    urls += [normalise_url(m.group(1)) for m in _DOMAIN.finditer(stripped)]
    return list(dict.fromkeys(urls))


def parse_amount(num: str, unit: str | None) -> float | None:
    """ "5 triệu" -> 5e6, "1,200" -> 1200, "2.000.000" -> 2e6, "1.5k" -> 1500."""
    if re.fullmatch(r"\d{1,3}(?:[.,]\d{3})+", num):
        value = float(re.sub(r"[.,]", "", num))
    else:
        try:
            value = float(num.replace(",", "."))
        except ValueError:
            return None
    return value * _UNIT_SCALE.get(fold(unit or "").strip(), 1.0)


def _phones(text: str) -> list[str]:
    out: list[str] = []
    for m in _PHONE.finditer(text):
        raw = m.group(1).strip()
        digits = re.sub(r"\D", "", raw)
        if not raw.startswith(("+", "0")) or not 9 <= len(digits) <= 13:
            continue
        if _MONEY_AFTER.match(text[m.end() :]) or re.search(r"\d[.,]\d{3}[.,]\d{3}$", raw):
            continue
        out.append(raw)
    return list(dict.fromkeys(out))


def _amounts(text: str) -> tuple[list[Entity], float | None]:
    found: list[Entity] = []
    budget: float | None = None
    for m in _AMOUNT.finditer(text):
        has_money = bool(m.group("cur1") or m.group("cur2") or m.group("unit"))
        cue = _BUDGET_CUE.search(text[max(0, m.start() - 24) : m.start()])
        if not has_money and not cue:
            continue
        raw = m.group(0).strip()
        if cue:
            found.append(Entity(kind="budget", value=raw))
            value = parse_amount(m.group("num"), m.group("unit"))
            if value is not None and budget is None:
                budget = value
        else:
            found.append(Entity(kind="amount", value=raw))
    return found, budget


def extract_entities(text: Text) -> tuple[list[Entity], float | None, str | None]:
    """Entities in order of kind, the first budget as a number, and a deadline if one is cued."""
    original = text.original
    entities = [Entity(kind="url", value=u) for u in find_urls(original)]
    entities += [Entity(kind="email", value=e) for e in dict.fromkeys(_EMAIL.findall(original))]
    no_mail = _URL.sub(" ", _EMAIL.sub(" ", original))
    phones = _phones(no_mail)
    entities += [Entity(kind="phone", value=p) for p in phones]
    for p in phones:
        no_mail = no_mail.replace(p, " ")
    amounts, budget = _amounts(no_mail)
    entities += amounts
    deadline: str | None = None
    for m in _DATE.finditer(original):
        entities.append(Entity(kind="date", value=m.group(1)))
        if (deadline is None and _DEADLINE_CUE.search(original[max(0, m.start() - 16) : m.start()])) or (
            deadline is None and re.match(r"(?i)(by|before) ", m.group(1))
        ):
            deadline = m.group(1)
    for name in _proper_names(_EMAIL.sub(" ", original)):
        entities.append(Entity(kind="product", value=name))
    return entities, budget, deadline


def _proper_names(text: str) -> list[str]:
    """Runs of capitalised tokens; a command word or a weekday is never part of a name."""
    folded = fold(text)
    names: list[str] = []
    run: list[str] = []
    last_end = -1
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        gap = text[last_end : m.start()] if last_end >= 0 else "."
        inner_capital = not token[1:].islower() and any(c.isupper() for c in token[1:])
        capital = token[0].isupper() or inner_capital
        word = folded[m.start() : m.end()]
        stop = word in _STOP_PROPER or word in _DATE_WORDS
        if run and token.isdigit() and not gap.strip():
            run.append(token)  # "iPhone 16 Pro", "Dell XPS 13"
            last_end = m.end()
            continue
        if run and (gap.strip() or not capital or stop):
            names.append(" ".join(run))
            run = []
        sentence_start = _SENTENCE_END.search(gap) is not None
        if capital and not stop and not token.isdigit() and (not sentence_start or inner_capital):
            run.append(token)  # "FinAI", "iPhone" at a sentence start still read as names
        last_end = m.end()
    if run:
        names.append(" ".join(run))
    return list(dict.fromkeys(n for n in names if len(n) > 1 and "{" not in n))
