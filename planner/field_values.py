"""Field values as people list them: "name Alan Turing, email alan@example.com and subject Billing",
"the city London and postcode NW1 6XE", "'Bob' into the message box", "Billing as the subject".

A field is named by a known field word (planner/payload.py's FIELD_WORDS) or, when the page uses a
word the rules do not know ("subject", "postcode", "street"), by the lower-case words right before a
value that starts like a value does (a capital, a digit, a quote, an e-mail address, a secret
placeholder). The page's own labels decide later which field each name means (planner/grounding.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from common.lazy import lazy_pattern
from common.secrecy import PLACEHOLDER
from planner._text import fold, strip_quotes
from planner.payload import FIELD_WORDS
from planner.slots import EMAIL, date_value

#: Words that are never a field's name on their own.
_FILLER = frozenset(
    [
        "the",
        "a",
        "an",
        "my",
        "your",
        "our",
        "his",
        "her",
        "their",
        "its",
        "this",
        "that",
        "with",
        "and",
        "or",
        "to",
        "of",
        "for",
        "in",
        "on",
        "at",
        "by",
        "as",
        "form",
        "field",
        "fields",
        "box",
        "input",
        "value",
        "values",
        "details",
        "info",
        "information",
    ]
)
#: "with", "to", "as", "is", "=", ":" between a field and its value.
_SEP = lazy_pattern(
    r"^\s*(?:(?:field|box|input)\s+)?(?:(?:with|to|is|as|=|:|of|thành|là)(?=\s|$)|=|:)?\s*", re.I
)
#: A value starts like this: a capital letter or digit, a quote, a placeholder, an address, "+".
_VALUE_START = lazy_pattern(r"""^(?:["'“‘«]|""" + PLACEHOLDER.pattern + r"""|[A-ZÀ-Ỹ0-9+]|[\w.+-]+@)""")
#: Items of a list: commas and "and" (not inside quotes or placeholders).
_ITEM_BREAK = lazy_pattern(r"\s*,\s*(?:and\s+|và\s+)?|\s+(?:and|và|va|as well as|plus)\s+", re.I)
#: "'Hello' into the message box", "Bob in the name field".
_INTO = lazy_pattern(
    r"""^(?P<value>["'“‘][^"'”’]+["'”’]|\S+(?:\s+\S+){0,5}?)\s+(?:in|into|vào|vao)\s+(?:the\s+|my\s+|your\s+)?"""
    r"(?P<field>[\w\s-]{1,40}?)(?:\s+(?:field|box|input|ô|trường))?$",
    re.I,
)
#: "Billing as the subject", "ada@x.co as my email".
_AS = lazy_pattern(r"^(?P<value>.+?)\s+as\s+(?:the\s+|my\s+|your\s+)?(?P<field>[\w\s-]{1,40})$", re.I)
#: "my email is a@b.co".
_IS = lazy_pattern(
    r"^(?:my\s+|the\s+|your\s+)?(?P<field>[\w\s-]{1,30}?)\s+(?:is|are|là)\s+(?P<value>.+)$", re.I
)
KNOWN_FIELDS = sorted(
    {w for words in FIELD_WORDS.values() for w in words} | set(FIELD_WORDS), key=len, reverse=True
)


@dataclass(frozen=True)
class FieldValue:
    field: str
    value: str


def _clean_field(words: str) -> str:
    kept = [w for w in re.findall(r"[\w'-]+", words) if w.lower() not in _FILLER]
    return " ".join(kept)


def _known_prefix(item: str) -> tuple[str, str] | None:
    """("email", rest) when the item starts with a known field word (longest first)."""
    low = fold(item.lower())
    for word in KNOWN_FIELDS:
        w = fold(word)
        if low.startswith(w) and (len(low) == len(w) or not low[len(w)].isalnum()):
            return item[: len(w)], item[len(w) :]
    return None


def _value_of(rest: str) -> str | None:
    rest = _SEP.sub("", rest, count=1).strip().rstrip(".!;")
    if not rest:
        return None
    email = EMAIL.match(rest)
    if email:
        return email.group(0)
    value = strip_quotes(rest).strip(" ,")
    return value or None


def read_item(item: str) -> FieldValue | None:
    """One list item as (field, value); None when it names no value."""
    item = item.strip().strip(",")
    item = re.sub(r"^(?:the|my|your|a|an)\s+", "", item, flags=re.I)
    if not item:
        return None
    for pattern in (_INTO, _AS):
        m = pattern.match(item)
        if m:
            field = _clean_field(m.group("field"))
            value = strip_quotes(m.group("value"))
            if field and value:
                return FieldValue(field, value)
    is_ = _IS.match(item)
    if is_ and _clean_field(is_.group("field")):
        return FieldValue(_clean_field(is_.group("field")), strip_quotes(is_.group("value")))
    known = _known_prefix(item)
    if known is not None:
        said = _value_of(known[1])
        if said:
            return FieldValue(known[0].strip(), said)
    # Unknown field word(s): the lower-case words before the first value-looking word.
    words = item.split()
    for i in range(1, min(len(words), 4)):
        head, tail = " ".join(words[:i]), " ".join(words[i:])
        if head != head.lower():
            break
        rest = _SEP.sub("", tail, count=1)
        if _VALUE_START.match(rest) or date_value(rest.strip()):
            field = _clean_field(head)
            given = _value_of(tail)
            if field and given:
                return FieldValue(field, given)
    return None


def unlisted(text: str) -> list[str]:
    """The items of a list that name no field and value: what `read_list` skips, for the reader to
    say unread rather than drop."""
    protected, originals = _protect(text)
    items = (_restore(raw, originals).strip(" .,;") for raw in _ITEM_BREAK.split(protected))
    return [i for i in items if i and read_item(i) is None]


def read_list(text: str) -> list[FieldValue]:
    """Every (field, value) a list names, in order; items that name none are skipped."""
    out: list[FieldValue] = []
    protected, originals = _protect(text)
    for raw in _ITEM_BREAK.split(protected):
        found = read_item(_restore(raw, originals))
        if found is not None:
            out.append(found)
    return out


_QUOTED = lazy_pattern(r"""["“‘][^"”’]*["”’]|""" + PLACEHOLDER.pattern)


def _protect(text: str) -> tuple[str, list[str]]:
    """Quoted values and placeholders are kept whole while the list is split."""
    originals: list[str] = []

    def keep(m: re.Match[str]) -> str:
        originals.append(m.group(0))
        return f"\x00{len(originals) - 1}\x00"

    return _QUOTED.sub(keep, text), originals


def _restore(text: str, originals: list[str]) -> str:
    return re.sub(r"\x00(\d+)\x00", lambda m: originals[int(m.group(1))], text)
