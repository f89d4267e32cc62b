"""The eval's own local website: the bundled pages on 127.0.0.1, and what each page reported.

Pages load state.js, which sends the page's field values, app facts and address on every input,
change and click (a synchronous GET to /__state, so the report lands before the agent's action
returns). A checker reads the last report of each page. Pages of one site share a small store
(/__state/store: a cart, which messages were read), kept here so that `reset()` empties it between
tasks whatever the browser keeps. Every POST is recorded with its path, its fields and the answer
it got. A `posts.json` anywhere under the pages says what a path needs (`required` names that must
not be empty, `match` values that must be equal); a post that lacks them is answered with an error
page and an HTTP error (422, or the rule's `refuse`), as a real site would; an accepted post gets
the rule's `reply` page, where `{{name}}` is the posted value, or a plain acknowledgement.
"""

from __future__ import annotations

import contextlib
import html
import json
import re
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlsplit

from evals.checks import EvalTask, Observed, Sent

PAGES = Path(__file__).resolve().parent / "pages"
_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
_SLOT = re.compile(r"\{\{(\w+)\}\}")


class EvalSite:
    """Start with `with EvalSite() as site:`; `reset()` before each task."""

    def __init__(self, root: Path = PAGES) -> None:
        self.root = root
        self.rules: dict[str, dict[str, Any]] = {}
        for rules in sorted(root.rglob("posts.json")):
            self.rules.update(json.loads(rules.read_text(encoding="utf-8")))
        self._lock = threading.Lock()
        self._states: dict[str, dict[str, Any]] = {}
        self._store: dict[str, Any] = {}
        self._sent: list[Sent] = []
        self._posts: Counter[str] = Counter()
        self._last = ""
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
            self._store.clear()
            self._sent.clear()
            self._posts.clear()
            self._last = ""

    def state(self, page: str) -> dict[str, Any]:
        with self._lock:
            return dict(self._states.get("/" + page.lstrip("/"), {}))

    def posts(self, path: str) -> int:
        with self._lock:
            return self._posts["/" + path.lstrip("/")]

    def observe(self, task: EvalTask, answer: str = "", status: str = "") -> Observed:
        """Everything a checker may read about the run that just ended on this site."""
        with self._lock:
            return Observed(
                state=dict(self._states.get("/" + task.page.lstrip("/"), {})),
                answer=answer,
                posts=self._posts["/" + task.post_path.lstrip("/")] if task.post_path else 0,
                status=status,
                pages=dict(self._states),
                sent=tuple(self._sent),
                store=json.loads(json.dumps(self._store)),
                last=self._last,
            )

    def _report(self, page: str, raw: str) -> None:
        try:
            state = json.loads(raw)
        except json.JSONDecodeError:
            return
        if isinstance(state, dict):
            with self._lock:
                self._states[page] = state
                self._last = str(state.get("url") or page)

    def _keep(self, key: str, raw: str | None) -> bytes:
        """Sets the store's `key` when a value came (JSON), and answers its value as JSON."""
        with self._lock:
            if raw is not None:
                with contextlib.suppress(json.JSONDecodeError):  # a broken value leaves the old one
                    self._store[key] = json.loads(raw)
            return json.dumps(self._store.get(key)).encode()

    def _post(self, path: str, form: dict[str, str]) -> tuple[int, bytes]:
        """Records a post and gives the site's answer: the rule's reply page or its error page."""
        rule = self.rules.get(path, {})
        missing = [name for name in rule.get("required", ()) if not form.get(name, "").strip()]
        wrong = [name for name, want in rule.get("match", {}).items() if form.get(name) != want]
        if missing:
            status, body = 422, _error_page(f"Please fill in: {', '.join(missing)}.")
        elif wrong:
            status = int(rule.get("refuse", 422))
            body = _error_page(str(rule.get("refusal", f"Please check: {', '.join(wrong)}.")))
        else:
            status, body = 200, self._reply(rule.get("reply"), form)
        with self._lock:
            self._posts[path] += 1
            self._sent.append(Sent(path, form, status))
        return status, body

    def _reply(self, page: str | None, form: dict[str, str]) -> bytes:
        if not page:
            return b"<!doctype html><title>Received</title><h1>Thank you, received</h1>"
        text = (self.root / page).read_text(encoding="utf-8")
        return _SLOT.sub(lambda m: html.escape(form.get(m[1], "")), text).encode()


def _error_page(sentence: str) -> bytes:
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Error</title></head>"
        f"<body><h1>Something went wrong</h1><p role=alert>{html.escape(sentence)}</p>"
        '<p><a href="javascript:history.back()">Go back</a></p></body></html>'
    ).encode()


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
            query = parse_qs(parts.query)
            if parts.path == "/__state":
                site._report(query.get("page", [""])[0], query.get("s", ["{}"])[0])
                self._send(204, b"")
                return
            if parts.path == "/__state/store":
                value = query["v"][0] if "v" in query else None
                self._send(200, site._keep(query.get("k", [""])[0], value), "application/json")
                return
            name = parts.path.lstrip("/") or "index.html"
            file = (site.root / name).resolve()
            if file.is_dir():
                file = file / "index.html"
            if not file.is_relative_to(site.root) or not file.is_file():
                self._send(404, b"<!doctype html><title>Not found</title><h1>Not found</h1>")
                return
            self._send(200, file.read_bytes(), _TYPES.get(file.suffix, "application/octet-stream"))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace")
            form = dict(parse_qsl(raw, keep_blank_values=True))
            self._send(*site._post(urlsplit(self.path).path, form))

    return Handler
