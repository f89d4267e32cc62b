from __future__ import annotations

from pathlib import Path

import pytest

from executor.research.data import Price, extract_records, parse_number, parse_price, typed_record

SITE = Path(__file__).resolve().parents[2] / "fixtures" / "site" / "research"


@pytest.mark.parametrize(
    ("text", "number"),
    [("1.200.000", 1200000.0), ("1,299.50", 1299.5), ("1.299,50", 1299.5), ("49", 49.0), ("1.50", 1.5),
     ("12,000", 12000.0), ("abc", None), ("", None)],
)  # fmt: skip
def test_parse_number(text: str, number: float | None) -> None:
    assert parse_number(text) == number


@pytest.mark.parametrize(
    ("text", "price"),
    [
        ("$49/mo", Price(49.0, "USD", "month")),
        ("$1,299.50 per year", Price(1299.5, "USD", "year")),
        ("1.200.000 VND/tháng", Price(1200000.0, "VND", "month")),
        ("€39 per month", Price(39.0, "EUR", "month")),
        ("49 USD a month", Price(49.0, "USD", "month")),
        ("2.500.000đ", Price(2500000.0, "VND", None)),
        ("Since 2024, no price here", None),
    ],
)
def test_parse_price(text: str, price: Price | None) -> None:
    assert parse_price(text) == price


def test_typed_record_splits_the_price_and_types_quantities() -> None:
    record = typed_record(
        {"Plan": "Gamma Pro", "Monthly price": "€89", "History": "10 years", "Notes": "fast"},
        source_url="http://x/p",
        kind="table",
    )
    assert record["name"] == "Gamma Pro"
    assert (record["price"], record["currency"], record["period"]) == (89.0, "EUR", "month")
    assert record["history"] == 10.0
    assert record["notes"] == "fast"
    assert record["raw"]["Monthly price"] == "€89"


def test_records_from_a_pricing_table() -> None:
    records = extract_records((SITE / "acme" / "pricing.html").read_text(), "http://x/acme")
    assert [r["name"] for r in records] == ["Starter", "Professional", "Enterprise"]
    assert [r["price"] for r in records] == [49.0, 99.0, 299.0]
    assert records[1]["commercial_use"] == "Allowed"
    assert {r["kind"] for r in records} == {"table"}


def test_records_from_repeated_price_cards() -> None:
    records = extract_records((SITE / "beta" / "pricing.html").read_text(), "http://x/beta")
    assert [(r["name"], r["price"], r["currency"]) for r in records] == [
        ("Beta Basic", 1200000.0, "VND"),
        ("Beta Plus", 2500000.0, "VND"),
        ("Beta Realtime", 6900000.0, "VND"),
    ]
    assert records[0]["commercial_use"] == "internal use only"
    assert records[2]["history"] == 15.0


def test_a_page_without_prices_has_no_records() -> None:
    assert extract_records((SITE / "blog" / "coffee.html").read_text(), "http://x/c") == []
