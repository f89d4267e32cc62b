from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html

from executor.research.extract import Link, parse_html, record_line, table_records

SITE = Path(__file__).resolve().parents[2] / "fixtures" / "site" / "research"


def test_main_text_without_boilerplate() -> None:
    page = parse_html((SITE / "acme" / "pricing.html").read_text(), "http://h/research/acme/pricing.html")
    assert page.title == "Acme Data - Datafeed pricing and packages"
    assert "most popular choice for SaaS products" in page.text
    assert "cookies" not in page.text.lower()
    assert "All rights reserved" not in page.text
    assert "Professional - Price: $99/mo; Exchanges: HOSE, HNX;" in page.text
    assert page.headings[:2] == ["Acme Data datafeed packages", "Packages and prices"]
    assert page.tables[0][0]["Price"] == "$49/mo"
    assert Link("http://h/research/acme/terms.html", "Terms") in page.links


def test_headerless_table_gets_column_names() -> None:
    table = lxml_html.fragment_fromstring("<table><tr><td>a</td><td>1</td></tr><tr><td>b</td></tr></table>")
    assert table_records(table) == [{"col1": "a", "col2": "1"}, {"col1": "b"}]


def test_record_line() -> None:
    assert record_line({"Plan": "Pro", "Price": "$9", "Note": ""}) == "Pro - Price: $9."
    assert record_line({"Plan": "Pro"}) == "Pro."
    assert record_line({}) == ""


def test_plain_text_without_markup_is_still_read() -> None:
    page = parse_html("just some words", "http://h/x")
    assert "just some words" in page.text
