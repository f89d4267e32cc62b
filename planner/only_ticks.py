"""Boxes ticked beyond what the person picked: "sign me up, but ONLY live jazz nights" names the
topics to tick, and every other box of that form that is ticked (a page may tick some by default)
is one the person did not ask for. Used by the rule cognition to untick them and by the check of
what was asked (executor/act/asked.py) to refuse SUCCESS while one is left on."""

from __future__ import annotations

from browser.models import ElementInfo, Observation
from planner import grounding as g
from planner.asks import AskList, ToggleAsk


def picked(asks: AskList) -> list[str]:
    """What the person said to tick and nothing else ("only X and Y")."""
    return [a.what for a in asks.asks if isinstance(a, ToggleAsk) and a.only and a.on]


def also_ticked(obs: Observation, box: ElementInfo, wanted: list[str]) -> list[ElementInfo]:
    """The checkboxes (and switches) of `box`'s form that are on and that no wanted name picks out."""
    return [
        e
        for e in obs.elements
        if e.index != box.index
        and e.form == box.form
        and (e.input_type == "checkbox" or (e.role or "") in ("checkbox", "switch"))
        and e.checked
        and g.toggleable(e)
        and all(g.name_score(w, e) < g.MATCH for w in wanted)
    ]
