"""A step's status from what its actions did, with the reason a person reads.

A step succeeds only when every action it ran ended `ok`, unless the action was marked `optional`.
"What it ran" is each action's final attempt: an attempt the loop retried (the same action recorded
again right after it) is superseded by the retry. The same rule reads an action history (the loop)
and a run's action records (receipts), so the status and the receipts can never disagree.
The reasons name the control as a person sees it ("2 elements match button "No"; nothing was
clicked"), never an internal code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from browser.models import Action, ActionOutcome, OutcomeStatus
from executor.act.guards import ActStopped
from executor.act.perform import Performed

_PAST = {
    "click": "clicked",
    "fill": "filled",
    "select": "selected",
    "check": "checked",
    "press": "pressed",
    "download": "downloaded",
    "upload": "uploaded",
    "navigate": "opened",
    "extract": "read",
    "scroll": "scrolled",
    "wait": "waited for",
}


@dataclass(frozen=True, slots=True)
class ActionResult:
    """How one action ended: the dumped action, its outcome status and message."""

    action: Mapping[str, Any]
    status: str
    message: str = ""
    candidates: Sequence[str] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def optional(self) -> bool:
        return bool(self.action.get("optional"))


def what(action: Mapping[str, Any]) -> str:
    """The control an action meant, as a person would name it."""
    target = action.get("target")
    if not isinstance(target, Mapping):
        url = action.get("url")
        return str(url) if url else "the page"
    if target.get("role"):
        name = target.get("name")
        return f'{target["role"]} "{name}"' if name is not None else f"any {target['role']}"
    for key, shown in (("label", "the field labelled"), ("placeholder", "the field showing"),
                       ("text", "the element reading")):  # fmt: skip
        if target.get(key):
            return f'{shown} "{target[key]}"'
    if target.get("selector"):
        return f"the element at {target['selector']}"
    return f"element [{target.get('index')}] of the last observation"


def reason(result: ActionResult) -> str:
    """Why an action did not count as done, in words."""
    kind = str(result.action.get("kind") or "action")
    past = _PAST.get(kind, "done")
    control = what(result.action)
    message = result.message.strip()
    if result.status == "ambiguous":
        listed = ", ".join(result.candidates[:4])
        count = len(result.candidates) or "several"
        return (
            f"{count} elements match {control}"
            + (f" ({listed})" if listed else "")
            + (f"; nothing was {past}, because guessing could act on the wrong one")
        )
    if result.status == "not_found":
        return f"nothing on the page matches {control}; nothing was {past}"
    if result.status == "blocked":
        return f"{kind} {control} was refused: {message or 'blocked by the safety rules'}"
    if result.status == "timeout":
        return f"{kind} {control} did not finish in time: {message}".rstrip(": ")
    if kind == "navigate":
        return f"could not open {control}: {message or result.status}".rstrip(": ")
    return f"{kind} {control} failed: {message or result.status}".rstrip(": ")


def final_attempts(results: Sequence[ActionResult]) -> list[ActionResult]:
    """Each action's last attempt: a result followed at once by the same action again was retried."""
    out: list[ActionResult] = []
    for result in results:
        if out and not out[-1].ok and _same(out[-1].action, result.action):
            out[-1] = result
        else:
            out.append(result)
    return out


def unmet(results: Sequence[ActionResult]) -> list[ActionResult]:
    """The actions that keep a step from succeeding: final attempts not ok and not optional."""
    return [r for r in final_attempts(results) if not r.ok and not r.optional]


def from_history(history: Sequence[Mapping[str, Any]]) -> list[ActionResult]:
    """The loop's history (one entry per action, its final attempt) as results."""
    return [
        ActionResult(
            action=h.get("action") or {},
            status=str(h.get("status") or "error"),
            message=str(h.get("message") or ""),
            candidates=tuple(h.get("candidates") or ()),
        )
        for h in history
    ]


def step_failure(history: Sequence[Mapping[str, Any]]) -> str | None:
    """None when every action the step ran counts as done, else the reasons it does not."""
    failed = unmet(from_history(history))
    if not failed:
        return None
    return "; ".join(reason(r) for r in failed[:3]) + (
        f"; and {len(failed) - 3} more" if len(failed) > 3 else ""
    )


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The same action: a retry may move an observation index to where the element is now."""
    ta, tb = a.get("target"), b.get("target")
    moved = isinstance(ta, Mapping) and isinstance(tb, Mapping) and "index" in ta and "index" in tb
    keys = ("kind", "value", "url", "key") if moved else ("kind", "target", "value", "url", "key")
    return all(a.get(k) == b.get(k) for k in keys)


def stop_on_unmet(history: Sequence[Mapping[str, Any]]) -> None:
    """Stops the step at an action that did not end ok: what follows it was meant for a page where
    it had happened (a click after a fill that never landed would send a half-filled form)."""
    failure = step_failure(history)
    if failure is not None:
        raise ActStopped(failure, code="action_failed")


def page_change(performed: Performed) -> dict[str, Any]:
    """What a click, key press or choice changed, and the requests it sent with the site's answers
    (kept in the history for the check of effects); {} for other actions."""
    if performed.action.kind not in ("click", "press", "check", "select"):
        return {}
    before, after = performed.before, performed.after
    change = {
        "url_before": before.url,
        "url_after": after.url,
        "title_before": before.title,
        "dom_changed": before.dom_hash != after.dom_hash,
    }
    sent = [s.model_dump(mode="json") for s in performed.outcome.sent]
    return {**change, "sent": sent} if sent else change


_IN_FLIGHT = ("detached", "navigat", "execution context was destroyed", "target closed")


def transient(outcome: ActionOutcome, action: Action, *, risky: bool) -> bool:
    """Worth a retry after a fresh look: a timeout, a detached element, a navigation in flight, or an
    observation index gone stale. An element absent from a settled page, or two that tie, stay as
    they are: trying again finds the same page. A risky action that timed out may have happened:
    it is never tried twice."""
    status = outcome.status
    if status is OutcomeStatus.TIMEOUT:
        return not risky
    target = getattr(action, "target", None)
    if status is OutcomeStatus.NOT_FOUND:
        return target is not None and target.index is not None
    if status is OutcomeStatus.ERROR:
        message = outcome.message.lower()
        return not risky and any(word in message for word in _IN_FLIGHT)
    return False
