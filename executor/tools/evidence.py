"""EvidenceLedger: every piece of evidence once, counted, with an enough-evidence signal for mode A."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from urllib.parse import urlsplit, urlunsplit

from executor.models import EvidenceItem


def _normal_url(url: str) -> str:
    parts = urlsplit(url.strip())
    path = parts.path.rstrip("/") or "/"
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def _key(item: EvidenceItem) -> tuple[str, str]:
    text = " ".join(item.snippet.split()).lower()
    return _normal_url(item.source_url), hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


class EvidenceLedger:
    def __init__(self, items: Iterable[EvidenceItem] = (), *, min_evidence: int = 0) -> None:
        self.items: list[EvidenceItem] = []
        self._seen: set[tuple[str, str]] = set()
        self.min_evidence = min_evidence
        self.ingest(items)

    def ingest(self, items: Iterable[EvidenceItem]) -> list[EvidenceItem]:
        """Adds the items not seen before (same normalised URL and snippet); returns those."""
        added: list[EvidenceItem] = []
        for item in items:
            key = _key(item)
            if key in self._seen:
                continue
            self._seen.add(key)
            self.items.append(item)
            added.append(item)
        return added

    def count(self) -> int:
        return len(self.items)

    @property
    def enough(self) -> bool:
        return self.min_evidence > 0 and len(self.items) >= self.min_evidence
