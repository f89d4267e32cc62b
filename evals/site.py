"""The eval's own local website: the bundled pages on 127.0.0.1, and what each page reported.

Pages load state.js, which sends the page's field values and app facts on every input, change and
click (a synchronous GET to /__state, so the report lands before the agent's action returns). A
checker reads the last report of its page. POSTs are counted per path (a form that was sent).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, urlsplit

PAGES = Path(__file__).resolve().parent / "pages"
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


class EvalSite:
    """Start with `with EvalSite() as site:`; `reset()` before each task."""

    def __init__(self, root: Path = PAGES) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._states: dict[str, dict[str, Any]] = {}
        self._posts: Counter[str] = Counter()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="eval-site", daemon=True)

    def __enter__(self) -> EvalSite:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def url(self, page: str) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/{page.lstrip('/')}"

    def reset(self) -> None:
        with self._lock:
            self._states.clear()
            self._posts.clear()

    def state(self, page: str) -> dict[str, Any]:
        with self._lock:
            return dict(self._states.get("/" + page.lstrip("/"), {}))

    def posts(self, path: str) -> int:
        with self._lock:
            return self._posts["/" + path.lstrip("/")]

    def _report(self, page: str, raw: str) -> None:
        try:
            state = json.loads(raw)
        except json.JSONDecodeError:
            return
        if isinstance(state, dict):
            with self._lock:
                self._states[page] = state

    def _post(self, path: str) -> None:
        with self._lock:
            self._posts[path] += 1


def _handler(site: EvalSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def _send(self, status: int, body: bytes, ctype: str = "text/html; charset=utf-8") -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            if parts.path == "/__state":
                query = parse_qs(parts.query)
                site._report(query.get("page", [""])[0], query.get("s", ["{}"])[0])
                self._send(204, b"")
                return
            name = parts.path.lstrip("/") or "index.html"
            file = (site.root / name).resolve()
            if not file.is_relative_to(site.root) or not file.is_file():
                self._send(404, b"<!doctype html><title>Not found</title><h1>Not found</h1>")
                return
            self._send(200, file.read_bytes(), _TYPES.get(file.suffix, "application/octet-stream"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            site._post(urlsplit(self.path).path)
            self._send(200, b"<!doctype html><title>Received</title><h1>Thank you, received</h1>")

    return Handler
