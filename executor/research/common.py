"""Small helpers the research tools share: reading step arguments and making evidence items."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from executor.errors import FatalToolError
from executor.models import EvidenceItem
from executor.research.reader import ReadResult
from executor.research.text import normalise

SNIPPET_CHARS = 400


def arg_str(args: Mapping[str, Any], *names: str) -> str | None:
    for name in names:
        value = args.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def require_url(args: Mapping[str, Any]) -> str:
    url = arg_str(args, "url", "href", "source_url")
    if url is None:
        raise FatalToolError("this step needs a `url` input", code="bad_args")
    return url


def arg_int(args: Mapping[str, Any], name: str, default: int, *, low: int = 1, high: int = 100) -> int:
    value = args.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise FatalToolError(f"`{name}` must be a number", code="bad_args")
    try:
        number = int(value)
    except ValueError as exc:
        raise FatalToolError(f"`{name}` must be a number, not {value!r}", code="bad_args") from exc
    return max(low, min(high, number))


def queries_from(args: Mapping[str, Any], plan_queries: Iterable[Any]) -> list[str]:
    """The step's queries (`query`, `q`, `queries`, `sub_queries`), else the plan's sub_queries."""
    found: list[str] = []
    single = arg_str(args, "query", "q")
    if single:
        found.append(single)
    for key in ("queries", "sub_queries"):
        value = args.get(key)
        if isinstance(value, list):
            found.extend(_query_text(v) for v in value)
    if not found:
        found = [_query_text(q) for q in plan_queries]
    return list(dict.fromkeys(q for q in found if q))


def _query_text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, Mapping):
        return str(value.get("q") or value.get("query") or "").strip()
    q = getattr(value, "q", None)
    return q.strip() if isinstance(q, str) else ""


def evidence_from(
    read: ReadResult, snippet: str, *, confidence: float, url: str | None = None, title: str | None = None
) -> EvidenceItem:
    return EvidenceItem(
        source_url=url or read.url,
        title=title if title is not None else read.content.title,
        snippet=normalise(snippet)[:SNIPPET_CHARS],
        retrieved_at=read.retrieved_at,
        confidence=round(max(0.0, min(1.0, confidence)), 3),
        content_hash=read.content_hash,
    )


def citation_number(evidence: Sequence[EvidenceItem], url: str) -> int | None:
    """The [n] of the first evidence item from `url` (fragment ignored), in ledger numbering."""
    base = url.split("#", 1)[0]
    for n, item in enumerate(evidence, start=1):
        if item.source_url.split("#", 1)[0] == base:
            return n
    return None
