"""Reads a task the way people write it into asks (planner/asks.py): one clause at a time, each
opened by a verb, with prohibitions set aside as constraints and questions kept as questions.

"Open URL, fill the name Carol Ng and email carol@example.com, then submit the form" reads as
fill name, fill email, submit. "Compare the plans ... which suits a team of eight? Do not sign up
for anything" reads as one question, with "sign up" forbidden: a prohibition never becomes a step.
What no verb explains is kept in `unread`, so the plan can say which part it will not do.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from planner._text import fold, has_vietnamese_marks, strip_quotes
from planner.asks import (
    AdvanceAsk,
    AnswerAsk,
    Ask,
    AskList,
    ChangeAsk,
    ChooseAsk,
    FactKind,
    FillAsk,
    OpenAsk,
    PressAsk,
    SearchAsk,
    SortAsk,
    SubmitAsk,
    ToggleAsk,
)
from planner.field_values import KNOWN_FIELDS, read_item, read_list
from planner.slots import date_value, long_date

_URL = re.compile(r"(?:https?://|\b[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/)\S*?(?=[.,;:!?)\]]*(?:\s|$))", re.I)
_POLITE = re.compile(
    r"^(?:please|pls|kindly|can you|could you|would you|will you|i want to|i'd like to|i would like to|"
    r"i need to|help me|go ahead and|now|also|just|quickly|then|and|vui lòng|làm ơn|hãy|giúp tôi|giúp mình|"
    r"cho tôi|cho mình|bạn|tôi muốn|mình muốn)\s+",
    re.I,
)
#: Between clauses: commas and "and"/"then" before a verb, sentence ends, "but".
_BREAK = re.compile(
    r"\s*(?:[;\n]|\s[-–—]\s|(?<=[.!?])\s+|,\s*(?:and\s+then|and|then|rồi|và|sau đó)?|\s(?:and\s+then|then|and|but|rồi|và|"
    r"sau đó|nhưng)\s)\s*",
    re.I,
)

# --- prohibitions ---------------------------------------------------------------------------------

_NEGATION = re.compile(
    r"^(?:(?:please\s+)?(?:do\s+not|don'?t|dont|never|no\s+need\s+to|not|avoid|without|but\s+not|"
    r"make\s+sure\s+(?:not\s+to|you\s+don'?t)|stop\s+before|đừng|không\s+được|không\s+cần|không|chưa|"
    r"chớ|khỏi)\s+)(?P<rest>.*)$",
    re.I,
)
_WITHOUT = re.compile(r"\b(?:without|before)\s+(?P<verb>[a-z]+ing)\b(?:\s+(?:it|anything|them))?", re.I)
_JUST_TELL = re.compile(
    r"\b(?:just|only)\s+(?:tell|show|give)\s+me\b|\bchỉ\s+(?:cần\s+)?cho\s+(?:tôi|mình)\s+biết\b", re.I
)
#: The words that send or commit something: forbidding one of them forbids submitting.
SUBMITTING = (
    "submit", "send", "continue", "confirm", "book", "save", "sign up", "register", "create", "post",
    "pay", "order", "check out", "checkout", "apply", "proceed", "place", "buy", "purchase", "reply",
    "delete", "remove", "finish", "complete", "gửi", "xác nhận", "đặt", "lưu", "đăng ký", "thanh toán",
    "mua", "xóa", "xoá", "tiếp tục", "trả lời",
)  # fmt: skip
_ING = {"confirming": "confirm", "submitting": "submit", "sending": "send", "saving": "save",
        "booking": "book", "paying": "pay", "signing": "sign up", "registering": "register",
        "continuing": "continue", "ordering": "order", "buying": "buy", "deleting": "delete",
        "creating": "create", "posting": "post", "replying": "reply", "checking": "check out"}  # fmt: skip


def _forbidden_verb(rest: str) -> str:
    """The verb of "send it", "sign up for anything", "confirm": the control words ruled out."""
    rest = fold(rest.lower()).strip()
    for word in sorted(SUBMITTING, key=len, reverse=True):
        w = fold(word)
        if rest.startswith(w):
            return word
    first = re.match(r"[\w'-]+", rest)
    return first.group(0) if first else ""


# --- questions ------------------------------------------------------------------------------------

_QUESTION_START = re.compile(
    r"^(?:tell me|let me know|show me|give me|find out|figure out|what|what's|whats|which|when|who|whom|"
    r"whose|where|how|is there|are there|is it|does|do|can|did|check (?:whether|if|what|which|how|when)|"
    r"cho (?:tôi|mình) biết|xem|kiểm tra xem)(?![\w-])",
    re.I,
)
_VI_QUESTION = re.compile(
    r"\b(?:bao nhiêu|khi nào|lúc nào|ngày nào|ai|gì|nào|mấy|là bao nhiêu|có không)\s*\??$", re.I
)


def fact_kind(question: str) -> FactKind:
    """What kind of fact answers the question (what its answer's first sentence must hold)."""
    q = fold(question.lower())
    if re.search(r"\b(?:email address|e-mail|email)\b", q):
        return "email"
    if re.search(r"\bhow much\b", q) and re.search(r"\b(?:storage|space|data|disk|memory|time|traffic)\b", q):
        return "number"  # "how much storage am I using" is an amount, not a price
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


_JUST_LOOK = re.compile(
    r"(?i)^(?:xem|check|look|see|coi)(?:\s+(?:giúp|hộ|dùm)\s*(?:mình|tôi|em)?)?(?:\s+(?:trên|on|at|ở)\s*(?:URL)?)?\s*[.!?]*$"
)


def _question(clause: str) -> str | None:
    stripped = clause.strip()
    if _JUST_LOOK.match(stripped):
        return None
    if _QUESTION_START.match(stripped) or stripped.endswith("?") or _VI_QUESTION.search(stripped):
        body = re.sub(r"^(?:tell me|let me know|cho (?:tôi|mình) biết)\s+", "", stripped, flags=re.I)
        return body.rstrip(" .")
    return None


# --- where a target lives -------------------------------------------------------------------------

_WHERE = re.compile(
    r"\s+(?:in|on|from|inside|under|within|at|trong|ở|tại)\s+(?:the\s+|this\s+|its\s+)?(?P<where>[\w' -]{1,40}?\s*"
    r"(?:tab|dialog|section|panel|menu|modal|window|sidebar|footer|header|popup|pop-up|banner|page|box|"
    r"settings|card|area|tab\s+page|thẻ|mục|hộp thoại))\b",
    re.I,
)
_STEP_LIMIT = re.compile(
    r"\s*(?:up\s+to|until|till|as\s+far\s+as|and\s+stop\s+at|stopping\s+at|stop\s+at|đến)\s+(?:the\s+)?"
    r"(?P<until>[\w -]{1,30}?)\s*(?:step|page|screen|stage|bước)\b",
    re.I,
)
_ORDINAL_STEP = re.compile(
    r"\s+(?:in|on|at)\s+(?:the\s+)?(?:first|1st|second|2nd|third|3rd|this)\s+(?:step|page)\b", re.I
)


def _cut_where(text: str) -> tuple[str, str]:
    """(text without its location, the location): "dark mode in the settings dialog"."""
    text = _ORDINAL_STEP.sub("", text)
    m = _WHERE.search(text)
    if m is None:
        return text, ""
    return (text[: m.start()] + text[m.end() :]).strip(), m.group("where").strip()


def _object(text: str) -> str:
    """A noun phrase without articles, quotes, trailing punctuation or a trailing "button"/"link"."""
    text = strip_quotes(text.strip().rstrip(".!?,;"))
    text = re.sub(r"^(?:on|the|a|an|my|your|this|that|our)\s+", "", text, flags=re.I)
    text = re.sub(r"\s+(?:button|link|icon|checkbox|check box|box|option|nút|ô)$", "", text, flags=re.I)
    return strip_quotes(text.strip())


# --- one clause -----------------------------------------------------------------------------------


@dataclass
class _Reading:
    asks: list[Ask]
    forbidden: list[str]
    unread: list[str]
    navigation_only: bool = False


Reader = Callable[[str, str], list[Ask] | None]
_NUMBER_WORDS = {
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
_AT_URL = re.compile(
    r"(?i)\s*(?<!log )(?<!sign )(?<!check )\b(?:on|at|in|from|of|trên|tại|ở|của|vào)\s+(?:the\s+|this\s+)?"
    r"(?:(?!on\b|at\b|in\b)[a-zà-ỹ]+\s+)?URL\b|\s+URL\s*(?=[?.!]?\s*$)|^\s*URL\s*,?\s+"
)


#: "open this page", "open it": the page the task is on, not something on it.
_HERE = re.compile(
    r"(?i)(?:this|the|that|current|my)\s+(?:page|tab|site|website|article|link)|it|trang này|tab này"
)


def _opening(verb: str, rest: str) -> list[Ask] | None:
    after = re.match(r"(?i)^\s*URL\s+(?P<more>\S.*)$", rest)
    if after is not None and _verb_of(after.group("more")) is not None:
        more = _verb_of(after.group("more"))
        assert more is not None
        return more[1](more[0], more[2])  # "vào URL mua ...": the page, then what to do there
    if (
        _URL.search(rest)
        or re.search(r"\bURL\b", rest)
        or not rest.strip()
        or _HERE.fullmatch(rest.strip(" ."))
    ):
        return []  # opening the page the task names: where the step starts, not an ask
    obj, where = _cut_where(rest)
    obj = _object(obj)
    if re.fullmatch(r"(?i)(?:the\s+)?next(?:\s+(?:step|page|screen))?|bước tiếp(?: theo)?", obj):
        return [PressAsk(what="next")]
    if not obj:
        return None
    return [OpenAsk(what=obj, where=where)]


def _filling(verb: str, rest: str) -> list[Ask] | None:
    rest, where = _cut_where(rest)
    rest = _STEP_LIMIT.sub("", rest)
    rest = re.sub(
        r"^(?:in\s+|out\s+)?(?:the\s+|my\s+|this\s+)?(?:[\w-]+\s+){0,2}?(?:form|fields|details|biểu mẫu|form đăng ký)"
        r"\s*(?:with|using|như sau|:)?\s*",
        "",
        rest,
        flags=re.I,
    )
    asks: list[Ask] = []
    for item in read_list(rest):
        chosen = _plan_choice(item.field, item.value)
        asks.append(chosen or FillAsk(field=item.field, value=item.value, where=where))
    return asks or None


def _plan_choice(field: str, value: str) -> ChooseAsk | None:
    """ "the Team plan" inside a list names a choice, not a field."""
    m = re.fullmatch(
        r"(?i)(?P<opt>.+?)\s+(?P<among>plan|tier|package|option|size|colou?r|class)", f"{value} {field}"
    )
    if m and field.lower() in ("plan", "tier", "package", "option", "size", "color", "colour", "class"):
        return ChooseAsk(option=m.group("opt"), among=m.group("among").lower())
    return None


def _plan_phrase(text: str) -> ChooseAsk | None:
    """ "on the Team plan", "the Pro plan": a plan chosen by name."""
    m = re.fullmatch(
        r"(?i)(?:on\s+|with\s+)?(?:the\s+)?(?P<opt>[\w-]+)\s+(?P<among>plan|tier|package)", text.strip()
    )
    return ChooseAsk(option=m.group("opt"), among=m.group("among").lower()) if m else None


def _saying(verb: str, rest: str) -> list[Ask] | None:
    """ "... and say: Friday works for me": the message of a reply (or of the form being written)."""
    message = strip_quotes(re.sub(r"(?i)^(?:that|:)\s*", "", rest.strip()).strip().rstrip("."))
    return [FillAsk(field="message", value=message), SubmitAsk(purpose="reply")] if message else None


#: Choices a checkout asks for, as people say them: (words, option the page shows, what it is among).
_CHECKOUT_CHOICES: tuple[tuple[str, str, str], ...] = (
    (r"trả tiền khi nhận hàng|thanh toán khi nhận hàng|cash on delivery|pay on delivery|\bcod\b", "cash on delivery",
     "payment"),
    (r"(?:giao hàng|ship(?:ping)?|delivery)\s+(?:tiêu chuẩn|standard)|standard (?:delivery|shipping)", "standard",
     "delivery"),
    (r"(?:giao hàng|ship(?:ping)?|delivery)\s+(?:nhanh|hỏa tốc|express)|express (?:delivery|shipping)", "express",
     "delivery"),
    (r"(?:pay|thanh toán)\s+(?:by|bằng)\s+(?:card|thẻ)|credit card|card payment", "card", "payment"),
)  # fmt: skip


def _checkout_parts(parts: list[str]) -> list[Ask]:
    """The rest of a purchase: delivery and payment choices, then the buyer's details."""
    asks: list[Ask] = []
    for part in parts:
        choice = next(((o, a) for w, o, a in _CHECKOUT_CHOICES if re.search(rf"(?i){w}", part)), None)
        if choice is not None:
            asks.append(ChooseAsk(option=choice[0], among=choice[1]))
            continue
        listed = read_list(re.sub(r"^([^:,]{1,30}):\s*", r"\1 ", part))
        asks.extend(FillAsk(field=f.field, value=f.value) for f in listed if _is_field_word(f.field))
    return asks


def _buying(verb: str, rest: str) -> list[Ask] | None:
    """ "buy 1 French Press, standard delivery, pay on delivery. Name: ...": put it in the cart, go
    through the checkout with those choices and details, and place the order."""
    first, *others = re.split(r"\s*[,.;]\s+|\s*[,;]\s*", rest.strip().rstrip("."))
    rest = first
    m = re.match(
        r"(?i)(?:giúp tôi\s+|for me\s+|me\s+)?(?P<n>\d+|one|two|three|a|an)?\s*(?:cái|chiếc|x\s+)?\s*(?:of\s+)?"
        r"(?:the\s+)?(?P<item>.+)$",
        rest.strip(),
    )
    if m is None or not m.group("item").strip():
        return None
    count = m.group("n") or "1"
    n = int(count) if count.isdigit() else _NUMBER_WORDS.get(count.lower(), 1)
    item = _object(m.group("item"))
    asks: list[Ask] = [FillAsk(field="quantity", value=str(n), where=item)] if n > 1 else []
    asks += [PressAsk(what="add to cart", item=item), PressAsk(what="checkout", where="cart")]
    return [*asks, *_checkout_parts(others), SubmitAsk(purpose="order")]


def _creating(verb: str, rest: str) -> list[Ask] | None:
    """ "create a workspace with the Team plan for Ada Lovelace, work email ada@x.co": the nouns after
    "with"/"for" are choices and fields of the thing created."""
    m = re.match(
        r"(?i)(?:an?\s+|the\s+|my\s+)?(?P<thing>[\w -]{1,30}?)\s+(?:with|for|using)\s+(?P<rest>.+)$", rest
    )
    if m is None:
        return [PressAsk(what=f"create {_object(rest)}")] if rest.strip() else None
    asks: list[Ask] = []
    for part in re.split(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+|\s+(?=for\s+[A-Z])", m.group("rest")):
        part = part.strip()
        plan = re.fullmatch(r"(?i)(?:the\s+)?(?P<opt>[\w-]+)\s+(?P<among>plan|tier|package|option)", part)
        person = re.fullmatch(r"(?:for\s+)?(?P<name>[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,3})", part)
        if plan:
            asks.append(ChooseAsk(option=plan.group("opt"), among=plan.group("among").lower()))
        elif person:
            asks.append(FillAsk(field="name", value=person.group("name")))
        else:
            found = read_item(re.sub(r"(?i)^(?:with|for)\s+", "", part))
            if found is not None:
                asks.append(FillAsk(field=found.field, value=found.value))
    return asks or None


def _toggling(on: bool) -> Reader:
    def read(verb: str, rest: str) -> list[Ask] | None:
        obj, where = _cut_where(rest)
        obj = re.sub(r"(?i)\s+(?:box|checkbox|check box|switch|toggle|setting|option)$", "", _object(obj))
        obj = re.sub(r"(?i)^(?:the\s+)?(?:box|checkbox)\s+(?:for|of)\s+", "", obj)
        return [ToggleAsk(what=obj, on=on, where=where)] if obj else None

    return read


def _choosing(verb: str, rest: str) -> list[Ask] | None:
    obj, where = _cut_where(rest)
    as_ = re.match(r"(?i)(?P<opt>.+?)\s+(?:as|for)\s+(?:the\s+|my\s+|your\s+)?(?P<among>.+)$", obj)
    if as_:
        return [ChooseAsk(option=_object(as_.group("opt")), among=_object(as_.group("among")), where=where)]
    plan = re.fullmatch(
        r"(?i)(?:the\s+)?(?P<opt>.+?)\s+(?P<among>plan|tier|package|option|size|colou?r|class|day|date)", obj
    )
    if plan:
        return [ChooseAsk(option=plan.group("opt"), among=plan.group("among").lower(), where=where)]
    obj = _object(obj)
    return [ChooseAsk(option=obj, where=where)] if obj else None


_TRIP = re.compile(
    r"(?i)(?:\b(?:from|từ)\s+(?P<from>[A-ZÀ-Ỹ][\w\sÀ-ỹ'.-]*?)\s+(?:to|đi|đến|tới|ra|vào)\s+|"
    r"\b(?:flights?|chuyến bay|vé)\s+(?!from\b|từ\b)(?P<from2>[A-ZÀ-Ỹ][\w'.-]*(?:\s+[A-ZÀ-Ỹ][\w'.-]*)*)\s+to\s+)"
    r"(?P<to>[A-ZÀ-Ỹ][\w\sÀ-ỹ'.-]*?)(?=\s+(?:on|ngày|for|cho|in|at)\b|[,.;?]|$)"
)
_TRIP_DATE = re.compile(
    r"(?i)\b(?:on|ngày|for)\s+(?P<date>\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4}|\d{1,2}\s+\w+\s+\d{4}|"
    r"\w+\s+\d{1,2},?\s+\d{4})"
)
_TRIP_PEOPLE = re.compile(
    r"(?i)\b(?:for|cho)\s+(?P<n>\d+|one|two|three|four|five|six)\s+"
    r"(?:passengers?|people|persons?|adults?|travell?ers?|người|khách)"
)


def trip_fields(text: str) -> dict[str, str]:
    """From, to, date and passengers of a trip search, as the person wrote them."""
    fields: dict[str, str] = {}
    m = _TRIP.search(text)
    if m is None:
        return fields
    fields["from"] = (m.group("from") or m.group("from2") or "").strip()
    fields["to"] = m.group("to").strip()
    d = _TRIP_DATE.search(text)
    if d:
        fields["date"] = date_value(d.group("date")) or long_date(d.group("date")) or d.group("date")
    p = _TRIP_PEOPLE.search(text)
    if p:
        n = p.group("n")
        fields["passengers"] = n if n.isdigit() else str(_NUMBER_WORDS.get(n.lower(), 1))
    return fields


def _searching(verb: str, rest: str) -> list[Ask] | None:
    trip = trip_fields(rest)
    if trip:
        return [SearchAsk(query=strip_quotes(rest.strip().rstrip(".!?,")), fields=trip)]
    rest = re.sub(
        r"(?i)^(?:the\s+)?(?:shop|store|site|website|page|catalog(?:ue)?|products?|inbox|list)\s+", "", rest
    )
    rest = re.sub(r"(?i)^(?:for|about|cho)\s+", "", rest.strip())
    rest = re.sub(r"(?i)\s+(?:on|in)\s+(?:the|this)\s+(?:shop|store|site|website|page)$", "", rest)
    query = strip_quotes(rest.strip().rstrip(".!?,"))
    return [SearchAsk(query=query)] if query else None


_DESCENDING = re.compile(
    r"(?i)\s*,?\s*(?:from\s+)?(?:highest|most expensive|largest|newest|descending|high(?:est)? to low(?:est)?|"
    r"biggest first|cao xuống thấp|giảm dần)(?:\s+first)?\b"
)
_ASCENDING = re.compile(
    r"(?i)\s*,?\s*(?:from\s+)?(?:lowest|cheapest|smallest|oldest|ascending|low(?:est)? to high(?:est)?|"
    r"thấp đến cao|thấp lên cao|tăng dần)(?:\s+first)?\b"
)


def _sorting(verb: str, rest: str) -> list[Ask] | None:
    text = rest.strip().rstrip(".")
    descending = bool(_DESCENDING.search(text))
    text = _ASCENDING.sub("", _DESCENDING.sub("", text))
    m = re.search(r"(?i)\b(?:by|on|theo)\s+(?:the\s+)?(?P<col>[\w -]+?)(?:\s+column)?$", text)
    if m is None:
        return None
    return [SortAsk(column=m.group("col").strip(), descending=descending)]


def _pressing(verb: str, rest: str) -> list[Ask] | None:
    obj, where = _cut_where(rest)
    obj = _object(obj)
    return [PressAsk(what=obj, where=where)] if obj else None


def _submitting(purpose: str) -> Reader:
    def read(verb: str, rest: str) -> list[Ask] | None:
        asks: list[Ask] = []
        trip = trip_fields(rest) if purpose in ("book", "order") else {}
        if trip:  # "book me a direct flight from Berlin to Hanoi on ...": search, pick, book
            asks.append(SearchAsk(query=strip_quotes(rest.strip().rstrip(".!?,")), fields=trip))
            kind = re.search(r"(?i)\b(direct|non-?stop|cheapest|earliest|latest)\b", rest)
            if kind:
                asks.append(ChooseAsk(option=f"{kind.group(1).lower()} flight", among="flight"))
            return [*asks, SubmitAsk(purpose="book")]
        rest = _URL.sub("", rest)
        m = re.search(r"(?i)\b(?:as|with (?:the )?(?:username|user name|login))\s+(?P<user>[\w.@+-]+)", rest)
        if m and purpose == "login" and m.group("user").lower() not in ("the", "a", "my"):
            asks.append(FillAsk(field="username", value=m.group("user")))
        pw = re.search(
            r"(?i)\b(?:password|pass|mật khẩu)\s*(?:is|:|=)?\s*(?P<pw>\{\{secret:[a-z0-9_]+\}\}|\S+)", rest
        )
        if pw and purpose == "login":
            asks.append(FillAsk(field="password", value=pw.group("pw").rstrip(".,")))
        need = re.search(r"(?i)\bfor\s+(?:a|the|any)\s+(?P<what>plan|tier|package|room|flight|one)\s+"
                         r"(?:that|which|with|for)\s+(?P<need>.+)$", rest)  # fmt: skip
        if need and purpose in ("signup", "book", "order"):  # which one is chosen from the page's numbers
            question = f"which {need.group('what')} {need.group('need').rstrip('.')}"
            asks.append(AnswerAsk(question=question, expects="item"))
        lst = re.search(
            r"(?i)(?:\bwith|:)\s+(?P<list>(?:(?:my|the|your)\s+)?(?:name|email|full name|first name|tên).+)$",
            rest,
        )
        if lst and purpose != "login":
            listed = lst.group("list")
            plan = re.search(
                r"(?i),?\s*\b(?:on|with)\s+the\s+(?P<opt>[\w-]+)\s+(?P<among>plan|tier|package)\b", listed
            )
            if plan:
                asks.append(ChooseAsk(option=plan.group("opt"), among=plan.group("among").lower()))
                listed = listed[: plan.start()] + listed[plan.end() :]
            for item in read_list(listed):
                chosen = _plan_choice(item.field, item.value) or _plan_phrase(f"{item.field} {item.value}")
                asks.append(chosen or FillAsk(field=item.field, value=item.value))
        asks.append(SubmitAsk(purpose=purpose))  # type: ignore[arg-type]
        return asks

    return read


def _saving(verb: str, rest: str) -> list[Ask] | None:
    obj, where = _cut_where(rest)
    obj = _object(obj)
    if obj.lower() in ("it", "them", "this", "that", "", "the form", "form", "changes", "the changes"):
        return [PressAsk(what=verb, where=where)]
    return [PressAsk(what=f"{verb} {obj}", where=where)]


def _advancing(verb: str, rest: str) -> list[Ask] | None:
    until = _STEP_LIMIT.search(f" {verb} {rest}")
    asks: list[Ask] = []
    fills = _filling(
        verb, re.sub(r"(?i)^(?:the\s+)?[\w -]*?(?:wizard|flow|steps|form|process)\s+(?:with\s+)?", "", rest)
    )
    asks += fills or []
    if until:
        asks.append(AdvanceAsk(until=until.group("until").strip()))
    return asks or None


def _on_item(verb: str, rest: str) -> list[Ask] | None:
    """ "archive the ShopCo newsletter", "star the message about the invoice": a control that acts on
    one item (in its row, or once the item is open)."""
    item = _object(re.sub(r"(?i)\s+as\s+(?:read|unread|spam|important)$", "", rest))
    return [PressAsk(what=verb, item=item)] if item else None


def _renaming(verb: str, rest: str) -> list[Ask] | None:
    m = re.match(r"(?i)(?P<what>.*?)\s*(?:\bto\b|\bthành\b|\bas\b)\s+(?P<value>.+)$", rest.strip())
    if m is None:
        return None
    value = strip_quotes(m.group("value").strip().rstrip("."))
    return [ChangeAsk(verb=verb, what=_object(m.group("what")), value=value)] if value else None


def _setting(verb: str, rest: str) -> list[Ask] | None:
    """ "set the check-in date to 2027-03-14 and check-out to 2027-03-18"; "set X on" is a toggle."""
    on_off = re.match(r"(?i)(?P<what>.+?)\s+(?:to\s+)?(?P<state>on|off)$", rest.strip().rstrip("."))
    if on_off:
        return [ToggleAsk(what=_object(on_off.group("what")), on=on_off.group("state").lower() == "on")]
    asks: list[Ask] = []
    for part in re.split(r"(?i)\s*,\s*(?:and\s+)?|\s+and\s+", rest):
        m = re.match(r"(?i)(?P<field>.+?)\s+(?:to|=|:|as|thành|là)\s+(?P<value>.+)$", part.strip())
        if m:
            field = _object(m.group("field"))
            value = strip_quotes(m.group("value").strip().rstrip("."))
            if field and value:
                asks.append(FillAsk(field=field, value=value))
    return asks or _filling(verb, rest)


def _adding(verb: str, rest: str) -> list[Ask] | None:
    """ "add 2 of the blue mugs to the cart": quantity, item, the add control."""
    m = re.match(r"(?i)(?P<n>\d+|one|two|three|four|five|six|a pair of|a couple of)?\s*(?:x\s+)?(?:of\s+)?(?:the\s+)?"
                 r"(?P<item>.+?)\s+(?:to|into|in)\s+(?:the\s+|my\s+)?(?:shopping\s+)?(?:cart|basket|bag)\b", rest.strip())  # fmt: skip
    if m is None:
        return None
    asks: list[Ask] = []
    count = m.group("n")
    n = int(count) if count and count.isdigit() else _NUMBER_WORDS.get((count or "").lower(), 1)
    item = _object(m.group("item"))
    if n > 1:
        asks.append(FillAsk(field="quantity", value=str(n), where=item))
    asks.append(PressAsk(what="add to cart", item=item))
    return asks


def _replying(verb: str, rest: str) -> list[Ask] | None:
    m = re.match(
        r"(?i)(?:to\s+)?(?P<who>.+?)\s*(?:,\s*)?(?:saying|with|:|that says|writing)\s+(?P<msg>.+)$",
        rest.strip(),
    )
    if m is None:
        who = _object(re.sub(r"(?i)^to\s+", "", rest.strip()))
        return [OpenAsk(what=who), PressAsk(what="reply")] if who else None
    who = _object(m.group("who"))
    return [OpenAsk(what=who), PressAsk(what="reply"),
            FillAsk(field="message", value=strip_quotes(m.group("msg").strip().rstrip("."))),
            SubmitAsk(purpose="reply")]  # fmt: skip


def _asking(verb: str, rest: str) -> list[Ask] | None:
    """ "compare the plans ...", "summarize this page", "recommend one": a question to answer."""
    question = f"{verb} {rest}".strip().rstrip(".")
    return [AnswerAsk(question=question, expects=fact_kind(question))]


def _closing(verb: str, rest: str) -> list[Ask] | None:
    m = re.search(r"(?i)\b(?:by\s+)?(?:accepting|choosing|picking|selecting|with)\s+(?P<what>.+)$", rest)
    if m:
        return [PressAsk(what=_object(m.group("what")), where=_object(rest[: m.start()]))]
    return [PressAsk(what="close", where=_object(rest))]


#: Verbs in the order they are tried (longest first within the table), each with its reader.
_VERBS: tuple[tuple[str, Reader], ...] = (
    ("go through", _advancing), ("complete the", _advancing), ("stop at", _advancing),
    ("fill in", _filling), ("fill out", _filling), ("fill", _filling), ("prefill", _filling), ("pre-fill", _filling),
    ("enter", _filling), ("type", _filling), ("write", _filling), ("put", _filling), ("input", _filling),
    ("provide", _filling), ("điền", _filling), ("nhập", _filling), ("ghi", _filling),
    ("set", _setting), ("change", _setting), ("update", _setting), ("đổi", _setting),
    ("rename", _renaming), ("đổi tên", _renaming),
    ("tick", _toggling(True)), ("check the", _toggling(True)), ("turn on", _toggling(True)),
    ("enable", _toggling(True)), ("switch on", _toggling(True)), ("opt in to", _toggling(True)),
    ("bật", _toggling(True)), ("đánh dấu", _toggling(True)),
    ("untick", _toggling(False)), ("uncheck", _toggling(False)), ("turn off", _toggling(False)),
    ("disable", _toggling(False)), ("switch off", _toggling(False)), ("opt out of", _toggling(False)),
    ("tắt", _toggling(False)), ("bỏ chọn", _toggling(False)), ("bỏ đánh dấu", _toggling(False)),
    ("choose", _choosing), ("select", _choosing), ("pick", _choosing), ("go with", _choosing), ("chọn", _choosing),
    ("search", _searching), ("look up", _searching), ("tìm kiếm", _searching), ("tìm", _searching),
    ("sort", _sorting), ("order the", _sorting), ("sắp xếp", _sorting),
    ("click on", _pressing), ("click", _pressing), ("press", _pressing), ("tap", _pressing), ("hit", _pressing),
    ("bấm vào", _pressing), ("bấm", _pressing), ("nhấn", _pressing), ("nhấp", _pressing),
    ("add", _adding), ("thêm", _adding),
    ("reply", _replying), ("trả lời", _replying),
    ("close", _closing), ("dismiss", _closing), ("đóng", _closing),
    ("create", _creating), ("tạo", _creating),
    ("log in", _submitting("login")), ("login", _submitting("login")), ("sign in", _submitting("login")),
    ("log into", _submitting("login")), ("đăng nhập", _submitting("login")),
    ("sign up", _submitting("signup")), ("register", _submitting("signup")), ("đăng ký", _submitting("signup")),
    ("sign me up", _submitting("signup")), ("sign us up", _submitting("signup")), ("register me", _submitting("signup")),
    ("đăng ký cho tôi", _submitting("signup")), ("đăng ký giúp tôi", _submitting("signup")),
    ("say", _saying), ("saying", _saying), ("write back", _saying), ("nói", _saying), ("trả lời rằng", _saying),
    ("buy", _buying), ("purchase", _buying), ("order", _buying), ("mua", _buying), ("đặt mua", _buying),
    ("submit", _submitting("send")), ("send", _submitting("send")), ("gửi", _submitting("send")),
    ("book", _submitting("book")), ("place the order", _submitting("order")), ("place order", _submitting("order")),
    ("check out", _submitting("order")), ("checkout", _submitting("order")), ("đặt", _submitting("book")),
    ("save", _saving), ("confirm", _saving), ("apply", _saving), ("lưu", _saving), ("xác nhận", _saving),
    ("archive", _on_item), ("star", _on_item), ("unstar", _on_item), ("flag", _on_item), ("delete", _on_item),
    ("remove", _on_item), ("trash", _on_item), ("mark", _on_item), ("pin", _on_item), ("like", _on_item),
    ("xóa", _on_item), ("xoá", _on_item), ("lưu trữ", _on_item), ("gắn sao", _on_item),
    ("open", _opening), ("go to", _opening), ("navigate to", _opening), ("visit", _opening),
    ("switch to", _opening), ("head to", _opening), ("view", _opening), ("mở", _opening), ("vào", _opening),
    ("truy cập", _opening), ("chuyển sang", _opening), ("continue", _saving), ("next", _saving),
    ("tiếp tục", _saving),
    ("compare", _asking), ("summarize", _asking), ("summarise", _asking), ("recommend", _asking),
    ("explain", _asking), ("find out", _asking), ("find", _asking), ("research", _asking), ("list", _asking),
    ("read", _asking), ("so sánh", _asking), ("tóm tắt", _asking), ("đề xuất", _asking), ("liệt kê", _asking),
    ("giải thích", _asking), ("tìm hiểu", _asking), ("mô tả", _asking), ("tìm thông tin", _asking),
)  # fmt: skip
_VERB_RE = re.compile(
    r"^(?P<verb>"
    + "|".join(re.escape(fold(v)) for v, _ in sorted(_VERBS, key=lambda p: -len(p[0])))
    + r")(?![\w])",
)
_READER = {fold(v): r for v, r in _VERBS}
_FIELD_NAMES = frozenset(fold(w.lower()) for w in KNOWN_FIELDS)
_READER_VERB = {fold(v): v for v, _ in _VERBS}


_ACCENTED = re.compile(
    r"^(?P<verb>" + "|".join(re.escape(v) for v, _ in sorted(_VERBS, key=lambda p: -len(p[0]))) + r")(?![\w])"
)
_READER_ACCENTED = dict(_VERBS)


def _verb_of(clause: str) -> tuple[str, Reader, str] | None:
    """(verb as written in the table, its reader, the rest of the clause) when a verb opens it.
    Vietnamese typed with its marks is matched with them ("mô tả" is not "mở")."""
    if has_vietnamese_marks(clause):
        m = _ACCENTED.match(clause.lower())
        if (
            m is None
            or (not has_vietnamese_marks(m.group("verb"))
            and fold(m.group("verb")) != m.group("verb"))
        ):
            m = m if m is not None else None
        if m is None:
            return None
        verb = m.group("verb")
        return verb, _READER_ACCENTED[verb], clause[m.end() :].strip()
    m = _VERB_RE.match(fold(clause.lower()))
    if m is None:
        return None
    key = m.group("verb")
    return _READER_VERB[key], _READER[key], clause[m.end() :].strip()


_KEEP_WHOLE = re.compile(r"""["“][^"”]*["”]|\{\{secret:[a-z0-9_]+\}\}""")
#: A clause that only says where: "According to URL", "On URL".
_ONLY_PLACE = re.compile(
    r"(?i)^(?:according to|on|at|from|in|theo|trên|tại)?\s*(?:the\s+)?(?:page\s+)?(?:URL)?\W*$|^according to\W*$"
)


_OPENS_PAGE = re.compile(r"(?i)^(?:open|go to|visit|navigate to|head to|mở|vào|truy cập)\s+URL\W*$")
#: "... and what it costs": a question about what the question before it found.
_ABOUT_IT = re.compile(r"(?i)^(?:what|how much|when|where|how many)\s+(?:it|they|that one|this one|that)\b")


def _clauses(text: str) -> list[str]:
    """Pieces that each start with a verb (or a question); a piece without one continues the last
    (", email a@b.co and subject Billing" belongs to the fill before it). Quoted values and
    placeholders are never split."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    protected = _KEEP_WHOLE.sub(keep, text)
    pieces = [
        re.sub(r"\x00(\d+)\x00", lambda m: kept[int(m.group(1))], p)
        for p in _BREAK.split(protected)
        if p and p.strip() and not _ONLY_PLACE.match(p.strip())
    ]
    out: list[str] = []
    for piece in pieces:
        piece = _POLITE.sub("", piece.strip())
        piece = _POLITE.sub("", piece)
        if _JUST_LOOK.match(piece):
            continue  # "xem giúp mình", "check": where to look, already known
        asked = _QUESTION_START.match(piece) is not None or _question(piece) is not None
        continues_question = (
            bool(out)
            and _question(out[-1]) is not None
            and not out[-1].rstrip().endswith("?")
            and _QUESTION_START.match(piece) is None  # "..., how much storage am I using?" asks anew
        ) or (bool(out) and _question(out[-1]) is not None and _ABOUT_IT.match(piece) is not None)
        after_page = (
            bool(out) and _OPENS_PAGE.match(out[-1]) is not None
        )  # "Open URL, frobnicate ...": its own
        starts = (
            _verb_of(piece) is not None
            or (asked and not continues_question)
            or _NEGATION.match(piece)
            or after_page
        )
        if out and not starts:
            joiner = ", " if not out[-1].endswith((".", "?", "!")) else " "
            out[-1] = f"{out[-1]}{joiner}{piece}"
        else:
            out.append(piece)
    return out


def read_asks(task: str) -> AskList:
    """The task's asks, prohibitions and unread parts, in the order the person gave them."""
    reading = _Reading(asks=[], forbidden=[], unread=[])
    text = _URL.sub(lambda m: "URL" if m.group(0) else "", task)
    text = _AT_URL.sub(" ", text)
    for m in _WITHOUT.finditer(text):
        reading.forbidden.append(
            _ING.get(m.group("verb").lower(), m.group("verb").lower().removesuffix("ing"))
        )
    text = _WITHOUT.sub("", text)
    read_only = bool(_JUST_TELL.search(text))
    for clause in _clauses(text):
        _read_clause(clause, reading)
    if read_only:
        reading.forbidden.extend(
            w for w in ("submit", "send", "sign up", "buy") if w not in reading.forbidden
        )
        reading.asks = [a for a in reading.asks if a.kind in ("answer", "open", "search", "sort")]
    forbidden = list(dict.fromkeys(f for f in reading.forbidden if f))
    asks = [a for a in reading.asks if not _is_forbidden(a, forbidden)]
    return AskList(asks=asks, forbidden=forbidden, unread=reading.unread)


def _read_clause(clause: str, reading: _Reading) -> None:
    negated = _NEGATION.match(clause)
    if negated is not None:
        verb = _forbidden_verb(negated.group("rest"))
        if verb:
            reading.forbidden.append(verb)
        return
    found = _verb_of(clause)
    if found is not None:
        verb, reader, rest = found
        asks = reader(verb, rest)
        if asks is not None:
            reading.asks.extend(asks)
            return
    asked = _question(clause)
    if asked is not None:
        reading.asks.append(AnswerAsk(question=asked, expects=fact_kind(asked)))
        return
    listed = read_list(re.sub(r"^([^:,]{1,30}):\s*", r"\1 ", clause)) if found is None else []
    if listed and all(_is_field_word(f.field) for f in listed):
        reading.asks.extend(FillAsk(field=f.field, value=f.value) for f in listed)
        return
    if (found is None and clause.strip(" .") and clause.strip(" .") != "URL") or (
        found is not None and asks is None
    ):
        reading.unread.append(clause.strip(" ."))


def _is_field_word(field: str) -> bool:
    """A word forms use for a field: "Tên", "địa chỉ", "postcode" (a verbless "Tên: Lan" is a fill)."""
    return fold(field.lower()) in _FIELD_NAMES or fold(field.lower()) in _EXTRA_FIELDS


#: Field words a verbless list may use beyond the payload's (planner/payload.py).
_EXTRA_FIELDS = frozenset(fold(w) for w in ("postcode", "zip", "zip code", "postal code", "street", "mã bưu chính",
                                            "country", "quốc gia", "subject", "state", "province"))  # fmt: skip


def _is_forbidden(ask: Ask, forbidden: list[str]) -> bool:
    """An ask the person also ruled out ("sign up ... do not sign up") is dropped, never done."""
    if not forbidden:
        return False
    words = {fold(f) for f in forbidden}
    if isinstance(ask, SubmitAsk):
        said = {"login": "log in", "signup": "sign up", "send": "send", "order": "order", "book": "book",
                "reply": "reply", "save": "save", "confirm": "confirm"}[ask.purpose]  # fmt: skip
        return fold(said) in words or ("submit" in words and ask.purpose != "login")
    if isinstance(ask, PressAsk):
        return any(fold(ask.what.lower()).startswith(w) for w in words)
    return False
