"""Is a goal-driven step's goal visibly true on the page after acting?

The cognition saying "done" is a claim; this checks it on the page the step left behind:
- login: the goal's button was pressed, and the sign-in form is gone, or the URL or title changed,
  and no error text is shown;
- search: the button was pressed and the page changed (new URL or content), with no "no results";
- send / subscribe: the button was pressed and the page changed, with no error text;
- prefill (no press asked): every value typed is read back from its field;
- any other goal: at least one action beyond moving around went through.
Page text is only compared with fixed words here; it is never read as an instruction.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from browser.driver import BrowserDriver
from browser.models import ExtractAction, Observation
from executor.act.asked import AskCheck
from executor.act.outcomes import step_failure
from executor.act.progress import StepProgress
from planner.asks import AnswerAsk, AskList
from planner.decisions import HistoryEntry
from planner.fact_words import Fact
from planner.facts import find_fact
from planner.press import PressGoal, press_goal

_ERROR = re.compile(
    r"(?i)\b(?:incorrect|invalid|wrong (?:password|username|email)|(?:login|sign[- ]in) failed|"
    r"not recognized|does not match|try again|error:)|sai mật khẩu|không đúng|đăng nhập thất bại"
)
_NO_RESULTS = re.compile(r"(?i)\bno (?:results|matches)\b|nothing (?:was )?found|không tìm thấy")
_MAX_TEXT = 20_000
#: Goals that ask to read or report: an answer meets them, no action is needed.
_READING = re.compile(
    r"(?i)\s*(?:tell|what|when|where|which|who|how|find out|read|look|show|see|extract|"
    r"summari[sz]e|explain|report|cho biết|xem|đọc|kiểm tra)\b"
)
#: Actions that only move around: a step that did nothing else did nothing toward its goal.
_NOT_WORK = ("navigate", "wait", "scroll", "done")


async def goal_failure(
    driver: BrowserDriver,
    goal: str,
    payload: Mapping[str, str],
    progress: StepProgress,
    answer: str | None = None,
) -> str | None:
    """None when the step's goal is verified on the page, else why not (a person's sentence).

    A goal that asks to read or report ("tell me my renewal date", "look at the page") is met by the
    answer the cognition gave on finishing; any other goal needs at least one real action."""
    failed = step_failure(progress.history)
    if failed is not None:
        return failed
    kind = press_goal(goal)
    if kind is not None:
        return await _pressed_goal(driver, kind, progress)
    if payload:
        facts = progress.facts or [{"value": v, "label": k} for k, v in payload.items()]
        return _prefill(await driver.observe(), facts)
    if answer and _READING.match(goal):
        return None
    if not any(
        h.get("status") == "ok" and h["action"].get("kind") not in _NOT_WORK for h in progress.history
    ):
        return f"nothing was done toward the goal: {goal}"
    return None


async def unmet_asks(driver: BrowserDriver, asks: AskList, progress: StepProgress) -> list[str]:
    """One sentence per ask whose effect the page, the history and the site's answers do not show."""
    observation = await driver.observe()
    text = await _page_text(driver)
    history = [HistoryEntry.model_validate(h) for h in progress.history]
    return AskCheck(asks, observation, text, history, observed=set(progress.observed)).unmet()


async def answer_asks(driver: BrowserDriver, asks: AskList) -> list[tuple[AnswerAsk, Fact | None]]:
    """Each question of the step with the fact the page it ended on holds for it (None: none)."""
    questions = [a for a in asks.asks if isinstance(a, AnswerAsk)]
    if not questions:
        return []
    text = await _page_text(driver)
    return [(q, find_fact(q.question, q.expects, text)) for q in questions]


async def _pressed_goal(driver: BrowserDriver, kind: PressGoal, progress: StepProgress) -> str | None:
    press = next(
        (h for h in reversed(progress.history) if h["action"].get("kind") in ("click", "press")), None
    )
    button = {"login": "sign-in", "search": "search", "send": "send", "subscribe": "subscribe"}[kind]
    if press is None or press.get("status") != "ok":
        return f"the {button} button was never pressed"
    observation = await driver.observe()
    text = await _page_text(driver)
    error = _ERROR.search(text)
    if error is not None:
        return f'the site answered with an error after pressing the {button} button: "{_around(text, error)}"'
    changed = press.get("url_before") not in (None, observation.url) or press.get("title_before") not in (
        None,
        observation.title,
    )
    if kind == "login":
        form_gone = not any(e.input_type == "password" and e.visible for e in observation.elements)
        if form_gone or changed:
            return None
        return "the sign-in form is still shown after pressing the sign-in button"
    if kind == "search" and _NO_RESULTS.search(text):
        return "the search showed no results"
    if changed or press.get("dom_changed"):
        return None
    return f"nothing changed on the page after pressing the {button} button"


def _prefill(observation: Observation, facts: Sequence[Mapping[str, Any]]) -> str | None:
    """Every typed value is in a field on the page (a hidden secret cannot be read back: skipped)."""
    shown = [e.value or "" for e in observation.elements if e.value is not None and not e.value_hidden]
    hidden = sum(1 for e in observation.elements if e.value_hidden)  # sensitive fields never read
    missing: list[str] = []
    for fact in facts:
        value = str(fact.get("value") or "")
        if fact.get("kind") == "check" or "{{secret:" in value or not value:
            continue
        if not any(
            v == value or (len(v) >= 90 and value.startswith(v)) or value in v.split(", ") for v in shown
        ):
            missing.append(str(fact.get("label") or value))
    if len(missing) > hidden:
        return "the page does not hold the values given for: " + ", ".join(dict.fromkeys(missing))
    return None


async def _page_text(driver: BrowserDriver) -> str:
    outcome = await driver.perform(ExtractAction(what="text"))
    return (outcome.value or "")[:_MAX_TEXT] if outcome.ok else ""


def _around(text: str, match: re.Match[str]) -> str:
    """The line of page text the error words are on (at most 160 characters of it)."""
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return " ".join(text[start : end if end >= 0 else len(text)].split())[:160]
