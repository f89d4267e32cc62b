"""Cognition that reads memory: fields a site showed before are filled by the label that worked.

The runtime hands the hints in (memory.field_hints(site)); cognition stays pure. For payload keys
whose remembered label names an element on the page, fill actions come from the hint; everything
else is the inner cognition's call (rules or model).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from browser.models import ElementInfo, Observation
from common.secrecy import has_placeholder
from planner.asks import AskList
from planner.cognition import asks_of, fillable, norm
from planner.decisions import AsksAware, Cognition, CognitionDecision, HistoryEntry


class HintedCognition:
    def __init__(self, inner: Cognition, hints: Mapping[str, Mapping[str, Any]]) -> None:
        self.inner = inner
        self.hints = hints

    def with_asks(self, asks: AskList) -> Cognition:
        """A step with asks names each field itself: the inner cognition follows them, no hints."""
        return self.inner.with_asks(asks) if isinstance(self.inner, AsksAware) else self.inner

    def _element(self, key: str, observation: Observation) -> ElementInfo | None:
        label = norm(str(self.hints.get(key, {}).get("label") or ""))
        if not label:
            return None
        return next(
            (
                e
                for e in observation.elements
                if fillable(e) and label in (norm(e.name), norm(e.placeholder or ""))
            ),
            None,
        )

    async def decide(
        self, goal: str, payload: dict[str, str], observation: Observation, history: Sequence[HistoryEntry]
    ) -> CognitionDecision:
        if asks_of(goal, payload).asks:  # the goal names each field itself: no guess from another task
            return await self.inner.decide(goal, payload, observation, history)
        done = {
            (h.action.get("target") or {}).get("index")
            for h in history
            if h.status == "ok" and h.action.get("kind") in ("fill", "select")
        }
        actions: list[dict[str, Any]] = []
        handled: set[str] = set()
        for key, value in payload.items():
            if has_placeholder(value):
                continue  # secrets are never replayed from memory; the binding decides where they go
            element = self._element(key, observation)
            if element is None:
                continue
            handled.add(key)
            if element.index in done or (element.value == value and not element.value_hidden):
                continue
            kind = "select" if element.tag == "select" else "fill"
            actions.append({"kind": kind, "target": {"index": element.index}, "value": value})
        if actions:
            return CognitionDecision(
                decision="act", actions=actions, confidence=0.9, rationale="fields known from an earlier run"
            )
        rest = {k: v for k, v in payload.items() if k not in handled}
        return await self.inner.decide(goal, rest, observation, history)
