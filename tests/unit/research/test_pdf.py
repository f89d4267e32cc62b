from __future__ import annotations

import pytest

from executor.research.pdf import PdfUnreadable, page_url, parse_pdf
from tests.support.pdf import make_pdf


def test_text_per_page_with_page_numbers() -> None:
    doc = parse_pdf(
        make_pdf([["First page text."], ["Second (page) text."]], title="Terms"), "http://h/t.pdf"
    )
    assert doc.title == "Terms"
    assert doc.pages == ["First page text.", "Second (page) text."]
    assert "[page 2] Second (page) text." in doc.text


def test_page_url_uses_the_pdf_fragment() -> None:
    assert page_url("http://h/t.pdf#page=9", 2) == "http://h/t.pdf#page=2"


def test_not_a_pdf() -> None:
    with pytest.raises(PdfUnreadable):
        parse_pdf(b"<html>nope</html>", "http://h/x.pdf")
