"""One way the local test servers answer a request (status, type, length, extra headers, body), and
the server the page sites run on."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

HTML = "text/html; charset=utf-8"
JSON = "application/json"


def send_reply(
    handler: BaseHTTPRequestHandler,
    body: bytes,
    *,
    status: int = HTTPStatus.OK,
    content_type: str = HTML,
    headers: Mapping[str, str] | None = None,
) -> None:
    """Writes a whole response with a Content-Length, so keep-alive clients know where it ends."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    for key, value in (headers or {}).items():
        handler.send_header(key, value)
    handler.end_headers()
    handler.wfile.write(body)


class PageServer(ThreadingHTTPServer):
    """A threaded server for pages a browser loads. A browser hangs up on requests it no longer
    wants (a stopped navigation, a closed tab or context) while a held reply is still to come: that
    is normal here, so it is not printed as a traceback into whichever test's stderr is captured."""

    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):  # BrokenPipeError, ConnectionResetError
            return
        super().handle_error(request, client_address)
