"""While no_submit holds, no WebSocket message carries a value Waypost typed out of the browser.

The request guard (browser/request_guard.py) sees every HTTP request on the context route, but a
WebSocket's messages never pass that route. This guard routes the context's WebSockets
(Playwright's route_web_socket, installed on the context before any page): each socket is connected
to its server through Playwright, server messages pass as they are, and each message the page sends
is checked against the typed values (every encoding the request guard knows). While no_submit holds,
a message that carries one is dropped, and a socket whose URL carries one is closed before it
connects; each is reported as a guard event. Without no_submit every message passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from playwright.async_api import BrowserContext, Error, WebSocketRoute

from browser.events import GuardEvent
from browser.request_guard import TypedValues

#: The close code a refused socket gets: 1008, "policy violation" (RFC 6455, 7.4.1).
POLICY_VIOLATION = 1008


class SocketGuard:
    """Routes every WebSocket of one context; `blocking()` says whether no_submit holds right now."""

    def __init__(
        self,
        typed: TypedValues,
        blocking: Callable[[], bool],
        report: Callable[[GuardEvent], None],
        redact: Callable[[str], str],
        *,
        quarantined: Callable[[], bool] = lambda: False,
    ) -> None:
        self._typed = typed
        self._blocking = blocking
        self._quarantined = quarantined
        self._report = report
        self._redact = redact

    async def install(self, context: BrowserContext) -> None:
        await context.route_web_socket(lambda _url: True, self._on_socket)

    async def _on_socket(self, ws: WebSocketRoute) -> None:
        carries = self._blocking() and self._typed.carried_by(ws.url, None) is not None
        if carries or self._quarantined():
            why = "its URL carries a typed value" if carries else "the page's network is quarantined"
            self._refuse(ws.url, f"WebSocket connection blocked: {why} (no_submit)", carries)
            try:
                await ws.close(code=POLICY_VIOLATION, reason="blocked by Waypost")
            except Error:
                return  # the page went away first
            return
        server = ws.connect_to_server()
        ws.on_message(lambda message: self._from_page(ws, server, message))

    def _from_page(self, ws: WebSocketRoute, server: WebSocketRoute, message: str | bytes) -> None:
        if self._blocking():
            body = message.encode("utf-8") if isinstance(message, str) else message
            if self._typed.carried_by("", body) is not None:
                self._refuse(ws.url, "WebSocket message blocked: it carries a typed value (no_submit)", True)
                return
        if self._quarantined():
            self._refuse(
                ws.url, "WebSocket message blocked: the page's network is quarantined (no_submit)", False
            )
            return
        try:
            server.send(message)
        except Error:
            return  # the socket closed while the message was on its way

    def _refuse(self, url: str, detail: str, carries: bool) -> None:
        kind: Literal["submit", "quarantine"] = "submit" if carries else "quarantine"
        self._report(GuardEvent(kind=kind, detail=detail, url=self._redact(url)))
