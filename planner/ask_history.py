"""What the act loop already did for each ask (HistoryEntry.ask and .phase), read by the ask moves
(planner/ask_moves.py) so that a move is not repeated once it went through, nor tried a third time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner import grounding as g
from planner.asks import FillAsk
from planner.decisions import HistoryEntry


def entries(history: Sequence[HistoryEntry], i: int, phase: str | None = None) -> list[HistoryEntry]:
    return [h for h in history if h.ask == i and (phase is None or h.phase == phase)]


def served_ok(history: Sequence[HistoryEntry], i: int, phase: str | None = None) -> bool:
    return any(h.status == "ok" for h in entries(history, i, phase))


def stuck(history: Sequence[HistoryEntry], i: int) -> bool:
    """Two attempts for one ask that did not go through, or one the safety rules refused: trying again
    would meet the same page (or the same refusal)."""
    tried = entries(history, i)
    return any(h.status == "blocked" for h in tried) or sum(1 for h in tried if h.status != "ok") >= 2


def same_action(done: dict[str, Any], wanted: dict[str, Any]) -> bool:
    return all(done.get(k) == wanted.get(k) for k in ("kind", "target", "value", "checked"))


def filled(h: HistoryEntry, ask: FillAsk) -> bool:
    """An input that went through with the ask's value into a field named like the ask's field."""
    if (
        h.status != "ok"
        or h.action.get("kind") not in ("fill", "select")
        or h.action.get("value") != ask.value
    ):
        return False
    name = str((h.element or {}).get("name") or "")
    return max((g.words_score(s, name) for s in g.synonyms(ask.field)), default=0.0) >= g.MATCH
