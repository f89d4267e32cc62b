"""The bundled offline demo site, served by Waypost itself on 127.0.0.1 for `waypost demo` and the GUI.

Static vendor pages plus a small search engine (results in the common "result__a / result__snippet"
HTML shape) and form endpoints that count the POSTs they receive, so a demo can prove that nothing
was submitted.
"""

from __future__ import annotations

import html
import re
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

SITE = Path(str(resources.files("app.demo") / "site"))
_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8"}
_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"[a-z0-9]+")


def _page_text(path: Path) -> tuple[str, str]:
    raw = path.read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", raw, re.S)
    body = raw.split("<main>", 1)[-1]
    return (title.group(1) if title else path.stem), " ".join(_TAG.sub(" ", body).split())


class _Index:
    """Term-overlap search over the site's pages: enough for a deterministic offline demo."""

    def __init__(self, root: Path) -> None:
        self.pages = {f"/{p.name}": _page_text(p) for p in sorted(root.glob("*.html"))}

    def search(self, query: str, limit: int = 8) -> list[tuple[str, str, str]]:
        terms = set(_WORD.findall(query.lower()))
        scored = []
        for path, (title, text) in self.pages.items():
            words = Counter(_WORD.findall(f"{title} {title} {text}".lower()))
            score = sum(words[t] for t in terms)
            if score:
                scored.append((score, path, title, text[:220]))
        scored.sort(key=lambda row: (-row[0], row[1]))
        return [(path, title, snippet) for _, path, title, snippet in scored[:limit]]


class _Handler(BaseHTTPRequestHandler):
    server: _DemoServer

    def log_message(self, format: str, *args: object) -> None:
        return None  # quiet: the demo prints its own progress

    def _send(self, status: int, body: str, content_type: str = "text/html; charset=utf-8") -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/search":
            self._send(200, self._results(parse_qs(url.query).get("q", [""])[0]))
            return
        name = "index.html" if url.path in {"", "/"} else url.path.lstrip("/")
        path = (SITE / name).resolve()
        if path.parent != SITE.resolve() or not path.is_file():
            self._send(404, "<h1>Not found</h1>")
            return
        self._send(200, path.read_text(encoding="utf-8"), _TYPES.get(path.suffix, "text/plain"))

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        with self.server.lock:
            self.server.posts[path] += 1
        self._send(200, "<h1>Thank you</h1><p>Your request was received.</p>")

    def _results(self, query: str) -> str:
        host, port = self.server.server_address[:2]
        base = f"http://{host!s}:{port}"
        rows = "".join(
            f'<div class="result"><a class="result__a" href="{html.escape(base + path)}">'
            f"{html.escape(title)}</a>"
            f'<span class="result__snippet">{html.escape(snippet)}</span></div>'
            for path, title, snippet in self.server.index.search(query)
        )
        form = (
            '<form action="/search"><input name="q" value="'
            + html.escape(query)
            + '" aria-label="Search"><button>Search</button></form>'
        )
        return (
            '<!doctype html><html><head><meta charset="utf-8"><title>Search: '
            + html.escape(query)
            + '</title><link rel="stylesheet" href="/style.css"></head><body><main>'
            + form
            + (rows or "<p>No results.</p>")
            + "</main></body></html>"
        )


#: The demo site's address stays the same across launches, so a run paused at a gate resumes on the
#: same pages after a restart; another free port is taken only when this one is busy.
DEFAULT_PORT = 8765


class _DemoServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.index = _Index(SITE)
        self.posts: Counter[str] = Counter()
        self.lock = threading.Lock()


def _bind(port: int | None, fallback: bool = True) -> _DemoServer:
    if port:
        try:
            return _DemoServer(port)
        except OSError:  # taken (another Waypost, another program): any free port still works
            if not fallback:
                raise
    return _DemoServer(0)


class DemoSite:
    """`with DemoSite() as site: site.url("/datafeed.html")`; `site.posts("/signup")` counts POSTs."""

    def __init__(self, port: int | None = DEFAULT_PORT, *, fallback: bool = True) -> None:
        """`port` None: any free port (tests running side by side). A busy port falls back to any,
        unless `fallback` is False (serving a recorded address again): then OSError."""
        self._server = _bind(port, fallback)
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="waypost-demo-site", daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def url(self, path: str) -> str:
        return self.base_url + path

    @property
    def search_template(self) -> str:
        return self.base_url + "/search?q={query}"

    def posts(self, path: str | None = None) -> int:
        with self._server.lock:
            return sum(self._server.posts.values()) if path is None else self._server.posts[path]

    def start(self) -> DemoSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> DemoSite:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
