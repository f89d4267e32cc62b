"""A scripted BrowserDriver for executor tests that need a browser-shaped object but no Chromium."""

from __future__ import annotations

import hashlib
from pathlib import Path

from browser.events import DialogEvent, GuardEvent
from browser.models import Action, ActionOutcome, Observation, OutcomeStatus, PageCapture
from tests.unit.receipts._helpers import png


class FakeDriver:
    def __init__(self, url: str = "http://127.0.0.1/page") -> None:
        self._url = url
        self.performed: list[Action] = []
        self.closed = False
        self.captures = 0

    async def perform(self, action: Action) -> ActionOutcome:
        self.performed.append(action)
        return ActionOutcome(kind=action.kind, status=OutcomeStatus.OK)

    async def observe(self, max_chars: int = 8000) -> Observation:
        return Observation(url=self._url, title="Fake")

    async def capture(self, *, screenshot: bool = True, path: Path | None = None) -> PageCapture:
        self.captures += 1
        shot = png((10, 20, 30)) if screenshot else None
        if path is not None and shot is not None:
            path.write_bytes(shot)  # noqa: ASYNC240 - a few bytes in a test double
        return PageCapture(
            url=self._url,
            title="Fake",
            dom_hash=hashlib.sha256(self._url.encode()).hexdigest(),
            screenshot=shot,
            screenshot_path=str(path) if path else None,
        )

    async def dom_hash(self) -> str:
        return hashlib.sha256(self._url.encode()).hexdigest()

    @property
    def url(self) -> str:
        return self._url

    @property
    def dialogs(self) -> list[DialogEvent]:
        return []

    @property
    def guard_events(self) -> list[GuardEvent]:
        return []

    async def close(self) -> None:
        self.closed = True
