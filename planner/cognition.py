"""Cognition for ACT steps: (goal, payload, observation, history) -> CognitionDecision
(docs/architecture.md, "The ACT loop").

A pure decision: no I/O, no state. The executor's act loop observes, asks, performs the actions,
and asks again with the outcomes in `history`. RuleCognition fills forms from a payload by matching
field labels / names / placeholders to payload keys and clicks by visible text, so structured act
goals run without a model. Low confidence never leads to an irreversible action.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Any

from browser.models import ElementInfo, Observation
from common.secrecy import has_placeholder
from common.words import plural
from planner._text import Text, fold, has_terms
from planner.ask_cognition import decide_asks
from planner.ask_reader import read_asks
from planner.asks import AskList, FillAsk, SubmitAsk
from planner.decisions import Cognition, CognitionDecision, HistoryEntry
from planner.payload import FIELD_WORDS
from planner.press import done_pressing, press_goal, press_target

LOW_CONFIDENCE = 0.5
MATCH_THRESHOLD = 0.6


_EXTRA_WORDS: dict[str, tuple[str, ...]] = {
    "email": ("your email", "work email", "e mail"),
    "name": ("your full name", "contact name", "họ và tên của bạn"),
    "phone": ("phone no", "telephone", "mobile number", "số đt"),
    "company": ("company / organization", "business name", "tên doanh nghiệp"),
    "package": ("plan", "tier", "subscription", "gói", "gói dịch vụ", "loại gói"),
}
_TYPE_FOR_KEY = {"email": "email", "phone": "tel", "password": "password", "website": "url"}
_FILLABLE_ROLES = {"textbox", "searchbox", "combobox", "spinbutton"}
_NOT_FILLABLE_TYPES = {"submit", "button", "reset", "hidden", "checkbox", "radio", "file", "image"}
_SUBMIT_WORDS = (
    "submit",
    "send",
    "sign up",
    "register",
    "create account",
    "continue",
    "confirm",
    "pay",
    "place order",
    "gửi",
    "đăng ký",
    "xác nhận",
    "tiếp tục",
    "thanh toán",
    "đặt hàng",
)
_IRREVERSIBLE_GOAL = re.compile(r"(?i)^(submit|send|payment|purchase|delete)\b")
_CLICK = re.compile(
    r"(?i)(?:click|press|tap|bấm|nhấn|nhấp)(?:\s+(?:on|vào|the|nút|button))*\s+[\"'“]?([^\"'”,.;]+)"
)
_NOISE = re.compile(r"\(required\)|\(bắt buộc\)|bắt buộc|required|optional|\*|:")


def norm(text: str) -> str:
    """Case, diacritics, punctuation and spacing do not matter when matching labels."""
    return re.sub(r"[^a-z0-9]+", " ", fold(_NOISE.sub(" ", text.lower()))).strip()


def synonyms(key: str) -> list[str]:
    words = [key, key.replace("_", " "), *FIELD_WORDS.get(key, ()), *_EXTRA_WORDS.get(key, ())]
    return list(dict.fromkeys(norm(w) for w in words if norm(w)))


def fillable(el: ElementInfo) -> bool:
    if not el.visible or not el.enabled:
        return False
    if el.input_type in _NOT_FILLABLE_TYPES:
        return False
    return el.tag in ("input", "textarea", "select") or (el.role or "") in _FILLABLE_ROLES


def match_score(key: str, el: ElementInfo) -> float:
    """1.0 for an exact label/placeholder synonym, less for containment, type hints, or fuzz."""
    texts = [norm(t) for t in (el.name, el.placeholder or "") if t and norm(t)]
    best = 0.0
    if el.input_type and _TYPE_FOR_KEY.get(key) == el.input_type:
        best = 0.9
    for syn in synonyms(key):
        for text in texts:
            if text == syn:
                return 1.0
            if re.search(rf"(?<![a-z0-9]){re.escape(syn)}(?![a-z0-9])", text):
                best = max(best, 0.85 - 0.05 * (len(text.split()) - len(syn.split())) / 4)
            else:
                best = max(best, SequenceMatcher(None, syn, text).ratio() * 0.8)
    return best


def _already(key_value: str, el: ElementInfo, history: Sequence[HistoryEntry]) -> bool:
    if el.value is not None and not el.value_hidden and el.value == key_value:
        return True
    for h in history:
        target = h.action.get("target") or {}
        if (
            h.status == "ok"
            and h.action.get("kind") in ("fill", "select")
            and target.get("index") == el.index
        ):
            return True
    return False


def assign_fields(
    payload: dict[str, str], elements: Sequence[ElementInfo]
) -> dict[str, tuple[ElementInfo, float]]:
    """Greedy best-first matching: each payload key to at most one element, and vice versa."""
    pairs = sorted(
        ((match_score(k, el), k, el) for k in payload for el in elements if fillable(el)),
        key=lambda p: (-p[0], p[2].index),
    )
    chosen: dict[str, tuple[ElementInfo, float]] = {}
    used: set[int] = set()
    for score, key, el in pairs:
        if score < MATCH_THRESHOLD or key in chosen or el.index in used:
            continue
        chosen[key] = (el, score)
        used.add(el.index)
    return chosen


def _fill_action(el: ElementInfo, value: str) -> dict[str, Any]:
    if el.tag == "select" or el.options:
        option = max(
            el.options, key=lambda o: SequenceMatcher(None, norm(o), norm(value)).ratio(), default=value
        )
        return {"kind": "select", "target": {"index": el.index}, "value": option}
    return {"kind": "fill", "target": {"index": el.index}, "value": value}


def _click_target(goal: str, observation: Observation) -> ElementInfo | None:
    m = _CLICK.search(goal)
    submit_goal = bool(_IRREVERSIBLE_GOAL.match(goal))
    clickable = [e for e in observation.elements if e.visible and e.enabled and not fillable(e)]
    if m:
        wanted = norm(m.group(1))
        scored = [(SequenceMatcher(None, wanted, norm(e.name)).ratio(), e) for e in clickable if e.name]
        scored = [(s, e) for s, e in scored if s >= 0.75 or (wanted and wanted in norm(e.name))]
        if scored:
            return max(scored, key=lambda p: (p[0], -p[1].index))[1]
    if submit_goal:
        for el in clickable:
            if el.input_type == "submit" or has_terms(Text(el.name), _SUBMIT_WORDS):
                return el
    return None


def _clicked(el: ElementInfo, history: Sequence[HistoryEntry]) -> bool:
    return any(
        h.action.get("kind") == "click"
        and (h.action.get("target") or {}).get("index") == el.index
        and h.status == "ok"
        for h in history
    )


def asks_of(goal: str, payload: dict[str, str]) -> AskList:
    """What a step's goal asks for (empty for goals the older rules read, e.g. reading the state)."""
    if goal.lower().startswith("read the current state"):
        return AskList()
    return _asks_of(goal, tuple(sorted(payload.items())))


