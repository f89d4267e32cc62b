"""A scripted driver and cognition for loop tests without Chromium."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from browser.models import Action, ActionOutcome, ElementInfo, Observation, OutcomeStatus, PageCapture
from planner.decisions import CognitionDecision, HistoryEntry
from tests.support.fake_driver import FakeDriver
from tests.unit.receipts._helpers import png


class ScriptedDriver(FakeDriver):
    """A page of `elements`; fills change the DOM hash, navigations change the URL; outcomes scripted."""

    def __init__(self, elements: Sequence[dict[str, Any]] = (), url: str = "http://127.0.0.1:9/form") -> None:
        super().__init__(url)
        self.elements = [ElementInfo.model_validate({"index": i, **e}) for i, e in enumerate(elements)]
        self.state = 0
        self.outcomes: list[OutcomeStatus] = []
        self.on_perform: Callable[[Action], None] | None = None

    async def perform(self, action: Action) -> ActionOutcome:
        self.performed.append(action)
        status = self.outcomes.pop(0) if self.outcomes else OutcomeStatus.OK
        if status is OutcomeStatus.OK:
            if action.kind == "navigate":
                self._url = action.url
            elif action.kind in ("fill", "select", "check"):
                self.state += 1
                self._hold(action)
            if self.on_perform is not None:
                self.on_perform(action)
        return ActionOutcome(kind=action.kind, status=status, url_after=self._url)

    def _hold(self, action: Action) -> None:
        """A field filled by index holds its value, as a page's field would when read back."""
        target = getattr(action, "target", None)
        value = getattr(action, "value", None)
        if target is not None and target.index is not None and isinstance(value, str):
            for n, element in enumerate(self.elements):
                if element.index == target.index:
                    self.elements[n] = element.model_copy(update={"value": value})

    async def observe(self, max_chars: int = 8000) -> Observation:
        return Observation(url=self._url, title="Form", elements=list(self.elements))

    async def dom_hash(self) -> str:
        return hashlib.sha256(f"{self._url}#{self.state}".encode()).hexdigest()

    async def capture(self, *, screenshot: bool = True, path: Path | None = None) -> PageCapture:
        shot = png((10, 20, 30)) if screenshot else None
        if path is not None and shot is not None:
            path.write_bytes(shot)  # noqa: ASYNC240 - a few bytes in a test double
        return PageCapture(
            url=self._url,
            title="Form",
            dom_hash=await self.dom_hash(),
            screenshot=shot if path is None else None,
            screenshot_path=str(path) if path is not None else None,
        )


class ScriptedCognition:
    """Answers from a list of decisions (the last one repeats); records what it was shown."""

    def __init__(self, *decisions: CognitionDecision) -> None:
        self.decisions = list(decisions)
        self.seen: list[tuple[dict[str, str], list[HistoryEntry]]] = []

    async def decide(
        self, goal: str, payload: dict[str, str], observation: Observation, history: Sequence[HistoryEntry]
    ) -> CognitionDecision:
        self.seen.append((dict(payload), list(history)))
        return self.decisions.pop(0) if len(self.decisions) > 1 else self.decisions[0]


def act(*actions: dict[str, Any], confidence: float = 0.9) -> CognitionDecision:
    return CognitionDecision(
        decision="act", actions=list(actions), confidence=confidence, rationale="scripted"
    )


def answer(summary: str = "done") -> CognitionDecision:
    done = {"kind": "done", "success": True, "summary": summary}
    return CognitionDecision(
        decision="answer", actions=[done], confidence=0.9, rationale=summary, answer=summary
    )
