"""When a goal means "press the button after filling", and which button that is.

"Log in", "sign in", "search for", "send" and "subscribe" are done only once the form is sent: the
rule cognition fills the fields, then presses the control named for that goal. A goal that says
to fill only ("don't submit", "prefill", "without sending") never presses anything. Sending stays
subject to the step's gate and the per-action risk check; this module only decides what was asked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from browser.models import ElementInfo, Observation
from common.words import plural
from planner._text import fold

PressGoal = Literal["login", "search", "send", "subscribe"]

_FILL_ONLY = re.compile(
    r"(?i)\b(?:don'?t|do not|never|without|no)\s+(?:submit|send|sign|press|click)"
    r"|\bprefill|\bfill[- ]only|\bjust fill|không (?:gửi|nộp|bấm)|điền sẵn"
)
#: Goal words (folded) per press goal, most specific first.
_GOAL_WORDS: tuple[tuple[PressGoal, tuple[str, ...]], ...] = (
    ("login", ("log in", "login", "sign in", "signin", "dang nhap")),
    ("subscribe", ("subscribe", "dang ky nhan")),
    ("search", ("search", "tim kiem")),
    ("send", ("send", "gui", "submit", "nop")),
)
#: Control names (folded) that perform each goal; a bare submit control is the fallback.
_BUTTON_WORDS: dict[PressGoal, tuple[str, ...]] = {
    "login": ("sign in", "log in", "login", "signin", "dang nhap", "continue", "next"),
    "subscribe": ("subscribe", "sign up", "join", "dang ky"),
    "search": ("search", "go", "find", "tim", "tim kiem"),
    "send": ("send", "submit", "post", "gui", "nop", "reply"),
}
_FILLABLE_ROLES = {"textbox", "searchbox", "combobox", "spinbutton"}


def _words(text: str) -> str:
    return " " + re.sub(r"[^a-z0-9]+", " ", fold(text.lower())).strip() + " "


def press_goal(goal: str) -> PressGoal | None:
    """The press the goal asks for, or None (no press word, or the goal says to fill only)."""
    if _FILL_ONLY.search(goal):
        return None
    words = _words(goal)
    for kind, names in _GOAL_WORDS:
        if any(f" {n} " in words for n in names):
            return kind
    return None


def _pressable(el: ElementInfo) -> bool:
    if not el.visible or not el.enabled:
        return False
    if el.tag in ("textarea", "select") or (el.role or "") in _FILLABLE_ROLES:
        return False
    if el.tag == "input":
        return el.input_type in ("submit", "image", "button")
    return el.tag == "button" or (el.role or "") == "button"


def press_target(kind: PressGoal, observation: Observation) -> ElementInfo | None:
    """The control that does `kind`: one named for it, else the page's only submit control."""
    candidates = [e for e in observation.elements if _pressable(e)]
    names = _BUTTON_WORDS[kind]
    for name in names:  # most telling name first: "Sign in" beats "Continue"
        for el in candidates:
            if f" {name} " in _words(el.name):
                return el
    submits = [e for e in candidates if e.input_type in ("submit", "image") or e.tag == "button"]
    return submits[0] if len(submits) == 1 else None


def press_attempt(history: Sequence[Any]) -> Any | None:
    """The last click or key press the step made (a HistoryEntry), or None."""
    return next((h for h in reversed(history) if h.action.get("kind") in ("click", "press")), None)


def done_pressing(kind: PressGoal, history: Sequence[Any]) -> tuple[bool, str] | None:
    """After a press: (success, summary) to finish with; None while no press was tried yet."""
    attempt = press_attempt(history)
    if attempt is None:
        return None
    filled = sum(
        1 for h in history if h.status == "ok" and h.action.get("kind") in ("fill", "select", "check")
    )
    if attempt.status == "ok":
        return True, f"filled {plural(filled, 'field')} and pressed the {kind} button"
    why = attempt.message or attempt.status
    return False, f"the {kind} button was never pressed: {why}"
