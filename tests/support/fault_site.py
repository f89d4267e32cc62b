"""A fault server on 127.0.0.1: pages that hang, spin, fail or loop, and a form whose POSTs it counts.

The fault suite (tests/faults/) drives real runs against it. Every route that hangs waits on a
threading.Event that `stop()` sets, so shutting the server down never waits on a stuck request.

Routes:
  /form           a form (one text field, a Send button) that POSTs to /submit
  POST /submit    counted per path, answered with a "Received" page
  /form-held      a Send button whose click POSTs to /submit-held and waits for the answer (a
                  synchronous request: the click itself does not return while the POST is held)
  POST /submit-held  counted, then never answered: a test kills the run while the POST is in flight
  /form-unanswered  a plain form (one text field, Send) whose submit navigates to POST /submit-never
  /form-fetch     a Send button whose click posts to /submit-never with fetch() and returns at once
  POST /submit-never  counted, then never answered: the click returns, the page waits for the answer
  /spin           a page whose Go button starts `while(true){}` (the renderer never answers again)
  /spin-on-load   a page that starts `while(true){}` shortly after load
  /never          a request the server accepts and never answers
  /hold-first     never answers its first request; later ones get the Go page (a resumed run gets on)
  /held           a Go page whose GET waits until the test calls `proceed()` (the run is held there)
  /status/<n>     an HTML page with HTTP status n (500, 404, ...)
  /loop           a redirect to itself, forever
  /ok             a plain page with a heading
  /go             a page whose Go button changes its heading to 'Went'
"""

from __future__ import annotations

import threading
from collections import Counter
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler
from types import TracebackType

from tests.support.http_reply import PageServer, send_reply

_FORM = b"""<!doctype html><html><head><title>Fault form</title></head><body>
<h1>Contact</h1>
<form method="post" action="/submit">
  <label for="name">Name</label> <input id="name" name="name" type="text">
  <button type="submit">Send</button>
</form></body></html>"""

_SPIN = b"""<!doctype html><html><head><title>Spin</title></head><body>
<h1>Spin</h1><button id="go" onclick="setTimeout(() => { while (true) {} }, 0)">Go</button>
</body></html>"""

_SPIN_ON_LOAD = b"""<!doctype html><html><head><title>Spin on load</title></head><body>
<h1>Spin on load</h1><button id="go">Go</button>
<script>window.addEventListener('load', () => setTimeout(() => { while (true) {} }, 200));</script>
</body></html>"""

_GO = b"""<!doctype html><html><head><title>Go</title></head><body>
<h1>Go page</h1><button id="go" onclick="document.querySelector('h1').textContent='Went'">Go</button>
</body></html>"""

_FORM_HELD = b"""<!doctype html><html><head><title>Held form</title></head><body>
<h1>Order</h1><label for="name">Name</label> <input id="name" name="name" type="text">
<button id="send" onclick="const r = new XMLHttpRequest(); r.open('POST', '/submit-held', false);
r.send(document.getElementById('name').value); document.querySelector('h1').textContent = 'Sent';">
Send</button></body></html>"""

_FORM_UNANSWERED = _FORM.replace(b'action="/submit"', b'action="/submit-never"')

_FORM_FETCH = b"""<!doctype html><html><head><title>Fetch form</title></head><body>
<h1>Order</h1><button id="send" onclick="fetch('/submit-never', {method: 'POST', body: 'x'});
document.querySelector('h1').textContent = 'Sending';">Send</button></body></html>"""

_OK = b"<!doctype html><html><head><title>OK</title></head><body><h1>All fine</h1></body></html>"
_RECEIVED = b"<!doctype html><html><head><title>Received</title></head><body><h1>Received</h1></body></html>"


class FaultSite:
    """A running fault server; use as a context manager or call start()/stop()."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: Notified on every counted request, so a test waits for one instead of polling.
        self._seen = threading.Condition(self._lock)
        self._posts: Counter[str] = Counter()
        self._gets: Counter[str] = Counter()
        self._released = threading.Event()
        self._proceed = threading.Event()
        self._server: PageServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> FaultSite:
        self._server = PageServer(("127.0.0.1", 0), _make_handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, name="fault-site", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._released.set()
        self._proceed.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join()
        self._server = self._thread = None

    def __enter__(self) -> FaultSite:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def url(self, path: str) -> str:
        if self._server is None:
            raise RuntimeError("fault site is not running")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{path}"

    def posts(self, path: str = "/submit") -> int:
        with self._lock:
            return self._posts[path]

    def gets(self, path: str) -> int:
        with self._lock:
            return self._gets[path]

    def proceed(self) -> None:
        """Lets the requests waiting on /held through (and every later one)."""
        self._proceed.set()

    def wait_for_post(self, path: str, count: int = 1, limit_s: float = 30) -> int:
        """Blocks until `path` has had `count` POSTs (the server saw them land); fails after `limit_s`."""
        return self._wait(self._posts, path, count, limit_s, "POST")

    def wait_for_get(self, path: str, count: int = 1, limit_s: float = 30) -> int:
        """Blocks until `path` has had `count` GETs; fails after `limit_s`."""
        return self._wait(self._gets, path, count, limit_s, "GET")

    def _wait(self, counter: Counter[str], path: str, count: int, limit_s: float, what: str) -> int:
        with self._seen:
            if not self._seen.wait_for(lambda: counter[path] >= count, timeout=limit_s):
                raise AssertionError(
                    f"{what} {path} seen {counter[path]} time(s), not {count}, in {limit_s} s"
                )
            return counter[path]

    def _count_post(self, path: str) -> None:
        with self._seen:
            self._posts[path] += 1
            self._seen.notify_all()

    def _count_get(self, path: str) -> int:
        with self._seen:
            self._gets[path] += 1
            self._seen.notify_all()
            return self._gets[path]


def _make_handler(site: FaultSite) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            send_reply(self, body, status=status, headers=headers)

        def do_GET(self) -> None:
            path = self.path.split("?", 1)[0]
            seen = site._count_get(path)
            pages = {
                "/form": _FORM,
                "/form-held": _FORM_HELD,
                "/form-unanswered": _FORM_UNANSWERED,
                "/form-fetch": _FORM_FETCH,
                "/spin": _SPIN,
                "/spin-on-load": _SPIN_ON_LOAD,
                "/ok": _OK,
                "/go": _GO,
            }
            if path in pages:
                self._send(HTTPStatus.OK, pages[path])
            elif path == "/never" or (path == "/hold-first" and seen == 1):
                site._released.wait()
            elif path == "/hold-first":
                self._send(HTTPStatus.OK, _GO)
            elif path == "/held":
                site._proceed.wait()  # stop() sets it too, so shutting down never waits here
                self._send(HTTPStatus.OK, _GO)
            elif path == "/loop":
                self._send(HTTPStatus.FOUND, b"", {"Location": "/loop"})
            elif path.startswith("/status/") and path[8:].isdigit():
                code = int(path[8:])
                self._send(code, f"<html><body><h1>Status {code}</h1></body></html>".encode())
            else:
                self._send(HTTPStatus.NOT_FOUND, b"<html><body><h1>Not found</h1></body></html>")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            site._count_post(self.path)
            if self.path in ("/submit-held", "/submit-never"):
                site._released.wait()
                return
            self._send(HTTPStatus.OK, _RECEIVED)

    return Handler
