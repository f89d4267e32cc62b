"""Answers COMPUTE writes from records and evidence, every claim cited as [n] (ledger numbering):

- `comparison`: per source page, each package with its price and key features, a price order when
  the prices are comparable, and the pages' general notes (synthesize_answer).
- `explain_state`: the state an earlier ACT step read (its `state_text`, else its `extracted`
  text), the plan or package it names, and what that includes according to the records and the
  pages' sentences (compare_state_with_sources).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from executor.models import EvidenceItem
from executor.research.common import citation_number
from executor.research.copies import url_key
from executor.research.data import parse_price
from executor.research.extract import label as column_label
from executor.research.supporting_sentences import Sentence, cite, names
from executor.research.text import tokens

_GENERAL = re.compile(r"\b(all|every|each|any)\b", re.IGNORECASE)
_STATE_KEYS = ("plan", "package", "tier", "subscription", "product", "edition", "level", "membership")
#: ACT outputs a COMPUTE step reads as the state, in this order (executor/act/report.py writes them).
STATE_KEYS = ("state_text", "extracted")


@dataclass(frozen=True, slots=True)
class State:
    text: str
    url: str | None
    pairs: list[tuple[str, str]]


def marker(evidence: Sequence[EvidenceItem], url: str | None) -> str:
    n = citation_number(evidence, url) if url else None
    return f" [{n}]" if n else ""


def price_text(record: Mapping[str, Any]) -> str:
    raw = record.get("raw") or {}
    shown = next((v for k, v in raw.items() if "price" in str(k).lower()), None)
    return str(shown) if shown else f"{record.get('price')} {record.get('currency') or ''}".strip()


def features(record: Mapping[str, Any]) -> str:
    """'API calls per day 1,000; History 1 year; ...': the raw fields but the name and the price."""
    raw = record.get("raw")
    if not isinstance(raw, Mapping):
        return ""
    items = list(raw.items())[1:]
    said = (f"{column_label(k)} {v}".strip() for k, v in items if v and "price" not in str(k).lower())
    return "; ".join(said)


def unique_records(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[tuple[str, str]] = set()
    out = []
    for r in records:
        key = (str(r.get("name")), repr(sorted((r.get("raw") or {}).items())))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _header(records: Sequence[Mapping[str, Any]]) -> str | None:
    raw = records[0].get("raw") if records else None
    if isinstance(raw, Mapping) and raw:
        first = tokens(str(next(iter(raw))))
        return first[0] if first else None
    return None


def _is_row(sentence: str, record_names: Sequence[str]) -> bool:
    return any(sentence.startswith(f"{n} - ") for n in record_names)


def notes(
    pool: Sequence[Sentence],
    records: Sequence[Mapping[str, Any]],
    *,
    about: str | None = None,
    limit: int = 4,
) -> list[Sentence]:
    """Sentences that say something about the packages in general ("All packages include ...") or
    name one (`about`, or any record's name), table rows left out."""
    record_names = [str(r.get("name")) for r in records]
    header = _header(records)
    wanted = [about] if about else record_names
    out = []
    for s in pool:
        if _is_row(s.text, record_names):
            continue
        general = header is not None and _GENERAL.search(s.text) and header in tokens(s.text)
        if general or any(names(s.text, n) for n in wanted):
            out.append(s)
    return out[:limit]


def comparison(
    records: Sequence[dict[str, Any]], pool: Sequence[Sentence], evidence: Sequence[EvidenceItem]
) -> str:
    records = unique_records(records)
    by_page: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        by_page.setdefault(str(r.get("source_url", "")), []).append(r)
    lines: list[str] = []
    for url, group in by_page.items():
        title = next((e.title for e in evidence if url_key(e.source_url) == url_key(url) and e.title), url)
        lines.append(f"{title}{marker(evidence, url)}:")
        for r in group:
            extra = features(r)
            lines.append(
                f"- {r.get('name')}: {price_text(r)}"
                + (f" ({extra})" if extra else "")
                + marker(evidence, url)
            )
    priced = [r for r in records if isinstance(r.get("price"), int | float)]
    if len(priced) > 1 and len({(r.get("currency"), r.get("period")) for r in priced}) == 1:
        order = sorted(priced, key=lambda r: float(r["price"]))
        period = f" per {priced[0]['period']}" if priced[0].get("period") else ""
        lines.append(
            f"By price{period}: "
            + " < ".join(
                f"{r.get('name')} {price_text(r)}{marker(evidence, r.get('source_url'))}" for r in order
            )
            + f". Cheapest: {order[0].get('name')}; most expensive: {order[-1].get('name')}."
        )
    said = notes(pool, records)
    if said:
        lines.append("Notes: " + " ".join(cite(s) for s in said))
    return "\n".join(lines)


def read_state(step_outputs: Mapping[str, Mapping[str, Any]]) -> State | None:
    """The state an earlier action step read: its `state_text`, else its `extracted` text."""
    for outputs in step_outputs.values():
        text: str | None = None
        for key in STATE_KEYS:
            value = outputs.get(key)
            if isinstance(value, str) and value.strip():
                text = value
            elif isinstance(value, list) and any(isinstance(v, str) and v.strip() for v in value):
                text = "\n".join(v for v in value if isinstance(v, str))
            if text:
                break
        if text:
            url = outputs.get("state_url") or outputs.get("final_url")
            return State(text, url if isinstance(url, str) else None, state_pairs(text))
    return None


def state_pairs(text: str) -> list[tuple[str, str]]:
    """'Current plan<TAB>Pro' / 'Renews on: 2027-01-01' lines as (label, value)."""
    out = []
    for line in text.splitlines():
        label, sep, value = line.partition("\t") if "\t" in line else line.partition(": ")
        if sep and label.strip() and value.strip() and len(label) <= 40:
            out.append((label.strip(), value.strip()))
    return out


def current_entity(state: State, candidates: Sequence[str]) -> tuple[str, str | None] | None:
    """(the candidate the state names, the label it stands under), a plan-like label first."""
    hits = [(label, c) for label, value in state.pairs for c in candidates if names(value, c)]
    for label, c in hits:
        if any(k in label.lower() for k in _STATE_KEYS):
            return c, label
    if hits:
        return hits[0][1], hits[0][0]
    found = [c for c in candidates if names(state.text, c)]
    return (found[0], None) if found else None


def explain_state(
    state: State,
    records: Sequence[dict[str, Any]],
    pool: Sequence[Sentence],
    evidence: Sequence[EvidenceItem],
) -> str:
    here = url_key(state.url) if state.url else None
    listed = unique_records([r for r in records if url_key(str(r.get("source_url", ""))) != here])
    shown = "; ".join(f"{k}: {v}" for k, v in state.pairs) or state.text.strip()[:300]
    parts = [
        f"The page read{f' ({state.url})' if state.url else ''} shows: {shown}{marker(evidence, state.url)}."
    ]
    found = current_entity(state, [str(r.get("name")) for r in listed])
    if found is None:
        parts.append(
            "None of the packages found in the sources is named there, so there is nothing to explain."
        )
        return " ".join(parts)
    name, label = found
    record = next(r for r in listed if r.get("name") == name)
    src = str(record.get("source_url", ""))
    title = next((e.title for e in evidence if url_key(e.source_url) == url_key(src) and e.title), src)
    parts.append(f"Your {(label or 'plan').lower()} is {name}.")
    extra = features(record)
    parts.append(
        f"According to {title}{marker(evidence, src)}, {name} costs {price_text(record)}"
        + (f" and includes: {extra}" if extra else "")
        + f"{marker(evidence, src)}."
    )
    parts.extend(_price_check(state, record, evidence))
    said = notes([s for s in pool if here is None or url_key(s.url) != here], listed, about=name)
    if said:
        parts.append(" ".join(cite(s) for s in said))
    return " ".join(parts)


def _price_check(state: State, record: Mapping[str, Any], evidence: Sequence[EvidenceItem]) -> list[str]:
    listed = record.get("price")
    for label, value in state.pairs:
        price = parse_price(value)
        if price is None or not isinstance(listed, int | float):
            continue
        src = marker(evidence, str(record.get("source_url", "")))
        if abs(price.amount - float(listed)) < 0.005 and price.currency == record.get("currency"):
            return [f"The {label.lower()} shown ({value}) matches the listed price{src}."]
        return [f"The {label.lower()} shown ({value}) differs from the listed {price_text(record)}{src}."]
    return []
