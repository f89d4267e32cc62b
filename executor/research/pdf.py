"""PDF bytes -> text per page (pypdf), so citations can name the page a claim came from."""

from __future__ import annotations

import io

from executor.research.extract import PageContent
from executor.research.text import normalise


class PdfUnreadable(ValueError):
    """The bytes are not a PDF pypdf can read (corrupt, encrypted without a password, not a PDF)."""


def page_url(url: str, page: int) -> str:
    """The standard PDF open-parameter fragment: viewers jump to that page."""
    return f"{url.split('#', 1)[0]}#page={page}"


def parse_pdf(data: bytes, url: str) -> PageContent:
    from pypdf import PdfReader  # loaded on first use, not at startup
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise PdfUnreadable(f"{url} is encrypted")
        pages = [page.extract_text() or "" for page in reader.pages]
        meta_title = reader.metadata.title if reader.metadata else None
    except PdfReadError as exc:
        raise PdfUnreadable(f"{url} is not a readable PDF: {exc}") from exc
    title = normalise(meta_title or "") or (normalise(pages[0].splitlines()[0]) if pages and pages[0] else "")
    text = "\n".join(f"[page {n}] {normalise(t)}" for n, t in enumerate(pages, start=1) if t.strip())
    return PageContent(url=url, title=title, text=text, pages=[normalise(t) for t in pages])
