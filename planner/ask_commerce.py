"""Readers of shopping and travel asks: searches (a trip's from, to, date and passengers), sorting,
putting things in a cart, buying them with the checkout's choices."""

from __future__ import annotations

import re

from common.lazy import lazy_pattern
from planner._text import strip_quotes
from planner.ask_words import NUMBER_WORDS, cut_where, is_field_word, noun_phrase
from planner.asks import (
    Ask,
    ChooseAsk,
    FillAsk,
    PressAsk,
    SearchAsk,
    SortAsk,
    SubmitAsk,
)
from planner.field_values import read_list
from planner.slots import date_value, long_date

#: Choices a checkout asks for, as people say them: (words, option the page shows, what it is among).
_CHECKOUT_CHOICES: tuple[tuple[str, str, str], ...] = (
    (r"trả tiền khi nhận hàng|thanh toán khi nhận hàng|cash on delivery|pay on delivery|\bcod\b",
     "cash on delivery",
     "payment"),
    (r"(?:giao hàng|ship(?:ping)?|delivery)\s+(?:tiêu chuẩn|standard)|standard (?:delivery|shipping)",
     "standard",
     "delivery"),
    (r"(?:giao hàng|ship(?:ping)?|delivery)\s+(?:nhanh|hỏa tốc|express)|express (?:delivery|shipping)",
     "express",
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
        asks.extend(FillAsk(field=f.field, value=f.value) for f in listed if is_field_word(f.field))
    return asks


def buying(verb: str, rest: str) -> list[Ask] | None:
    """ "buy 1 French Press, standard delivery, pay on delivery. Name: ...": put it in the cart, go
    through the checkout with those choices and details, and place the order."""
    first, *others = re.split(r"\s*[,.;]\s+|\s*[,;]\s*", rest.strip().rstrip("."))
    rest = first
    m = re.match(
        r"(?i)(?:giúp tôi\s+|for me\s+|me\s+)?(?P<n>\d+|one|two|three|a|an)?\s*(?:cái|chiếc|x\s+)?\s*(?:of\s"
        r"+)?"
        r"(?:the\s+)?(?P<item>.+)$",
        rest.strip(),
    )
    if m is None or not m.group("item").strip():
        return None
    count = m.group("n") or "1"
    n = int(count) if count.isdigit() else NUMBER_WORDS.get(count.lower(), 1)
    item = noun_phrase(m.group("item"))
    asks: list[Ask] = [FillAsk(field="quantity", value=str(n), where=item)] if n > 1 else []
    asks += [PressAsk(what="add to cart", item=item), PressAsk(what="checkout", where="cart")]
    return [*asks, *_checkout_parts(others), SubmitAsk(purpose="order")]


_TRIP = lazy_pattern(
    r"(?i)(?:\b(?:from|từ)\s+(?P<from>[A-ZÀ-Ỹ][\w\sÀ-ỹ'.-]*?)\s+(?:to|đi|đến|tới|ra|vào)\s+|"
    r"\b(?:flights?|chuyến bay|vé)\s+(?!from\b|từ\b)(?P<from2>[A-ZÀ-Ỹ][\w'.-]*(?:\s+[A-ZÀ-Ỹ][\w'.-]*)*)\s+to"
    r"\s+)"
    r"(?P<to>[A-ZÀ-Ỹ][\w\sÀ-ỹ'.-]*?)(?=\s+(?:on|ngày|for|cho|in|at)\b|[,.;?]|$)"
)


_TRIP_DATE = lazy_pattern(
    r"(?i)\b(?:on|ngày|for)\s+(?P<date>\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4}|\d{1,2}\s+\w+\s+\d{4}|"
    r"\w+\s+\d{1,2},?\s+\d{4})"
)


_TRIP_PEOPLE = lazy_pattern(
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
        fields["passengers"] = n if n.isdigit() else str(NUMBER_WORDS.get(n.lower(), 1))
    c = _TRIP_CLASS.search(text)
    if c:
        fields["class"] = (
            c.group("cabin") or {"phổ thông": "economy"}.get(c.group("vi").lower(), "business")
        ).lower()
    return fields


_TRIP_CLASS = lazy_pattern(
    r"(?i)\b(?:in\s+)?(?P<cabin>premium economy|economy|business|first)\s+class\b|hạng\s+"
    r"(?P<vi>phổ thông|thương gia)"
)


def searching(verb: str, rest: str) -> list[Ask] | None:
    trip = trip_fields(rest)
    if trip:
        return [SearchAsk(query=strip_quotes(rest.strip().rstrip(".!?,")), fields=trip)]
    rest = re.sub(
        r"(?i)^(?:the\s+)?(?:shop|store|site|website|page|catalog(?:ue)?|products?|inbox|list)\s+", "", rest
    )
    # "tìm giúp mình ...", "look up for me ...": who it is for is not part of the query
    rest = re.sub(
        r"(?i)^(?:(?:giúp|hộ|dùm|giùm)\s+(?:tôi|mình|em)|cho\s+(?:tôi|mình|em)|for\s+me)\s+", "", rest.strip()
    )
    rest = re.sub(r"(?i)^(?:(?:on|at|in)\s+)?URL\s+", "", rest.strip())  # "search URL for dumplings"
    rest = re.sub(r"(?i)^(?:for|about|cho)\s+", "", rest.strip())
    # "books about birds", "sách về lịch sử": what is typed into a search box is the subject
    rest = re.sub(
        r"(?i)^(?:(?:các|những)\s+)?(?:(?:cuốn|quyển)\s+)?(?:books?|articles?|posts?|courses?|sách|bài viết|"
        r"bài|khóa học|truyện)\s+(?:about|on|by|về|của|viết về)\s+",
        "",
        rest,
    )
    rest = re.sub(r"(?i)\s+(?:on|in)\s+(?:the|this)\s+(?:shop|store|site|website|page)$", "", rest)
    # "... giúp tôi nhé": who it is for and how it is asked, after the query; "trong mục thiếu nhi":
    # where to look; "sách Dế Mèn": a book's title
    rest = re.sub(
        r"(?i)\s+(?:giúp|hộ|dùm|giùm)\s+(?:tôi|mình|em)\b.*$|\s+(?:nhé|nha|với|please)\s*$", "", rest
    )
    rest = re.sub(r"(?i)\s+(?:trong|ở|tại)\s+(?:mục|thẻ|phần|danh mục|chuyên mục)\s+[\w\s]{1,30}$", "", rest)
    rest = re.sub(r"^(?:(?:cuốn|quyển)\s+)?(?:sách|truyện|phim)\s+(?=[A-ZÀ-Ỹ])", "", rest)
    # "the book called The Hobbit", "sách tên là Tắt Đèn": the title is what is typed
    rest = re.sub(
        r"(?i)^(?:(?:the|a|an)\s+)?(?:(?:cuốn|quyển)\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:called|named|titled|"
        r"(?:có\s+)?tên(?:\s+là)?)\s+",
        "",
        rest,
    )
    rest, kind = _by_author(rest)
    query = strip_quotes(cut_where(rest)[0].strip().rstrip(".!?,"))  # "in the books section" is where
    if not query:
        return None
    # "sách nói của tác giả X": the kind narrows the results, a filter a person picks before searching
    # (a search form's own, sent with it), never dropped
    asks: list[Ask] = [ChooseAsk(option=kind)] if kind else []
    return [*asks, SearchAsk(query=query)]


_BY_AUTHOR = lazy_pattern(
    r"^(?P<kind>(?:\S+\s+){1,4}?)(?:của|by|from|viết bởi)\s+(?:(?:the\s+)?(?:tác giả|nhà văn|nhà thơ|author|"
    r"writer|poet)\s+)?(?P<name>\S.*)$"
)


#: Words that name what is searched without narrowing it ("books by X" is every book by X).
_PLAIN_KINDS = frozenset((
    "sách", "cuốn", "quyển", "những", "các", "tất", "cả", "truyện", "tác", "phẩm", "bài", "viết", "books",
    "book", "novels", "works", "titles", "all", "the", "any", "everything", "anything",
))  # fmt: skip


def _by_author(rest: str) -> tuple[str, str]:
    """ "truyện thiếu nhi của tác giả Tô Hoài", "novels by Toni Morrison": a kind of thing (small
    words) by a named author; the name is what a search box finds, and a kind that narrows it
    ("sách nói", "children's") is returned to be picked on the results. A title by an author is
    found by its title."""
    m = _BY_AUTHOR.match(rest.strip())
    if m is None or not m.group("name")[:1].isupper():
        return rest, ""
    kind = m.group("kind").strip()
    if kind[:1].isupper():
        return kind, ""  # "Pride and Prejudice by Jane Austen": the title finds the book
    if not kind.islower():
        return rest, ""
    plain = all(w in _PLAIN_KINDS for w in kind.split())
    return m.group("name"), "" if plain else kind


_DESCENDING = lazy_pattern(
    r"(?i)\s*,?\s*(?:from\s+)?(?:highest|most expensive|largest|newest|descending|high(?:est)? to low(?:est)"
    r"?|"
    r"biggest first|cao xuống thấp|giảm dần)(?:\s+first)?\b"
)


_ASCENDING = lazy_pattern(
    r"(?i)\s*,?\s*(?:from\s+)?(?:lowest|cheapest|smallest|oldest|ascending|low(?:est)? to high(?:est)?|"
    r"thấp đến cao|thấp lên cao|tăng dần)(?:\s+first)?\b"
)


def sorting(verb: str, rest: str) -> list[Ask] | None:
    text = rest.strip().rstrip(".")
    descending = bool(_DESCENDING.search(text))
    text = _ASCENDING.sub("", _DESCENDING.sub("", text))
    m = re.search(r"(?i)\b(?:by|on|theo)\s+(?:the\s+)?(?P<col>[\w -]+?)(?:\s+column)?$", text)
    if m is None:
        return None
    return [SortAsk(column=m.group("col").strip(), descending=descending)]


def adding(verb: str, rest: str) -> list[Ask] | None:
    """ "add 2 of the blue mugs to the cart": quantity, item, the add control."""
    m = re.match(r"(?i)(?P<n>\d+|one|two|three|four|five|six|a pair of|a couple of)?\s*(?:x\s+)?(?:of\s+)?(?"
                 r":the\s+)?"
                 r"(?P<item>.+?)\s+(?:to|into|in)\s+(?:the\s+|my\s+)?(?:shopping\s+)?(?:cart|basket|bag)\b",
                 rest.strip())  # fmt: skip
    if m is None:
        return None
    asks: list[Ask] = []
    count = m.group("n")
    n = int(count) if count and count.isdigit() else NUMBER_WORDS.get((count or "").lower(), 1)
    item = noun_phrase(m.group("item"))
    if n > 1:
        asks.append(FillAsk(field="quantity", value=str(n), where=item))
    asks.append(PressAsk(what="add to cart", item=item))
    return asks
