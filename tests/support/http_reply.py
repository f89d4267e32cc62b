"""One way the local test servers answer a request: status, type, length, extra headers, body."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler

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
