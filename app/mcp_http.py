"""`waypost mcp --http`: streamable HTTP on 127.0.0.1 only, every request carrying the server's token.

The token is `WAYPOST_MCP_TOKEN` when set, else 32 random bytes written owner-only to
`<data dir>/mcp-http-token` at start (the assistant's config reads it from there). A request without
`Authorization: Bearer <token>` gets 401 before the MCP app sees it; the SDK's DNS-rebinding check
admits only the loopback Host and Origin of this port.
"""

from __future__ import annotations

import hmac
import os
import secrets
import socket
import sys
from pathlib import Path
from typing import Any

from mcp.server import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

from common.paths import data_dir
from common.secrecy import scrub

HOST = "127.0.0.1"
TOKEN_FILE = "mcp-http-token"


def server_token(environ: dict[str, str] | None = None) -> tuple[str, Path | None]:
    """The token, and the file it was written to (None when it came from the environment)."""
    env = os.environ if environ is None else environ
    given = env.get("WAYPOST_MCP_TOKEN", "")
    if given:
        return given, None
    token = secrets.token_urlsafe(32)
    path = data_dir() / TOKEN_FILE
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(scrub(token) + "\n")  # the token itself: no live secret is part of it
    return token, path


class BearerGate:
    """ASGI wrapper: HTTP requests need the token; lifespan events pass through untouched."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self._expected):
                await _unauthorized(send)
                return
        await self.app(scope, receive, send)


async def _unauthorized(send: Send) -> None:
    body = b"waypost mcp: missing or wrong bearer token\n"
    headers = [(b"content-type", b"text/plain"), (b"www-authenticate", b"Bearer")]
    await send({"type": "http.response.start", "status": 401, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def http_app(server: MCPServer[Any], token: str, port: int) -> ASGIApp:
    hosts = [f"{HOST}:{port}", f"localhost:{port}"]
    security = TransportSecuritySettings(allowed_hosts=hosts, allowed_origins=[f"http://{h}" for h in hosts])
    app = server.streamable_http_app(host=HOST, transport_security=security)
    return BearerGate(app, token)


async def serve_http(server: MCPServer[Any], port: int) -> None:
    """Binds first, then says where: a client that read the line can connect at once."""
    import uvicorn

    token, path = server_token()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, port))
    sock.listen(128)  # connections queue from now on, before uvicorn takes the socket
    where = f"token in {path}" if path is not None else "token from WAYPOST_MCP_TOKEN"
    print(scrub(f"waypost mcp: http://{HOST}:{port}/mcp ({where})"), file=sys.stderr, flush=True)
    config = uvicorn.Config(http_app(server, token, port), log_level="warning")
    await uvicorn.Server(config).serve(sockets=[sock])