@lru_cache(maxsize=256)
def _asks_of(goal: str, payload: tuple[tuple[str, str], ...]) -> AskList:
    """The goal's asks; the payload's secrets and shaped values (an e-mail, a date) join them when the
    goal's words did not name them (a model's plan may carry them only in the payload)."""
    asks = read_asks(goal)
    if not asks.asks:
        return asks
    named = {fold(a.field.lower()) for a in asks.asks if isinstance(a, FillAsk)}
    named_values = {a.value for a in asks.asks if isinstance(a, FillAsk)}
    sends = any(isinstance(a, SubmitAsk) for a in asks.asks)  # "sign in": the payload is what it sends
    extra = [
        FillAsk(field=key.replace("_", " "), value=value)
        for key, value in payload
        if value not in named_values
        and fold(key.replace("_", " ")) not in named
        and (
            sends or has_placeholder(value) or key in ("email", "phone", "date", "date_of_birth", "password")
        )
    ]
    return asks.model_copy(update={"asks": [*extra, *asks.asks]}) if extra else asks


class AskCognition:
    """The rule policy bound to one step's asks (planner/ask_cognition.py)."""

    def __init__(self, asks: AskList) -> None:
        self.asks = asks

    async def decide(
        self, goal: str, payload: dict[str, str], observation: Observation, history: Sequence[HistoryEntry]
    ) -> CognitionDecision:
        return decide_asks(self.asks, observation, history)


