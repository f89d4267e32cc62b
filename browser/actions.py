"""Performing one Action on the session's active tab and returning a typed ActionOutcome.

Every kind resolves its target (browser/targets.py), waits for actionability within its timeout and
reports ok | not_found | ambiguous | timeout | blocked | error. Playwright's TimeoutError and Error
never escape. Secrets are resolved from the vault only for the keystrokes and are redacted from
every message and value that comes back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Error
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browser import action_handlers
from browser.error_words import error_line
from browser.models import Action, ActionOutcome, OutcomeStatus
from browser.session import BrowserSession
from browser.submit_guard import drain_attempts
from common.secrecy import UnknownSecret

Handler = Callable[[BrowserSession, Any, float], Awaitable[ActionOutcome]]

_HANDLERS: dict[str, Handler] = {
    "navigate": action_handlers.navigate,
    "click": action_handlers.click,
    "fill": action_handlers.fill,
    "select": action_handlers.select,
    "check": action_handlers.check,
    "press": action_handlers.press,
    "scroll": action_handlers.scroll,
    "wait": action_handlers.wait,
    "extract": action_handlers.extract,
    "download": action_handlers.download,
    "upload": action_handlers.upload,
    "done": action_handlers.done,
}


_PASSIVE = frozenset({"wait", "extract"})


async def perform(session: BrowserSession, action: Action) -> ActionOutcome:
    started = time.perf_counter()
    timeout = float(action.timeout_ms or session.action_timeout_ms)
    guard_mark = len(session.guard_events)
    sent_mark = session.sent.mark()
    if action.kind in {a.lower() for a in session.policy.blocked_actions}:
        outcome = ActionOutcome(
            kind=action.kind, status=OutcomeStatus.BLOCKED, message=f"{action.kind} is blocked by policy"
        )
    else:
        try:
            outcome = await _HANDLERS[action.kind](session, action, timeout)
        except PlaywrightTimeout as exc:
            outcome = ActionOutcome(kind=action.kind, status=OutcomeStatus.TIMEOUT, message=error_line(exc))
        except UnknownSecret as exc:
            outcome = ActionOutcome(
                kind=action.kind, status=OutcomeStatus.ERROR, message=f"undeclared secret {exc.args[0]!r}"
            )
        except Error as exc:
            outcome = ActionOutcome(kind=action.kind, status=OutcomeStatus.ERROR, message=error_line(exc))
    if action.kind not in _PASSIVE:  # the site's answers to what the action sent, slow ones too
        sent = await session.sent.settle(sent_mark, session.navigation_timeout_ms / 1000)
        if sent:
            outcome = outcome.model_copy(update={"sent": sent})
        if any(s.document and s.status is not None for s in sent):
            await _loaded(session)  # the answer is a page: read it once it stands
    # Both read the page as the action left it and neither changes it: one round trip for the two.
    attempts, title = await asyncio.gather(_drain(session), _title(session))
    await session.workers.judged()  # a worker the action made the page start is reported with it
    await session.effects.settled()  # so is a request it made the page send (browser/effect_hold.py)
    outcome = _apply_guards(session, outcome, guard_mark, attempts)
    return _finish(session, outcome, started, title)


def _apply_guards(
    session: BrowserSession, outcome: ActionOutcome, mark: int, attempts: list[str]
) -> ActionOutcome:
    """An action during which a guard refused a submission or a page load is reported as blocked.

    A refused subresource (a third-party image, say) is recorded in guard_events but does not turn
    an otherwise successful action into a blocked one; nor does a refusal that lands while a wait or
    an extract runs (the page's script sent it, after an earlier click: the guard event stays).
    """
    reasons = [f"submit blocked ({a})" for a in attempts]
    reasons += [
        e.detail for e in session.guard_events[mark:] if e.kind in ("submit", "effect") or e.navigation
    ]
    if outcome.kind in _PASSIVE:
        return outcome  # a refusal while only reading or waiting was caused by an earlier action
    if not reasons or outcome.status is OutcomeStatus.BLOCKED:
        return outcome
    return outcome.model_copy(update={"status": OutcomeStatus.BLOCKED, "message": "; ".join(reasons)})


async def _loaded(session: BrowserSession) -> None:
    try:
        await session.page.wait_for_load_state("domcontentloaded", timeout=session.navigation_timeout_ms)
    except Error:
        return  # it went on elsewhere or failed: what is there is what the outcome reports


async def _drain(session: BrowserSession) -> list[str]:
    if not session.policy.submit_blocked or not session.tabs:
        return []
    return await drain_attempts(session.page)


async def _title(session: BrowserSession) -> str | None:
    if not session.tabs:
        return None
    try:
        return await session.page.title()
    except Error:
        return None  # navigating right now; the URL is still worth reporting


def _finish(
    session: BrowserSession, outcome: ActionOutcome, started: float, title: str | None
) -> ActionOutcome:
    url = session.page.url if session.tabs else None
    finished = outcome.model_copy(
        update={
            "url_after": url,
            "title_after": title,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
        }
    )
    return session.vault.redact_model(finished)
