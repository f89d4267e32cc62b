"""Words shared by the readers of asks (planner/ask_reader.py): addresses, politeness, where a
target lives, prohibitions and questions, and the kind of fact a question asks for."""

from __future__ import annotations

import re
from collections.abc import Callable

from planner._text import fold, strip_quotes
from planner.asks import Ask, FactKind
from planner.field_values import KNOWN_FIELDS

URL = re.compile(r"(?:https?://|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/)\S*?(?=[.,;:!?)\]]*(?:\s|$))", re.I)


POLITE = re.compile(
    r"^(?:please|pls|kindly|can you|could you|would you|will you|i want to|i'd like to|i would like to|"
    r"i need to|help me|go ahead and|now|also|just|quickly|then|and|vui lòng|làm ơn|hãy|giúp tôi|giúp mình|"
    r"cho tôi(?!\s+biết)|cho mình(?!\s+biết)|bạn|tôi muốn|mình muốn)\s+",
    re.I,
)


NEGATION = re.compile(
    r"^(?:(?:please\s+)?(?:do\s+not|don'?t|dont|never|no\s+need\s+to|not|avoid|without|but\s+not|"
    r"make\s+sure\s+(?:not\s+to|you\s+don'?t)|stop\s+before|đừng|không\s+được|không\s+cần|không|chưa|"
    r"chớ|khỏi)\s+)(?P<rest>.*)$",
    re.I,
)


WITHOUT = re.compile(r"\b(?:without|before)\s+(?P<verb>[a-z]+ing)\b(?:\s+(?:it|anything|them))?", re.I)


JUST_TELL = re.compile(
    r"\b(?:just|only)\s+(?:tell|show|give)\s+me\b|\bchỉ\s+(?:cần\s+)?cho\s+(?:tôi|mình)\s+biết\b", re.I
)


#: The words that send or commit something: forbidding one of them forbids submitting.
SUBMITTING = (
    "submit", "send", "continue", "confirm", "book", "save", "sign up", "register", "create", "post",
    "pay", "order", "check out", "checkout", "apply", "proceed", "place", "buy", "purchase", "reply",
    "delete", "remove", "finish", "complete", "gửi", "xác nhận", "đặt", "lưu", "đăng ký", "thanh toán",
    "mua", "xóa", "xoá", "tiếp tục", "trả lời",
)  # fmt: skip


ING = {"confirming": "confirm", "submitting": "submit", "sending": "send", "saving": "save",
        "booking": "book", "paying": "pay", "signing": "sign up", "registering": "register",
        "continuing": "continue", "ordering": "order", "buying": "buy", "deleting": "delete",
        "creating": "create", "posting": "post", "replying": "reply", "checking": "check out"}  # fmt: skip


def forbidden_verb(rest: str) -> str:
    """The verb of "send it", "sign up for anything", "confirm": the control words ruled out."""
    rest = fold(rest.lower()).strip()
    for word in sorted(SUBMITTING, key=len, reverse=True):
        w = fold(word)
        if rest.startswith(w):
            return word
    first = re.match(r"[\w'-]+", rest)
    return first.group(0) if first else ""


QUESTION_START = re.compile(
    r"^(?:tell me|let me know|show me|give me|find out|figure out|what|what's|whats|which|when|who|whom|"
    r"whose|where|how|is there|are there|is it|does|do|can|did|check (?:whether|if|what|which|how|when)|"
    r"cho (?:(?:tôi|mình|em)\s+)?biết|xem|kiểm tra xem)(?![\w-])",
    re.I,
)


_VI_QUESTION = re.compile(
    r"\b(?:bao nhiêu|khi nào|lúc nào|ngày nào|ai|gì|nào|mấy|là bao nhiêu|có không)\s*\??$", re.I
)


#: "báo giúp tôi ...", "làm hộ mình ...": a request for something done, even when it ends on "nào".
_VI_REQUEST = re.compile(r"(?i)\b(?:giúp|hộ|dùm|giùm)\s+(?:tôi|mình|em|với)\b")


def fact_kind(question: str) -> FactKind:
    """What kind of fact answers the question (what its answer's first sentence must hold)."""
    q = fold(question.lower())
    if re.search(r"\b(?:summari[sz]e|sum up|gist|tom tat|explain|describe|giai thich|mo ta)\b", q):
        return "text"  # "summarize Helen's email" asks for a summary, not an address
    if re.match(r"\s*(?:and\s+)?how\s+(?:do|does|did|can|could|should|would|to)\b", q):
        return "text"  # "how do I pay the fee?" asks for a way, not an amount
    if re.search(r"\b(?:email address|e-mail|email)\b", q):
        return "email"
    if re.search(r"\b(?:phone number|phone no|telephone|hotline|contact number|so dien thoai)\b", q):
        return "phone"
    if re.search(r"\bhow much\b", q) and re.search(r"\b(?:storage|space|data|disk|memory|time|traffic)\b", q):
        return "number"  # "how much storage am I using" is an amount, not a price
    if re.search(r"\b(?:tac gia|nguoi viet|author|writer)\b", q):
        return "person"  # "tác giả" folds to "tac gia": an author, not a price ("giá")
    if re.search(r"\b(?:how much|price|cost|costs|fee|gia|bao nhieu tien)\b", q):
        return "price"
    if re.search(r"\b(?:what time|time of|(?:luc )?may gio|gio nao|at what hour)\b", q):
        return "time"
    if re.search(r"\b(?:how many|number of|count|so luong|bao nhieu|may)\b", q):
        return "count"
    if re.search(r"\b(?:when|what date|which date|what day|which day|date|khi nao|ngay nao|luc nao)\b", q):
        return "date"
    if re.search(r"\b(?:which year|what year|how long|how far|how tall|how big|how old)\b", q):
        return "number"
    if re.search(r"\b(?:who|whom|ai la|la ai)\b", q):
        return "person"
    if re.search(
        r"\b(?:which|cheapest|most expensive|best|largest|smallest|highest|lowest|nao|re nhat)\b", q
    ):
        return "item"
    if re.match(r"\s*(?:is|are|does|do|can|did|has|have|co)\b", q):
        return "yes_no"
    return "text"


