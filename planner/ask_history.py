"""What the act loop already did for each ask (HistoryEntry.ask and .phase), read by the ask moves
(planner/ask_moves.py) so that a move is not repeated once it went through, nor tried a third time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner import grounding as g
from planner.asks import Ask, FillAsk
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


def chosen_after_search(history: Sequence[HistoryEntry], asks: Sequence[Ask]) -> HistoryEntry | None:
    """A filter of the search's own form picked once the results were shown that neither left the
    page nor sent anything: the results are the unfiltered ones until the form is sent again (and
    sending it again is harmless where a page's script had filtered them already)."""
    searches = [
        (n, h)
        for n, h in enumerate(history)
        if h.status == "ok" and h.ask is not None and h.ask < len(asks) and asks[h.ask].kind == "search"
    ]
    runs = [n for n, h in searches if h.phase == "run"]
    boxes = [(h.element or {}).get("form") for _, h in searches if h.phase == "input"]
    if not runs or not boxes or boxes[-1] is None:
        return None
    for h in history[runs[-1] + 1 :]:
        moved = bool(h.sent) or (h.url_after is not None and h.url_after != h.url_before)
        picked = h.status == "ok" and h.action.get("kind") in ("select", "check", "click")
        if picked and not moved and (h.element or {}).get("form") == boxes[-1]:
            return h
    return None
