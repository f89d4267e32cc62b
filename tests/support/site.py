"""The local fixture website: static pages from tests/fixtures/site plus a few dynamic routes.

Served on 127.0.0.1 (port 0) by a threaded stdlib server. It counts the POST requests it receives per
path, which is how the submit-guard tests prove that nothing left the page. Slow and hanging routes
wait on a threading.Event that `stop()` sets, so shutdown never waits on them.

Dynamic routes:
  /slow?delay=S     an HTML page sent after S seconds (or on shutdown)
  /hang             a request that never gets an answer (used by never.html's <img>)
  /redirect?to=URL  a 302 to URL
  /files/<name>     a file from fixtures/site/files, sent as an attachment
  POST <any path>   counted, body kept, answered with a small "Received" page; `?delay=S` answers
                    after S seconds, `?status=N` answers with that HTTP status and an error page
"""

from __future__ import annotations

import html
import mimetypes
import threading
from collections import Counter
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

from tests.support.http_reply import PageServer, send_reply

SITE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "site"


class FixtureSite:
    """A running fixture server; use as a context manager or call start()/stop()."""

    def __init__(self, root: Path = SITE_DIR) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._got = threading.Condition(self._lock)  # notified on every GET
        self._posts: Counter[str] = Counter()
        self._post_bodies: dict[str, list[bytes]] = {}
        self._gets: list[str] = []
        self._released = threading.Event()
        self._server: PageServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle --------------------------------------------------------------------------

    def start(self) -> FixtureSite:
        handler = _make_handler(self)
        self._server = PageServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(target=self._server.serve_forever, name="fixture-site", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = None
        self._thread = None

    def __enter__(self) -> FixtureSite:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    # --- what tests read --------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("fixture site is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)

    def post_count(self, path: str | None = None) -> int:
        """POSTs received on `path`, or on every path when None."""
        with self._lock:
            return self._posts[path] if path is not None else sum(self._posts.values())

    def post_bodies(self, path: str) -> list[bytes]:
        with self._lock:
            return list(self._post_bodies.get(path, []))

    def get_requests(self) -> list[str]:
        """Every GET path+query the site received (beacons and GET forms show up here)."""
        with self._lock:
            return list(self._gets)

    def wait_for_get(self, prefix: str, timeout_s: float = 30) -> bool:
        """Blocks until a GET whose path starts with `prefix` has arrived (run it in a thread)."""
        with self._got:
            return self._got.wait_for(lambda: any(p.startswith(prefix) for p in self._gets), timeout_s)

    def clear_posts(self) -> None:
        with self._lock:
            self._posts.clear()
            self._post_bodies.clear()

    def _record_post(self, path: str, body: bytes) -> None:
        with self._lock:
            self._posts[path] += 1
            self._post_bodies.setdefault(path, []).append(body)

    def _hold(self, seconds: float | None) -> None:
        """Blocks a handler thread until shutdown (or `seconds`): an event wait, not a sleep loop."""
        self._released.wait(seconds)


def _make_handler(site: FixtureSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: object) -> None:
            return  # keep test output quiet

        def _send(
            self, body: bytes, ctype: str = "text/html; charset=utf-8", extra: dict[str, str] | None = None
        ) -> None:
            send_reply(self, body, content_type=ctype, headers={"Cache-Control": "no-store", **(extra or {})})

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            with site._got:
                site._gets.append(self.path)
                site._got.notify_all()
            path = parts.path
            if path == "/slow":
                delay = float(parse_qs(parts.query).get("delay", ["2"])[0])
                site._hold(delay)
                self._send(b"<!doctype html><title>Slow page</title><h1>Finally loaded</h1>")
                return
            if path == "/hang":
                site._hold(None)
                return
            if path == "/redirect":
                self.send_response(HTTPStatus.FOUND)
                self.send_header("Location", parse_qs(parts.query).get("to", ["/"])[0])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if path == "/":
                path = "/index.html"
            file = (site.root / path.lstrip("/")).resolve()
            if not file.is_relative_to(site.root) or not file.is_file():
                self.send_error(HTTPStatus.NOT_FOUND)
                return
            ctype = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            if ctype.startswith("text/"):
                ctype += "; charset=utf-8"
            extra = {}
            if path.startswith("/files/"):
                extra["Content-Disposition"] = f'attachment; filename="{file.name}"'
            self._send(file.read_bytes(), ctype, extra)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            parts = urlsplit(self.path)
            site._record_post(parts.path, body)
            asked = parse_qs(parts.query)
            if "delay" in asked:
                site._hold(float(asked["delay"][0]))
            status = int(asked.get("status", ["200"])[0])
            if status >= 400:
                said = html.escape(asked.get("say", [""])[0])  # ?say=...: the site's own sentence
                page = (
                    f"<!doctype html><title>Error {status}</title><h1>Something went wrong ({status})</h1>"
                    f"<p role=alert>{said}</p>"
                )
                send_reply(self, page.encode(), status=status, content_type="text/html; charset=utf-8")
                return
            self._send(b"<!doctype html><title>Received</title><h1>Received</h1>")

    return Handler
