"""COMPUTE: score records from FETCH_DATA with the step's rules, pick one, explain why,
and build the form payload the ACT step fills. Never touches the UI.

What the task says the choice is for ("for a small fintech") ranks first: ComputeTool counts the
cited sentences tying each candidate to that need (executor/research/supporting_sentences.py); the
rules below order candidates with equal support, and constraints such as max_price still rule
candidates out.

Rules (step inputs or config, all optional):
  weights      {"price": -1, "history": 0.5, "commercial_use": 2}: numeric fields are min-max
               scaled over the candidates; text fields score 1 when they match `prefer`
  prefer       {"commercial_use": "allowed"}: the text a field should say (a negation such as
               "not allowed" or "only" does not count)
  constraints  {"max_price": 100, "currency": "USD", "require": {"commercial_use": "allowed"},
               "include": {"exchanges": ["HNX"]}}
  fx           {"VND": 0.00004}: rates into the constraint currency; without one, a record priced
               in another currency cannot meet a price limit and is rejected with that reason
  payload      base form payload; payload_map {"package": "name"} copies record fields into it
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

_NEGATION = re.compile(r"\b(not|no|never|only|without|prohibited|forbidden)\b", re.IGNORECASE)
DEFAULT_WEIGHTS: dict[str, float] = {"price": -1.0}


@dataclass(slots=True)
class Scored:
    record: dict[str, Any]
    score: float = 0.0
    reasons: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Decision:
    ranked: list[Scored]
    rejected: list[tuple[dict[str, Any], str]]

    @property
    def best(self) -> Scored | None:
        return self.ranked[0] if self.ranked else None


def says(value: Any, wanted: str) -> bool:
    """True when the text contains `wanted` and no negation ('Not allowed', 'internal use only')."""
    text = str(value).lower()
    return wanted.lower() in text and not _NEGATION.search(text)


def price_in(record: Mapping[str, Any], currency: str | None, fx: Mapping[str, float]) -> float | None:
    price = record.get("price")
    if not isinstance(price, int | float):
        return None
    have = record.get("currency")
    if currency is None or have == currency:
        return float(price)
    rate = fx.get(str(have))
    return float(price) * rate if rate is not None else None


def _reject_reason(
    record: Mapping[str, Any], constraints: Mapping[str, Any], fx: Mapping[str, float]
) -> str | None:
    max_price = constraints.get("max_price")
    currency = constraints.get("currency")
    if isinstance(max_price, int | float):
        price = price_in(record, currency, fx)
        if price is None:
            return f"price in {record.get('currency')} cannot be compared with a limit in {currency}"
        if price > max_price:
            return f"price {price:g} {currency or ''} is over the limit {max_price:g}".replace("  ", " ")
    for key, wanted in (constraints.get("require") or {}).items():
        if not says(record.get(key, ""), str(wanted)):
            return f"{key} is {record.get(key, 'unknown')!r}, not {wanted!r}"
    for key, needed in (constraints.get("include") or {}).items():
        have = str(record.get(key, "")).lower()
        missing = [n for n in ([needed] if isinstance(needed, str) else needed) if str(n).lower() not in have]
        if missing:
            return f"{key} lacks {', '.join(map(str, missing))}"
    return None


def score(
    records: Sequence[dict[str, Any]],
    *,
    weights: Mapping[str, float] | None = None,
    prefer: Mapping[str, str] | None = None,
    constraints: Mapping[str, Any] | None = None,
    fx: Mapping[str, float] | None = None,
) -> Decision:
    """Filters by constraints, then scores what is left; ties keep the records' order."""
    weights = dict(weights or DEFAULT_WEIGHTS)
    prefer = dict(prefer or {})
    constraints = dict(constraints or {})
    fx = dict(fx or {})
    currency = constraints.get("currency")
    ok: list[Scored] = []
    rejected: list[tuple[dict[str, Any], str]] = []
    for record in records:
        reason = _reject_reason(record, constraints, fx)
        if reason is None:
            ok.append(Scored(record))
        else:
            rejected.append((record, reason))
    for key, weight in weights.items():
        if key in prefer:
            for s in ok:
                if says(s.record.get(key, ""), prefer[key]):
                    s.score += weight
                    s.reasons.append(f"{key}: {s.record.get(key)}")
            continue
        values = {
            id(s): (price_in(s.record, currency, fx) if key == "price" else s.record.get(key)) for s in ok
        }
        numbers = [v for v in values.values() if isinstance(v, int | float)]
        if not numbers:
            continue
        low, high = min(numbers), max(numbers)
        for s in ok:
            v = values[id(s)]
            if not isinstance(v, int | float):
                continue
            scaled = 0.5 if high == low else (v - low) / (high - low)
            s.score += weight * scaled if weight >= 0 else -weight * (1 - scaled)
            if (weight < 0 and v == low) or (weight > 0 and v == high):
                s.reasons.append(f"{'lowest' if weight < 0 else 'highest'} {key} ({_show(s.record, key)})")
    ok.sort(key=lambda s: -s.score)
    return Decision(ranked=ok, rejected=rejected)


def _show(record: Mapping[str, Any], key: str) -> str:
    raw = record.get("raw")
    if isinstance(raw, Mapping):
        for name, value in raw.items():
            if name.lower().replace(" ", "_") == key or (key == "price" and "price" in name.lower()):
                return str(value)
    return str(record.get(key))


def build_payload(
    best: Mapping[str, Any], base: Mapping[str, Any] | None, mapping: Mapping[str, str] | None
) -> dict[str, Any]:
    """The base payload plus record fields named by `mapping` (form field -> record field)."""
    payload = dict(base or {})
    for form_field, record_field in (mapping or {"package": "name"}).items():
        if record_field in best and form_field not in payload:
            payload[form_field] = best[record_field]
    return payload
