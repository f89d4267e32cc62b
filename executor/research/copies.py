"""Recognising copies of pages: a mirror is dropped whole, never read for data and never cited.

Two pages are copies when their text's 5-gram Jaccard reaches a threshold (or their content hashes
are equal). Which copy stays:

1. a page the run already read in an earlier step (OPEN_URL, EXTRACT_DOM, an earlier RETRIEVE):
   its evidence is already in the ledger, so a later mirror of it adds nothing but a second number;
2. otherwise the copy the read pages link to most (site navigation points at the original, not at
   a mirror), then the better-ranked one.

A page read again under its own URL is the same page, not a copy: it stays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from executor.models import EvidenceItem
from executor.research.text import jaccard, shingles

COPY_THRESHOLD = 0.6


@dataclass(frozen=True, slots=True)
class KnownPage:
    """A page an earlier step of the run read: its URL, its text when known, its content hash."""

    url: str
    text: str = ""
    content_hash: str | None = None


class PageLike(Protocol):
    @property
    def url(self) -> str: ...

    @property
    def text(self) -> str: ...


def url_key(url: str) -> str:
    return url.split("#", 1)[0].rstrip("/")


def known_pages(
    step_outputs: Mapping[str, Mapping[str, Any]],
    evidence: Sequence[EvidenceItem],
    cached: Mapping[str, tuple[str, str]] | None = None,
) -> list[KnownPage]:
    """Pages read before this step: earlier steps' page outputs (`url` + `content`), the run's cached
    reads of pages that gave evidence (`cached`: url -> (text, content_hash)), and evidence hashes.
    Pages an earlier step already recognised as copies are not known originals."""
    copies = {
        url_key(u)
        for outputs in step_outputs.values()
        for u in outputs.get("duplicates", []) or []
        if isinstance(u, str)
    }
    found: dict[str, KnownPage] = {}
    for outputs in step_outputs.values():
        url, content = outputs.get("url"), outputs.get("content")
        if isinstance(url, str) and isinstance(content, str) and content.strip():
            digest = outputs.get("content_hash")
            found[url_key(url)] = KnownPage(url, content, digest if isinstance(digest, str) else None)
    for item in evidence:
        key = url_key(item.source_url)
        if key in found or key in copies:
            continue
        text, digest = (cached or {}).get(key, ("", item.content_hash or ""))
        found[key] = KnownPage(item.source_url, text, digest or None)
    return [page for key, page in found.items() if key not in copies]


def _inbound(links: Mapping[str, Sequence[str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for targets in links.values():
        for target in set(map(url_key, targets)):
            counts[target] = counts.get(target, 0) + 1
    return counts


def drop_copies(
    docs: Sequence[PageLike],
    known: Sequence[KnownPage] = (),
    *,
    links: Mapping[str, Sequence[str]] | None = None,
    hashes: Sequence[str | None] | None = None,
    threshold: float = COPY_THRESHOLD,
) -> tuple[list[int], list[str]]:
    """Positions of `docs` to keep (in their order) and the URLs dropped as copies.

    `links` maps a read page's URL to the URLs it links to; `hashes` are the docs' content hashes."""
    inbound = _inbound(links or {})
    known_keys = {url_key(k.url) for k in known}
    kept_sh: list[tuple[str, frozenset[str]]] = [(url_key(k.url), shingles(k.text)) for k in known if k.text]
    known_hashes = {k.content_hash: url_key(k.url) for k in known if k.content_hash}
    # Already-read pages first, then the most linked-to copy, then rank order.
    order = sorted(
        range(len(docs)),
        key=lambda i: (url_key(docs[i].url) not in known_keys, -inbound.get(url_key(docs[i].url), 0), i),
    )
    kept: set[int] = set()
    dropped: list[str] = []
    for i in order:
        key = url_key(docs[i].url)
        digest = hashes[i] if hashes is not None else None
        if key in known_keys:
            kept.add(i)
            continue
        if digest and known_hashes.get(digest, key) != key:
            dropped.append(docs[i].url)
            continue
        sh = shingles(docs[i].text)
        if any(other != key and jaccard(sh, s) >= threshold for other, s in kept_sh):
            dropped.append(docs[i].url)
            continue
        kept.add(i)
        kept_sh.append((key, sh))
    return sorted(kept), dropped