def rule_decide(
    goal: str, payload: dict[str, str], observation: Observation, history: Sequence[HistoryEntry]
) -> CognitionDecision:
    """The rule policy: follow the goal's asks when it reads as asks (planner/ask_cognition.py);
    otherwise fill what the payload names, click what the goal names, then finish."""
    asks = asks_of(goal, payload)
    if asks.asks:
        return decide_asks(asks, observation, history)
    if goal.lower().startswith("read the current state"):
        if any(h.action.get("kind") == "extract" and h.status == "ok" for h in history):
            return CognitionDecision(
                decision="answer",
                confidence=0.8,
                rationale="state read",
                actions=[{"kind": "done", "success": True, "summary": "state read"}],
            )
        return CognitionDecision(
            decision="act",
            confidence=0.9,
            rationale="read the page text",
            actions=[{"kind": "extract", "what": "text"}],
        )
    finished = after_press(goal, history)
    if finished is not None:
        return finished
    chosen = assign_fields(payload, observation.elements)
    actions = [
        _fill_action(el, payload[k]) for k, (el, _) in chosen.items() if not _already(payload[k], el, history)
    ]
    missing = [k for k in payload if k not in chosen]
    scores = [s for _, s in chosen.values()]
    confidence = (sum(scores) / len(scores) if scores else 1.0) * (
        1 - len(missing) / max(len(payload), 1) / 2
    )
    if actions:
        return CognitionDecision(
            decision="act",
            actions=actions,
            confidence=round(confidence, 3),
            rationale=f"fill {', '.join(k for k in chosen)} from the payload",
        )
    pressing = press_decision(goal, observation, history, missing=bool(missing))
    if pressing is not None:
        return guard_low_confidence(pressing, goal)
    target = _click_target(goal, observation)
    if target is not None and not _clicked(target, history):
        decision = CognitionDecision(
            decision="act",
            confidence=round(min(confidence, 0.9), 3),
            actions=[{"kind": "click", "target": {"index": target.index}}],
            rationale=f'click "{target.name}" named by the goal',
        )
        return guard_low_confidence(decision, goal)
    if missing and not chosen:
        return CognitionDecision(
            decision="request_info",
            confidence=0.2,
            question=f"I cannot find fields for {', '.join(missing)} on {observation.url}.",
            rationale="no payload key matched any field",
        )
    # What happened, from the history: the last decision's matches say nothing about earlier inputs.
    done = sum(1 for h in history if h.status == "ok" and h.action.get("kind") in ("fill", "select", "check"))
    summary = f"filled {plural(done, 'field')}" + (f"; not found: {', '.join(missing)}" if missing else "")
    return CognitionDecision(
        decision="answer",
        confidence=round(confidence, 3),
        rationale=summary,
        actions=[{"kind": "done", "success": not missing, "summary": summary}],
        answer=summary,
    )


def after_press(goal: str, history: Sequence[HistoryEntry]) -> CognitionDecision | None:
    """Once the goal's press was tried, the step ends with what it did: the page after a login is
    not a form to fill again."""
    kind = press_goal(goal)
    finished = done_pressing(kind, history) if kind is not None else None
    if finished is None:
        return None
    success, summary = finished
    return CognitionDecision(decision="answer", confidence=0.9 if success else 0.3, rationale=summary,
                             actions=[{"kind": "done", "success": success, "summary": summary}],
                             answer=summary)  # fmt: skip


def press_decision(
    goal: str, observation: Observation, history: Sequence[HistoryEntry], *, missing: bool
) -> CognitionDecision | None:
    """Log in / search / send / subscribe: press the goal's button once every field is filled,
    then finish with what the press did; None when the goal asks for no press."""
    kind = press_goal(goal)
    if kind is None or missing:
        return None  # a field is missing: never send a half-filled form
    button = press_target(kind, observation)
    if button is None:
        summary = f"the {kind} button was never pressed: no such button on {observation.url}"
        done = {"kind": "done", "success": False, "summary": summary}
        return CognitionDecision(decision="answer", confidence=0.3, rationale=summary, actions=[done])
    return CognitionDecision(
        decision="act",
        confidence=0.9,
        actions=[{"kind": "click", "target": {"index": button.index}}],
        rationale=f'press "{button.name}" to {kind}',
    )


def guard_low_confidence(decision: CognitionDecision, goal: str) -> CognitionDecision:
    """Below LOW_CONFIDENCE an irreversible step becomes a question, never an action."""
    if decision.confidence >= LOW_CONFIDENCE or not _IRREVERSIBLE_GOAL.match(goal):
        return decision
    if not any(a.get("kind") in ("click", "press") for a in decision.actions):
        return decision
    return CognitionDecision(
        decision="request_info",
        confidence=decision.confidence,
        question="I am not sure this is the right control to submit. Should I go on?",
        rationale=f"low confidence ({decision.confidence}) on an irreversible step",
    )


class RuleCognition:
    """Cognition without a model (the default offline). `with_asks` binds it to a step's asks from the
    plan, so the step does what the plan says it was asked, not what its goal's words read as."""

    def with_asks(self, asks: AskList) -> Cognition:
        return AskCognition(asks)

    async def decide(
        self, goal: str, payload: dict[str, str], observation: Observation, history: Sequence[HistoryEntry]
    ) -> CognitionDecision:
        return rule_decide(goal, payload, observation, history)
