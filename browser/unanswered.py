"""Requests that can change something on a server (POST, PUT, PATCH, DELETE) and have no answer yet.

A click that sends a form returns as soon as the page has the click, not when the server answers.
If the run stops between the two (a kill, a dead browser), the server may or may not have acted, and
only the answer would have said. So the session keeps the requests of that kind still waiting, and
the executor counts an action's outcome as known only once none it sent is waiting
(docs/architecture.md, "Actions in flight").
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.async_api import BrowserContext, Request, Response

from browser.submit_guard import is_unsafe_method


class Unanswered:
    """The unsafe-method requests of one browser context that have had neither an answer nor a failure."""

    def __init__(self, redact: Callable[[str], str]) -> None:
        self._redact = redact
        self._waiting: dict[Request, None] = {}  # insertion-ordered set of live requests

    def install(self, context: BrowserContext) -> None:
        context.on("request", self._sent)
        context.on("response", self._answered)
        context.on("requestfailed", self._failed)

    def _sent(self, request: Request) -> None:
        if is_unsafe_method(request.method):
            self._waiting[request] = None

    def _answered(self, response: Response) -> None:
        self._waiting.pop(response.request, None)

    def _failed(self, request: Request) -> None:
        self._waiting.pop(request, None)

    def waiting(self) -> list[str]:
        """`METHOD url` of each request still waiting for its answer, oldest first, redacted."""
        return [self._redact(f"{request.method} {request.url}") for request in self._waiting]
