"""Replay that heals: a recorded target the page no longer has as recorded is looked for again.

`waypost replay RUN --heal` (and the window's Replay) first try the target as recorded and the
resolved selector (executor/run/replay.py). When neither finds the element, the cascade below tries, in
order, what the receipts say about the element the original run acted on:

1. stable attributes: the recorded selectors with ids and classes cut away, keeping the tag and its
   attribute tests (`input[name="email"]`, `[data-testid=...]`), which survive a restyle;
2. accessible role and name, as the original resolution read them;
3. the label with that name;
4. the visible text.

An ambiguous match is never taken (browser/targets.py never guesses), so a heal acts only on one
element. Each healed action is drift: the step in the report carries the cascade stage, the target
before and after, and both screenshots, and the replay's receipts hold every attempt. Healing
happens after the step's gate was asked (executor/run/replay_gates.py), so a healed step passes the same
gates as the original run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from browser.models import OutcomeStatus, parse_action
from executor.act.perform import ActEnv, Performed, capture_before, perform
from receipts.models import ActionRecord

#: `#id` and `.class` parts of a CSS selector: what a redesign changes first.
_ID_OR_CLASS = re.compile(r"[#.][A-Za-z0-9_-]+")
_TAG = re.compile(r"^[a-z][a-z0-9-]*")
_ATTRS = re.compile(r"\[[^\]]+\]")


@dataclass
class Heal:
    """How a step was re-found, with the evidence on both sides."""

    stage: str  # "stable attributes" | "role and name" | "label" | "text"
    target_before: dict[str, Any]
    target_after: dict[str, Any]
    found_before: str  # what the original run's resolution said it acted on
    found_after: str  # what the replay's resolution says it acted on
    shot_before: str | None
    shot_after: str | None


def stable_selector(selector: str) -> str | None:
    """The selector's tag and attribute tests, without ids and classes; None when nothing stable is left."""
    attrs = "".join(_ATTRS.findall(selector))
    if not attrs or "," in selector or " " in _ATTRS.sub("", selector).strip():
        return None
    tag = _TAG.match(_ID_OR_CLASS.sub("", _ATTRS.sub("", selector)))
    return (tag.group(0) if tag else "") + attrs


def cascade(record: ActionRecord) -> list[tuple[str, dict[str, Any]]]:
    """(stage, target) to try in order, from what the receipts recorded; duplicates dropped."""
    given = record.action.get("target")
    requested: dict[str, Any] = given if isinstance(given, dict) else {}
    resolved = record.target_resolved or {}
    tries: list[tuple[str, dict[str, Any]]] = []
    for selector in (requested.get("selector"), resolved.get("selector")):
        stable = stable_selector(selector) if isinstance(selector, str) else None
        if stable:
            tries.append(("stable attributes", {"selector": stable}))
    role, name = resolved.get("role"), resolved.get("name")
    if isinstance(name, str) and name.strip():
        if isinstance(role, str) and role:
            tries.append(("role and name", {"role": role, "name": name}))
        tries.append(("label", {"label": name}))
        tries.append(("text", {"text": name}))
    seen: set[str] = set()
    unique = []
    for stage, target in tries:
        key = repr(sorted(target.items()))
        if key not in seen and target != requested:
            seen.add(key)
            unique.append((stage, target))
    return unique


async def heal(env: ActEnv, record: ActionRecord) -> tuple[Performed | None, Heal | None]:
    """Tries the cascade on the page as it is; the first target that acts `ok` is the heal."""
    last: Performed | None = None
    for stage, target in cascade(record):
        try:
            action = parse_action({**record.action, "target": target})
        except ValidationError:
            continue
        done = await perform(env, action, None, await capture_before(env))
        last = done
        if done.outcome.status is OutcomeStatus.OK:
            resolved = done.outcome.resolved
            return done, Heal(
                stage=stage,
                target_before=dict(record.action.get("target") or {}),
                target_after=target,
                found_before=str((record.target_resolved or {}).get("description") or ""),
                found_after=resolved.description if resolved is not None else "",
                shot_before=record.before.shot.path if record.before.shot else None,
                shot_after=_shot(done.record),
            )
    return last, None


def _shot(record: ActionRecord) -> str | None:
    return record.after.shot.path if record.after is not None and record.after.shot else None