JUST_LOOK = re.compile(
    r"(?i)^(?:xem|check|look|see|coi)(?:\s+(?:giúp|hộ|dùm)\s*(?:mình|tôi|em)?)?(?:\s+(?:trên|on|at|ở)\s*(?:U"
    r"RL)?)?\s*[.!?]*$"
)

#: "leave everything else as it is": what every step already keeps (only the named things are touched).
KEEP_REST = re.compile(
    r"(?i)^(?:and\s+)?(?:leave|keep)\s+(?:everything|all|anything)\s+else\s+(?:as\s+(?:it\s+is|is)|alone|unc"
    r"hanged"
    r"|the\s+same)\s*[.!?]*$|^(?:and\s+)?(?:leave|keep)\s+the\s+rest\s+(?:as\s+(?:it\s+is|is)|alone|unchange"
    r"d)\s*[.!?]*$"
)


def as_question(clause: str) -> str | None:
    stripped = clause.strip()
    if JUST_LOOK.match(stripped):
        return None
    vi_asked = _VI_QUESTION.search(stripped) is not None and not _VI_REQUEST.search(stripped)
    if QUESTION_START.match(stripped) or stripped.endswith("?") or vi_asked:
        body = re.sub(
            r"^(?:tell me|let me know|cho (?:(?:tôi|mình|em)\s+)?biết)\s+", "", stripped, flags=re.I
        )
        return body.rstrip(" .")
    return None


_WHERE = re.compile(
    r"\s+(?:in|on|from|inside|under|within|at|trong|ở|tại)\s+(?:the\s+|this\s+|its\s+)?(?P<where>[\w' -]{1,4"
    r"0}?\s*"
    r"(?:tab|dialog|section|panel|menu|modal|window|sidebar|footer|header|popup|pop-up|banner|page|box|"
    r"settings|card|area|tab\s+page|thẻ|mục|hộp thoại))\b",
    re.I,
)


STEP_LIMIT = re.compile(
    r"\s*(?:up\s+to|until|till|as\s+far\s+as|and\s+stop\s+at|stopping\s+at|stop\s+at|đến)\s+(?:the\s+)?"
    r"(?P<until>[\w -]{1,30}?)\s*(?:step|page|screen|stage|bước)\b",
    re.I,
)


_ORDINAL_STEP = re.compile(
    r"\s+(?:in|on|at)\s+(?:the\s+)?(?:first|1st|second|2nd|third|3rd|this)\s+(?:step|page)\b", re.I
)


def cut_where(text: str) -> tuple[str, str]:
    """(text without its location, the location): "dark mode in the settings dialog"."""
    text = _ORDINAL_STEP.sub("", text)
    m = _WHERE.search(text)
    if m is None:
        return text, ""
    return (text[: m.start()] + text[m.end() :]).strip(), m.group("where").strip()


def noun_phrase(text: str) -> str:
    """A noun phrase without articles, quotes, trailing punctuation or a trailing "button"/"link"."""
    text = strip_quotes(text.strip().rstrip(".!?,;"))
    text = re.sub(r"^(?:on|the|a|an|my|your|this|that|our)\s+", "", text, flags=re.I)
    text = re.sub(r"\s+(?:button|link|icon|checkbox|check box|box|option|nút|ô)$", "", text, flags=re.I)
    return strip_quotes(text.strip())


Reader = Callable[[str, str], list[Ask] | None]


NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "a pair of": 2,
    "a couple of": 2,
}


#: "on URL", "at URL", "trên URL", "in the inbox URL": where, already known from the task's URL.
AT_URL = re.compile(
    r"(?i)\s*(?<!log )(?<!sign )(?<!check )\b(?:on|at|in|from|of|trên|tại|ở|của|vào)\s+(?:the\s+|this\s+)?"
    r"(?:(?!on\b|at\b|in\b)[a-zà-ỹ]+\s+)?URL\b|\s+URL\s*(?=[?.!]?\s*$)|^\s*URL\s*,?\s+"
)


#: "open this page", "open it": the page the task is on, not something on it.
HERE = re.compile(
    r"(?i)(?:this|the|that|current|my)\s+(?:page|tab|site|website|article|link)|it|trang này|tab này"
)

_FIELD_NAMES = frozenset(fold(w.lower()) for w in KNOWN_FIELDS)


def is_field_word(field: str) -> bool:
    """A word forms use for a field: "Tên", "địa chỉ", "postcode" (a verbless "Tên: Lan" is a fill)."""
    return fold(field.lower()) in _FIELD_NAMES or fold(field.lower()) in _EXTRA_FIELDS


#: Field words a verbless list may use beyond the payload's (planner/payload.py).
_EXTRA_FIELDS = frozenset(fold(w) for w in ("postcode", "zip", "zip code", "postal code", "street",
                                            "mã bưu chính",
                                            "country", "quốc gia", "subject", "state",
                                            "province"))  # fmt: skip
