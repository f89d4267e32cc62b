"""Structured data from pages: prices and quantities parsed into typed fields, tables and repeated
blocks (pricing cards, package lists) turned into records that COMPUTE can score.

Number parsing follows how prices are written in the wild: "$1,299.50", "1.200.000 VND" (dots as
thousands separators), "€39 per month". A separator that appears more than once, or once before
exactly three digits, is a thousands separator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from lxml import html as lxml_html

from executor.research.extract import Record, table_records
from executor.research.text import normalise

_CURRENCY_SYMBOLS = {"$": "USD", "US$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₫": "VND", "đ": "VND"}
_CURRENCY_CODES = {"usd", "eur", "gbp", "jpy", "vnd", "vnđ", "dong", "đồng"}
_PERIODS = {
    "month": ("mo", "mon", "month", "monthly", "tháng", "m"),
    "year": ("yr", "year", "yearly", "annual", "annually", "năm", "y"),
    "week": ("wk", "week", "weekly", "tuần"),
    "day": ("day", "daily", "ngày", "d"),
}
_NUMBER = r"\d{1,3}(?:[.,\s]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?"
_PRICE = re.compile(
    rf"(?P<pre>US\$|[$€£¥₫])\s?(?P<n1>{_NUMBER})"
    rf"|(?P<n2>{_NUMBER})\s?(?P<post>[$€£¥₫đ]|USD|EUR|GBP|JPY|VND|VNĐ|dong|đồng)\b",
    re.IGNORECASE,
)
_PERIOD = re.compile(r"\s*(?:/|per\b|a\b)?\s*([^\W\d_]+)", re.UNICODE | re.IGNORECASE)
_QUANTITY = re.compile(rf"^\s*(?P<n>{_NUMBER})\s*(?P<unit>[^\W\d_]+)?\s*$", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Price:
    amount: float
    currency: str
    period: str | None = None


def parse_number(text: str) -> float | None:
    """'1.200.000' -> 1200000, '1,299.50' -> 1299.5, '49' -> 49; None when it is not a number."""
    s = text.strip().replace("\u00a0", " ").replace(" ", "")
    if not s or not re.fullmatch(r"[\d.,]+", s):
        return None
    if "," in s and "." in s:
        decimal = "," if s.rfind(",") > s.rfind(".") else "."
        thousands = "." if decimal == "," else ","
        s = s.replace(thousands, "").replace(decimal, ".")
    else:
        for sep in (",", "."):
            if sep in s:
                parts = s.split(sep)
                s = s.replace(sep, "") if len(parts) > 2 or len(parts[1]) == 3 else s.replace(sep, ".")
    try:
        return float(s)
    except ValueError:
        return None


def _period(tail: str) -> str | None:
    match = _PERIOD.match(tail)
    if not match:
        return None
    word = match.group(1).lower()
    for period, words in _PERIODS.items():
        if word in words:
            return period
    return None


def parse_price(text: str) -> Price | None:
    """The first price in `text` with its currency and billing period, or None."""
    match = _PRICE.search(text)
    if match is None:
        return None
    symbol = match.group("pre") or match.group("post")
    number = match.group("n1") or match.group("n2")
    amount = parse_number(number)
    if amount is None:
        return None
    currency = _CURRENCY_SYMBOLS.get(symbol) or _CURRENCY_SYMBOLS.get(symbol.upper()) or symbol.upper()
    if currency in {"VNĐ", "DONG", "ĐỒNG"}:
        currency = "VND"
    return Price(amount=amount, currency=currency, period=_period(text[match.end() :]))


def snake(name: str) -> str:
    return re.sub(r"[^\w]+", "_", name.strip().lower()).strip("_") or "field"


def typed_value(value: str) -> Any:
    """A number for '10 years' or '42', else the text itself."""
    match = _QUANTITY.match(value)
    if match:
        number = parse_number(match.group("n"))
        if number is not None:
            return number
    return value


def typed_record(fields: Record, *, source_url: str, kind: str) -> dict[str, Any]:
    """A record with snake_case typed fields, `name`, the first price split into amount/currency/period,
    and the original strings under `raw` (shown to people and cited)."""
    out: dict[str, Any] = {"name": next(iter(fields.values()), ""), "source_url": source_url, "kind": kind}
    price_found = False
    for key, value in fields.items():
        price = parse_price(value)
        if price is not None and not price_found:
            price_found = True
            period = price.period or _period(f" {key}")  # a "Monthly price" column names the period
            out.update(price=price.amount, currency=price.currency, period=period)
            continue
        out.setdefault(snake(key), typed_value(value))
    out["raw"] = dict(fields)
    return out


def _block_fields(block: lxml_html.HtmlElement) -> Record | None:
    heading = next(iter(block.xpath(".//h1|.//h2|.//h3|.//h4|.//h5|.//strong")), None)
    text = normalise(block.text_content())
    if heading is None or parse_price(text) is None:
        return None
    fields: Record = {"name": normalise(heading.text_content())}
    price_node = next((n for n in block.iter() if n is not heading and _own_price(n)), None)
    fields["price"] = normalise(price_node.text_content()) if price_node is not None else text
    extras: list[str] = []
    for item in block.iter("li", "dd", "p"):
        line = normalise(item.text_content())
        if not line or item is price_node:
            continue
        key, sep, value = line.partition(":")
        if sep and key and len(key) < 40:
            fields.setdefault(key.strip(), value.strip())
        else:
            extras.append(line)
    if extras:
        fields["features"] = "; ".join(extras)
    return fields


def _own_price(node: lxml_html.HtmlElement) -> bool:
    return len(node) == 0 and parse_price(node.text_content() or "") is not None


def repeated_blocks(tree: lxml_html.HtmlElement) -> list[Record]:
    """Sibling elements of the same tag and class that each carry a heading and a price (cards)."""
    found: list[Record] = []
    for parent in tree.iter():
        groups: dict[tuple[str, str], list[lxml_html.HtmlElement]] = {}
        for child in parent:
            if isinstance(child.tag, str) and child.tag not in {"tr", "tbody", "thead", "table", "li"}:
                groups.setdefault((child.tag, child.get("class") or ""), []).append(child)
        for members in groups.values():
            if len(members) < 2:
                continue
            records = [r for r in (_block_fields(m) for m in members) if r is not None]
            if len(records) >= 2 and not any(m.xpath(".//table") for m in members):
                found.extend(records)
    return found


def extract_records(html: str, source_url: str) -> list[dict[str, Any]]:
    """Typed records from every table with a price or number, then from repeated price blocks."""
    try:
        tree = lxml_html.document_fromstring(html)
    except (lxml_html.etree.ParserError, ValueError):
        return []
    records: list[dict[str, Any]] = []
    for table in tree.iter("table"):
        records.extend(typed_record(r, source_url=source_url, kind="table") for r in table_records(table))
    records.extend(typed_record(r, source_url=source_url, kind="block") for r in repeated_blocks(tree))
    return records
