"""Defensive termination: per-step action cap, the same action on the same
page state again and again, and failures in a row. Each stop names its reason code."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from executor.errors import FatalToolError


class ActStopped(FatalToolError):
    """The act loop stopped before its goal; `code` says why (loop_detected, max_actions, ...)."""

    def __init__(self, message: str, *, code: str, outputs: dict[str, Any] | None = None) -> None:
        super().__init__(message, code=code)
        self.outputs = outputs or {}


@dataclass(kw_only=True)
class LoopLimits:
    max_actions: int = 40  # actions recorded in one step (retries and refusals included)
    max_decisions: int = 20  # cognition calls in one goal-driven step
    max_repeats: int = 2  # the same action on the same DOM state: the third try stops the loop
    max_failures: int = 3  # failed actions in a row
    max_retries: int = 2  # re-observe and retry a stale or missing element
    max_noops: int = 2  # decisions in a row that changed nothing
    low_confidence: float = 0.5  # below this, no irreversible action without a person's yes

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> LoopLimits:
        limits = cls()
        for name in cls.__dataclass_fields__:
            value = config.get(name)
            if isinstance(value, int | float) and not isinstance(value, bool):
                setattr(limits, name, type(getattr(limits, name))(value))
        return limits


@dataclass
class LoopGuard:
    limits: LoopLimits
    seen: Counter[tuple[str, str]] = field(default_factory=Counter)
    failures: int = 0

    def before(self, count: int, dom_hash: str, action: dict[str, Any], *, detect_loops: bool = True) -> None:
        """Checks the cap, and (for decided actions: a written list is finite) repeats on one state."""
        if count >= self.limits.max_actions:
            raise ActStopped(f"per-step cap of {self.limits.max_actions} actions reached", code="max_actions")
        if not detect_loops:
            return
        key = (dom_hash, json.dumps(action, sort_keys=True))
        if self.seen[key] >= self.limits.max_repeats:
            raise ActStopped(
                f"loop detected: {action.get('kind')} repeated {self.seen[key]} times on an unchanged page",
                code="loop_detected",
            )
        self.seen[key] += 1

    def after(self, ok: bool, message: str) -> None:
        self.failures = 0 if ok else self.failures + 1
        if self.failures >= self.limits.max_failures:
            raise ActStopped(
                f"{self.failures} actions failed in a row (last: {message})", code="consecutive_failures"
            )
