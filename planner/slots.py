"""Slot values read the way a person writes them, and normalised to what a form field takes.

"fill the name with Bob", "set name = Bob", "enter 'Bob Smith' as the name", "my phone is
0912 345 678", "budget 5tr": the separator words ("with", "as", "to", "=", "is"), quotes and the
value's own shape (email, phone, date, amount) decide the value, not the first words that follow.
"""

from __future__ import annotations

import re

from common.lazy import lazy_pattern
from planner.entities import parse_amount

#: Between a field word and its value: "the name (field) with/as/to/is/=/: Bob".
SEP = lazy_pattern(
    r"^\s*(?:(?:field|box|input|ô|trường|o|truong)\s+)?"
    r"(?:(?:is|are|là|la|of|with|as|to|should be|bằng|bang|thành|thanh|:)(?=\s|$)|=|:)?\s*",
    re.IGNORECASE,
)
EMAIL = lazy_pattern(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
PHONE = lazy_pattern(r"(?<![\w{])\+?\d[\d .-]{7,15}\d(?![\w}])")
_DATE_DMY = lazy_pattern(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})")
_DATE_ISO = lazy_pattern(r"^(\d{4})-(\d{2})-(\d{2})")
_MONEY = lazy_pattern(
    r"^(?P<cur1>\$|€|£|usd\s?|vnd\s?)?(?P<num>\d{1,3}(?:[.,]\d{3})+|\d+(?:[.,]\d+)?)\s?"
    r"(?P<unit>k|tr|triệu|trieu|nghìn|nghin|ngàn|ngan|million|m)?\s?"
    r"(?P<cur2>đ|vnd|vnđ|usd|dollars?|đồng|dong|\$)?(?![\w])",
    re.IGNORECASE,
)
#: Typed-in before the field it goes to: "enter 'Bob Smith' as the name", "type hello in the message box".
BEFORE_FIELD = lazy_pattern(
    r"(?:(?P<q>[\"'“‘])(?P<quoted>[^\"'”’]{1,80})[\"'”’]|(?<=\s)(?P<word>[\w@.+-]{1,40}))"
    r"\s+(?:as|into|in|vào|vao|cho)\s+(?:the\s+|my\s+|your\s+|ô\s+|o\s+|trường\s+|truong\s+)?$",
    re.IGNORECASE,
)
_TYPING_VERB = lazy_pattern(r"(?i)\b(?:enter|type|put|write|nhập|nhap|điền|dien|gõ|go)\s+$")
_CURRENCY = {"$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "€": "EUR", "£": "GBP"}


def phone_value(raw: str) -> str | None:
    """The phone as the person wrote it ('0912 345 678', '+84 90 123 4567'); None if not a phone."""
    digits = re.sub(r"\D", "", raw)
    if not raw.strip().startswith(("+", "0")) or not 9 <= len(digits) <= 13:
        return None
    return raw.strip()


def date_value(raw: str) -> str | None:
    """'12/03/1990' (day first, as written in Vietnam and Europe) or '1990-03-12' -> '1990-03-12'."""
    m = _DATE_ISO.match(raw)
    if m:
        return m.group(0)
    m = _DATE_DMY.match(raw)
    if m and 1 <= int(m.group(1)) <= 31 and 1 <= int(m.group(2)) <= 12:
        return f"{m.group(3)}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"
    return None


_CLOCK = re.compile(
    r"(?i)^(\d{1,2})(?:(?:[:.h]|\s*giờ\s*)(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.|h|giờ)?\s*(sáng|trưa|chiều|tối|đêm)?$"
)


def clock_value(raw: str) -> str | None:
    """A time of day as a time input takes it: '7pm', '7:30 p.m.', '19h', '7 giờ tối' -> '19:00'/'19:30';
    None for anything else (a bare '7' is not said to be a time)."""
    m = _CLOCK.match(raw.strip())
    if m is None or not (m.group(2) or m.group(3) or "giờ" in raw):
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    half = (m.group(3) or "").lower().replace(".", "")
    later = half == "pm" or (m.group(4) or "").lower() in ("chiều", "tối", "đêm")
    if half in ("am", "pm") and not 1 <= hour <= 12:
        return None
    hour = hour % 12 + 12 if later and hour <= 12 else (0 if half == "am" and hour == 12 else hour)
    return f"{hour:02d}:{minute:02d}" if hour < 24 and minute < 60 else None


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")  # fmt: skip


def long_date(raw: str) -> str | None:
    """'2 April 2027' or 'April 2, 2027' (a month written out, or its first three letters) -> '2027-04-02'."""
    m = re.match(r"(?i)^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})", raw.strip()) or None
    day, month, year = (m.group(1), m.group(2), m.group(3)) if m else (None, None, None)
    if m is None:
        m = re.match(r"(?i)^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", raw.strip())
        if m is None:
            return None
        month, day, year = m.group(1), m.group(2), m.group(3)
    number = next((i for i, name in enumerate(_MONTHS, 1) if name.startswith(str(month).lower()[:3])), None)
    if number is None or not 1 <= int(str(day)) <= 31:
        return None
    return f"{year}-{number:02d}-{int(str(day)):02d}"


def amount_value(raw: str) -> str | None:
    """'5tr' -> '5000000 VND', '500k' -> '500000 VND', '200.000đ' -> '200000 VND', '$99.5' -> '99.5 USD'."""
    m = _MONEY.match(raw.strip())
    if not m:
        return None
    value = parse_amount(m.group("num"), m.group("unit"))
    if value is None:
        return None
    cur = (m.group("cur1") or m.group("cur2") or "").strip().lower()
    currency = _CURRENCY.get(cur, "VND" if cur or m.group("unit") else "")
    number = f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{number} {currency}".strip()


def typed_value(key: str, raw: str) -> str | None:
    """The value a field of `key` takes from the text after its separator; None when it has none."""
    if key == "email":
        m = EMAIL.match(raw)
        return m.group(0) if m else None
    if key == "phone":
        m = PHONE.match(raw)
        return phone_value(m.group(0)) if m else None
    if key in ("date", "date_of_birth"):
        return date_value(raw)
    if key == "amount":
        return amount_value(raw)
    return None


def value_before(original: str, field_start: int) -> str | None:
    """A value written before its field: "enter 'Bob' as the name", "type hello into the message box"."""
    head = original[max(0, field_start - 120) : field_start]
    m = BEFORE_FIELD.search(head)
    if m is None:
        return None
    if m.group("quoted"):
        return m.group("quoted").strip() or None
    if _TYPING_VERB.search(head[: m.start("word")]):
        return m.group("word")
    return None


def unlabelled(original: str, start: int) -> dict[str, str]:
    """Values whose shape names their field: an email or a phone with no field word before it."""
    found: dict[str, str] = {}
    rest = original[start:]
    email = EMAIL.search(rest)
    if email:
        found["email"] = email.group(0)
    for m in PHONE.finditer(EMAIL.sub(lambda e: " " * len(e.group(0)), rest)):
        phone = phone_value(m.group(0))
        tail = rest[m.end() : m.end() + 4].lower()
        if phone and not re.match(r"\s?(?:đ|vnd|k\b|tr\b|usd)", tail):
            found["phone"] = phone
            break
    return found
