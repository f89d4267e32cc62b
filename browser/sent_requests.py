"""What a page sent in answer to an action, and what the site answered (docs/architecture.md,
"What was asked").

A click that "went through" says nothing about whether the form it pressed was received: the POST may
be answered with HTTP 500, take eight seconds, or never be answered. So the session keeps a ledger of
the requests that change something or load a document (every method but GET/HEAD/OPTIONS, and
every top-level document load), each with the status of its answer or why it failed. An action marks
the ledger before it runs and, after, waits for the answers of what it sent, within the call's own
deadline: a slow answer is awaited, one that never comes stays unknown (`status` None). Nothing here
blocks or changes a request; the guards do that (browser/request_guard.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from playwright.async_api import BrowserContext, Request, Response
from playwright.async_api import Error as PlaywrightError

from browser.models import SentRequest

_READS = frozenset({"GET", "HEAD", "OPTIONS"})


class SentLedger:
    """The context's sends in order; `mark()` then `settle(mark, seconds)` around an action."""

    def __init__(self, redact: Callable[[str], str] = lambda s: s) -> None:
        self._redact = redact
        self._entries: list[tuple[Request, SentRequest, asyncio.Event]] = []
        self._by_request: dict[int, int] = {}

    def install(self, context: BrowserContext) -> None:
        context.on("request", self._on_request)
        context.on("response", self._on_response)
        context.on("requestfailed", self._on_failed)

    def mark(self) -> int:
        return len(self._entries)

    def since(self, mark: int) -> int:
        """How many sends started after `mark`."""
        return len(self._entries) - mark

    async def settle(self, mark: int, seconds: float) -> list[SentRequest]:
        """The sends since `mark`, after waiting up to `seconds` for their answers."""
        waiting = [done.wait() for _, _, done in self._entries[mark:] if not done.is_set()]
        if waiting:
            try:
                async with asyncio.timeout(seconds):
                    await asyncio.gather(*waiting)
            except TimeoutError:
                pass  # what is still unanswered stays unknown (status None)
        return [sent.model_copy() for _, sent, _ in self._entries[mark:]]

    def _on_request(self, request: Request) -> None:
        document = request.is_navigation_request() and _top_level(request)
        if request.method.upper() in _READS and not document:
            return
        if request.redirected_from is not None:
            index = self._by_request.get(id(request.redirected_from))
            if index is not None:  # a redirect answers the send: follow it to its end
                self._by_request[id(request)] = index
                return
        sent = SentRequest(method=request.method.upper(), url=self._redact(request.url),
                           resource_type=request.resource_type, document=document)  # fmt: skip
        self._by_request[id(request)] = len(self._entries)
        self._entries.append((request, sent, asyncio.Event()))

    def _on_response(self, response: Response) -> None:
        index = self._by_request.get(id(response.request))
        if index is None:
            return
        _, sent, done = self._entries[index]
        sent.status = response.status
        if not 300 <= response.status < 400:  # a redirect's own answer is not the end of it
            done.set()

    def _on_failed(self, request: Request) -> None:
        index = self._by_request.get(id(request))
        if index is None:
            return
        _, sent, done = self._entries[index]
        sent.failure = self._redact(request.failure or "failed")
        done.set()


def _top_level(request: Request) -> bool:
    """A navigation of a tab's main frame. A new tab's first document has no frame yet (Playwright
    raises for `request.frame` then): it is a tab's main frame all the same."""
    try:
        return request.frame.parent_frame is None
    except PlaywrightError:
        return True
