"""The words and shapes facts take on a page (dates, times, amounts, counts, addresses, names), what
a question is about, and a page's tables: shared by planner/facts.py and planner/table_facts.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from planner._text import fold
from planner.asks import FactKind

_MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|tháng\\s*\\d{1,2}"
)


DATE = re.compile(
    rf"\b(?:\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTHS})\.?(?:\s+\d{{4}})?|"
    rf"(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}|"
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:,?\s+\d{1,2}\s+\w+)?|"
    r"ngày\s+\d{1,2}(?:/\d{1,2})?(?:/\d{4})?)\b",
    re.I,
)


TIME = re.compile(r"\b\d{1,2}(?::\d{2})\s*(?:am|pm)?\b|\b\d{1,2}\s*(?:am|pm)\b", re.I)


MONEY = re.compile(
    r"(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:EUR|USD|GBP|VND|đ|₫|€|\$|dollars?|euros?)(?![\w])|"
    r"\d+[.,]\d{2}(?![\d]))",
    re.I,
)


_UNIT_WORDS = (
    "%|percent|metres|meters|metre|meter|m|km|kilometres|kilometers|miles|mi|cm|mm|kg|g|lb|lbs|tons|"
    "minutes|minute|mins|min|hours|hour|hrs|h|seconds|secs|s|days|day|weeks|week|months|month|years|year|"
    "gb|mb|tb|kb|users|user|people|seats|items|pieces|pcs|lanes|floors|storeys|stories|degrees|°c|°f|"
    "employees|staff|members|pages|calls|requests|projects|units|phút|giờ|ngày|năm|người|tháng"
)


NUMBER = re.compile(rf"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s?(?:{_UNIT_WORDS})(?![\w]))?", re.I)


EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
#: A telephone number: an optional +, then at least seven digits in groups ("+1 (555) 010-0199").
PHONE = re.compile(r"(?<![\w.+-])\+?(?:\(?\d[\d()]*\)?[ .-]?){3,}\d(?![\w.-]?\d)")


PERSON = re.compile(r"\b[A-Z][a-zà-ỹ'-]+(?:\s+[A-Z][a-zà-ỹ'-]+){1,3}\b")


_ASKING = re.compile(
    r"(?i)\b(?:tell|me|what|what's|whats|which|when|who|whom|whose|where|how|is|are|was|were|does|do|did|"
    r"the|a|an|of|on|in|at|to|for|shown|shows|show|listed|page|site|according|this|that|it|its|"
    r"please|take|takes|taking|place|happen|happens|there|cho|tôi|biết|là|gì|nào|bao|nhiêu|khi|được|vậy|mấy|"
    r"có|không|của|mình|thì|nhỉ|ạ|xem|giúp|say|says|said|linked|link|many|much)\b"
)


CHEAP = re.compile(r"(?i)\b(?:cheapest|least expensive|lowest price|lowest cost|rẻ nhất)\b")


DEAR = re.compile(r"(?i)\b(?:most expensive|priciest|highest price|đắt nhất)\b")


MOST = re.compile(
    r"(?i)\b(?:most|largest|biggest|highest|greatest|maximum|nhiều nhất|lớn nhất)\s+(?P<what>[\w ]+?)\b"
)


LEAST = re.compile(r"(?i)\b(?:fewest|least|smallest|lowest|minimum|ít nhất|nhỏ nhất)\s+(?P<what>[\w ]+?)\b")


#: Units of a need ("a team of 8", "50 GB") and the column words that hold them.
UNITS: dict[str, tuple[str, ...]] = {
    "users": ("user", "users", "people", "person", "persons", "seats", "seat", "members", "member", "team of",
              "người", "thành viên"),
    "gb": ("gb", "gigabytes", "storage"),
    "tb": ("tb", "terabytes"),
    "projects": ("projects", "project", "dự án"),
}  # fmt: skip


WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
                 "fifty": 50}  # fmt: skip


@dataclass(frozen=True)
class Fact:
    """The answer (`value`), the page line it stands on, and whether the page could satisfy the
    question (False: a recommendation no row meets, an item the page does not list)."""

    value: str
    line: str
    kind: FactKind
    satisfied: bool = True
    because: str = ""


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def column(self, words: str) -> int | None:
        want = set(words_of(words))
        best: tuple[float, int | None] = (0.0, None)
        for i, name in enumerate(self.header):
            have = set(words_of(name))
            if want & have:
                score = len(want & have) / len(want | have)
                if score > best[0]:
                    best = (score, i)
        return best[1]


def words_of(text: str) -> list[str]:
    out = []
    for w in re.findall(r"[a-z0-9]+", fold(text.lower())):
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.append(w)
    return out


#: Vietnamese words of a question with the English a page uses for them.
_GLOSS = (
    ("dung lượng", "storage"), ("thư chưa đọc", "unread"), ("chưa đọc", "unread"), ("hộp thư", "inbox"),
    ("giá", "price"), ("người dùng", "users"), ("còn hàng", "in stock"), ("tồn kho", "in stock"),
    ("hóa đơn", "invoice"), ("gói", "plan"), ("chuyến bay", "flight"), ("thẳng", "direct"),
    ("cất cánh", "departs"), ("hạ cánh", "arrives"), ("ngày gia hạn", "renewal date"), ("gia hạn", "renew"),
)  # fmt: skip


def topic(question: str, *, english: bool = False) -> list[str]:
    """The question's own subject words ("team offsite", "notebooks in stock"); Vietnamese words
    also in the English a page shows for them (only in that English when `english`: a link named
    "Pricing" is about "gói ... dung lượng" as "plan storage")."""
    text = question
    for vi, en in _GLOSS:
        if vi in text.lower():
            text = re.sub(re.escape(vi), " ", text, flags=re.I) if english else text
            text = f"{text} {en}"
    return [w for w in words_of(_ASKING.sub(" ", text)) if len(w) > 1]


def number(text: str) -> float | None:
    m = re.search(r"-?\d[\d,]*(?:\.\d+)?", text.replace("\u00a0", " "))
    if m is None:
        return None
    raw = m.group(0)
    if raw.count(",") == 1 and "." not in raw and len(raw.split(",")[1]) == 2:
        raw = raw.replace(",", ".")
    try:
        return float(raw.replace(",", ""))
    except ValueError:
        return None


def tables(text: str) -> list[Table]:
    """Blocks of tab-separated lines (a table's innerText) as tables; the first line is the header."""
    out: list[Table] = []
    current: Table | None = None
    for line in text.splitlines():
        if "\t" in line:
            cells = [c.strip() for c in line.split("\t")]
            if current is None:
                current = Table(header=cells)
                out.append(current)
            else:
                current.rows.append(cells)
        else:
            current = None
    return [t for t in out if t.rows]


def page_lines(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines():
        line = " ".join(line.replace("\t", "  ").split())
        if not line:
            continue
        out.extend(s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", line) if s.strip())
    return out


#: Words that name the kind of fact, not what it is about ("the email address", "the price").
GENERIC = frozenset(
    words_of("email e-mail address date time price cost phone number amount day when contact url")
)
