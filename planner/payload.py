"""Form values a task names ("fill the form with name Alice, email a@b.co and company Acme").

Only the part of the task after the first action verb is read, so "research company X" never turns
into a company field. Keys are canonical (name, email, company, phone, ...), values keep their case.
"""

from __future__ import annotations

import re

from common.lazy import lazy_pattern
from common.secrecy import PLACEHOLDER
from planner import slots
from planner._text import Text, fold, search_terms, strip_quotes
from planner.lexicon import ACTION

#: canonical key -> the words a person uses for it (longest phrases win over their prefixes).
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "company": ("company name", "company", "organization", "organisation", "tên công ty", "công ty",
                "doanh nghiệp", "tổ chức"),
    "username": ("username", "user name", "login name", "tên đăng nhập", "tên tài khoản"),
    "name": ("full name", "your name", "name", "họ và tên", "họ tên", "tên"),
    "first_name": ("first name", "given name"),
    "last_name": ("last name", "surname", "family name", "họ"),
    "email": ("email address", "email", "e-mail", "mail", "địa chỉ email", "thư điện tử"),
    "phone": ("phone number", "phone", "mobile", "tel", "số điện thoại", "điện thoại", "sđt", "sdt"),
    "address": ("address", "địa chỉ", "street", "street address", "street and number", "address line 1"),
    "city": ("city", "thành phố", "tỉnh"),
    "job_title": ("job title", "position", "chức vụ", "vị trí"),
    "message": ("message", "note", "comment", "reply", "your reply", "body", "lời nhắn", "ghi chú",
                "nội dung"),
    "website": ("website", "trang web"),
    "password": ("password", "mật khẩu"),
    "date_of_birth": ("date of birth", "birth date", "birthday", "dob", "ngày sinh"),
    "date": ("date", "appointment date", "ngày hẹn"),
    "amount": ("amount", "số tiền", "budget", "ngân sách"),
    "quantity": ("quantity", "qty", "số lượng"),
    "postcode": ("postcode", "post code", "postal code", "zip code", "zip", "mã bưu chính", "mã bưu điện"),
}  # fmt: skip
_WORD_TO_KEY = {w: k for k, words in FIELD_WORDS.items() for w in words}
_ALL_WORDS = tuple(_WORD_TO_KEY)
_PLACE = (
    r"|(?:^|\s)(?:on|at|in|trên|tren|tại|tai|ở)\s+(?:https?://|this\b|the\b|trang\b|[\w-]+\.[a-z]{2,})"
    r"|\s(?:in|into|vào|vao)\s+(?:the\s+)?(?:form|field|box|ô|o|trường|truong|biểu mẫu|bieu mau)\b"
    # "type X into the Password field": the field's own name starts the next hit, so only
    # "into the" is left after the value
    r"|\s(?:in|into|vào|vao)(?:\s+the)?\s*$"
)
_STOP = lazy_pattern(
    r"(?i)\s*(?:[,;()\n]|\s(?:and|và|va|then|rồi|roi|but|nhưng|nhung|after that|sau đó)\s|\.\s|\.$|$"
    + _PLACE
    + ")"
)
#: Verbs after which field values may follow (the task's actions, and "set"/"change" phrasing).
_STARTS = (*ACTION, "set", "change", "update", "select", "put", "write", "request", "apply", "sửa", "đổi")
#: "to" separates a field from its value only after a verb that sets: "change the name to Bob".
_SETS = lazy_pattern(r"(?i)\b(?:set|change|update|switch|đổi|doi|sửa|sua)\b")
#: "register as Jane Doe": a capitalised name after "as" is the person's name.
_AS_NAME = lazy_pattern(r"\bas\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,3})")
_TYPED = frozenset({"email", "phone", "date", "date_of_birth", "amount"})
#: "fill the email field" names a field, not a value (lower case only: "An" is a name).
_BAD_VALUE = lazy_pattern(r"^(?:field|fields|box|input|ô|trường|the|a|an|form|it|này|Field|The|Form)\b")
#: Addresses hold commas ("12 Ly Thuong Kiet, Ha Noi"): they end at the next field or a clause.
_STOP_ADDRESS = lazy_pattern(
    r"(?i)\s*(?:[;()\n]|\s(?:then|rồi|roi|but|nhưng|nhung)\s|\.\s|\.$|$" + _PLACE + ")"
)


_FOLDED_TO_KEY = {" ".join(fold(w).split()): k for w, k in _WORD_TO_KEY.items()}
_MARKED_TO_KEY = {w.lower(): k for w, k in _WORD_TO_KEY.items()}


def _key_for(phrase: str) -> str | None:
    """The canonical key of a matched field word (accent-exact first, then folded)."""
    spaced = " ".join(phrase.lower().split())
    return _MARKED_TO_KEY.get(spaced) or _FOLDED_TO_KEY.get(fold(spaced))


def _action_start(text: Text) -> int | None:
    hits = search_terms(text, _STARTS)
    return hits[0].end() if hits else None


def extract_payload(text: Text) -> dict[str, str]:
    """Field -> value for every field word with a value after the first action verb; then values
    whose shape names their field (an email, a phone) and "as <Name>"."""
    start = _action_start(text)
    if start is None:
        return {}
    secret_spans = [m.span() for m in PLACEHOLDER.finditer(text.original)]
    hits = [
        m
        for m in search_terms(text, _ALL_WORDS)
        if m.start() >= start and not any(a <= m.start() < b for a, b in secret_spans)
    ]
    hits = _drop_overlaps(hits)
    payload: dict[str, str] = {}
    for i, m in enumerate(hits):
        key = _key_for(text.original[m.start() : m.end()])
        if key is None or key in payload:
            continue
        limit = hits[i + 1].start() if i + 1 < len(hits) else len(text.original)
        value = _value_after(text.original, m.end(), limit, key) or slots.value_before(
            text.original, m.start()
        )
        if value:
            payload[key] = value
    plain = PLACEHOLDER.sub(lambda p: " " * len(p.group(0)), text.original)
    for key, value in slots.unlabelled(plain, start).items():
        if key not in payload and value not in payload.values():
            payload[key] = value
    named = _AS_NAME.search(plain, start)
    if named and "name" not in payload and "@" not in named.group(1):
        payload["name"] = named.group(1)
    return payload


def _drop_overlaps(hits: list[re.Match[str]]) -> list[re.Match[str]]:
    kept: list[re.Match[str]] = []
    for m in sorted(hits, key=lambda h: (h.start(), -(h.end() - h.start()))):
        if kept and m.start() < kept[-1].end():
            continue
        kept.append(m)
    return kept


def _value_after(original: str, pos: int, limit: int, key: str) -> str | None:
    rest = original[pos:limit]
    sep = slots.SEP.match(rest)
    if sep and sep.group(0).strip().lower() == "to" and not _SETS.search(original[:pos]):
        return None  # "send the message to Bob" names a recipient, not the message
    rest = rest[sep.end() :] if sep else rest
    if key in _TYPED:
        return slots.typed_value(key, rest)
    if rest and rest[0] in "\"'“‘«":
        close = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»"}[rest[0]]
        end = rest.find(close, 1)
        if end > 0:
            return rest[1:end].strip() or None
    stop = (_STOP_ADDRESS if key == "address" else _STOP).search(rest)
    value = strip_quotes(rest[: stop.start()] if stop else rest).strip(" ,")
    if not value or _BAD_VALUE.match(value) or len(value) > 80:
        return None
    if key == "password" and not value.startswith("{{secret:"):
        return None
    return value
