"""Browser endpoints of a grid: where a run's browser comes from when it is not launched here.

`ws://` / `wss://` is Playwright's own protocol (a Playwright server, the official Docker image, a
Selenium Grid or Moon on Kubernetes, browserless): each connection gets a browser of its own.
`http://` / `https://` attaches over the Chrome DevTools Protocol to one running Chromium, where each
run gets a fresh context. Either way a run gets its own context, so no cookie, storage or download
is shared between runs; `GridClient(isolation=...)` says whether concurrent runs share a browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from types import TracebackType
from typing import Literal
from urllib.parse import urlsplit

from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from browser.deadline import BrowserLost
from browser.driver import CLOSE_S, PlaywrightDriver
from browser.options import BrowserPolicy, LaunchOptions
from common.secrecy import SecretVault

#: Playwright's error under the browser layer's name, for callers that may not import Playwright (batch/).
BrowserError = PlaywrightError

#: A Playwright server launches the browser for the connection with these options (JSON).
LAUNCH_OPTIONS_HEADER = "x-playwright-launch-options"
PROBE_S = 5.0

EndpointKind = Literal["playwright", "cdp"]


class EndpointError(ValueError):
    """An endpoint that is malformed or cannot be reached; the message says which and why."""


def endpoint_kind(url: str) -> EndpointKind:
    scheme = urlsplit(url).scheme.lower()
    if scheme in {"ws", "wss"}:
        return "playwright"
    if scheme in {"http", "https"}:
        return "cdp"
    raise EndpointError(
        f"browser endpoint {url!r}: expected ws:// or wss:// (a Playwright server) or http(s):// (CDP)"
    )


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if not parts.hostname:
        raise EndpointError(f"browser endpoint {url!r} names no host")
    try:
        port = parts.port
    except ValueError as exc:
        raise EndpointError(f"browser endpoint {url!r}: {exc}") from exc
    secure = parts.scheme.lower() in {"wss", "https"}
    return parts.hostname, port or (443 if secure else 80)


def endpoint_options(url: str, base: LaunchOptions) -> LaunchOptions:
    """`base` (viewport, headless) with its browser taken from `url` instead of a local launch."""
    fields = {"cdp_url": None, "ws_endpoint": None, "user_data_dir": None, "executable": None}
    if endpoint_kind(url) == "cdp":
        return base.model_copy(update={**fields, "cdp_url": url})
    launch = json.dumps({"headless": base.headless})
    headers = {**base.ws_headers, LAUNCH_OPTIONS_HEADER: launch}
    return base.model_copy(update={**fields, "ws_endpoint": url, "ws_headers": headers})


async def reachable(url: str, within_s: float = PROBE_S) -> bool:
    """The endpoint accepts a connection now (a TCP handshake: cheap, launches no browser)."""
    host, port = _host_port(url)
    try:
        async with asyncio.timeout(within_s):
            _, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


async def check_endpoints(urls: list[str]) -> None:
    """EndpointError naming every endpoint that is malformed or does not answer."""
    for url in urls:
        endpoint_kind(url)
        _host_port(url)
    answers = await asyncio.gather(*(reachable(url) for url in urls))
    down = [url for url, ok in zip(urls, answers, strict=True) if not ok]
    if down:
        raise EndpointError(
            "browser endpoint not reachable: "
            + ", ".join(down)
            + " (is the Playwright server or browser running there?)"
        )


class GridDriver(PlaywrightDriver):
    """A run's driver on a remote browser. Closing the run closes its context; the browser goes back
    to the client for the next run on that endpoint when the context closed cleanly and the browser
    is still connected, and is closed otherwise (never the Playwright client the runs share)."""

    def __init__(self, driver: PlaywrightDriver, browser: Browser, grid: GridClient, where: str) -> None:
        super().__init__(driver.session, driver.deadlines)
        self._remote = browser
        self._grid = grid
        self._where = where

    @property
    def browser(self) -> Browser:
        return self._remote

    async def close(self) -> None:
        clean = False
        try:
            async with asyncio.timeout(CLOSE_S):
                await self.session.close()
            clean = self.session.context not in self._remote.contexts
        except TimeoutError:
            await self.session.abandon()
        finally:
            await self._grid.release(self._where, self._remote, clean=clean)


async def close_quietly(browser: Browser) -> None:
    """Closes a connection (and so the browser a server launched for it) within PROBE_S."""
    with contextlib.suppress(BrowserError, TimeoutError):
        async with asyncio.timeout(PROBE_S):
            await browser.close()


Isolation = Literal["browser", "context"]


class GridClient:
    """One Playwright client shared by many runs (its driver is a process of about 120 MB: one per
    run would cost more than the runs), started on first use and stopped on exit.

    Every run gets a fresh context: cookies, storage, cache, permissions and downloads are never
    shared between runs. `isolation` says what else is kept apart:
    - "browser" (the default): a run never shares a browser with another run at the same time; it
      gets a browser of its own (a connection; a Playwright server launches a browser per
      connection). A browser that crashes or hangs takes one run with it.
    - "context": the runs on an endpoint share one browser, as Playwright's own test runner shares a
      browser between the tests of a worker. Launching and keeping a browser per concurrent run is
      most of what a batch asks of Chromium beyond the pages themselves (benchmarks/batch.py); the
      price is that a browser that crashes ends every run in it (each ends FAILED, resumable).
    Either way a browser that served RUNS_PER_BROWSER runs is replaced for the next run, and one
    whose run ended uncleanly is never given to another run."""

    RUNS_PER_BROWSER = 50

    def __init__(self, isolation: Isolation = "browser") -> None:
        self.isolation: Isolation = isolation
        self._pw: Playwright | None = None
        self._lock = asyncio.Lock()
        self._idle: dict[str, list[Browser]] = {}
        self._served: dict[int, int] = {}  # id(browser) -> runs it has served
        #: "context" isolation: the browser new runs on an endpoint get, and runs in each browser now.
        self._shared: dict[str, Browser] = {}
        self._sharing = asyncio.Lock()
        self._users: dict[int, int] = {}

    async def __aenter__(self) -> GridClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        kept = [browser for browsers in self._idle.values() for browser in browsers]
        kept += self._shared.values()
        self._idle.clear()
        self._shared.clear()
        await asyncio.gather(*(close_quietly(browser) for browser in kept))
        if self._pw is not None:
            pw, self._pw = self._pw, None
            await pw.stop()

    async def release(self, where: str, browser: Browser, *, clean: bool) -> None:
        """A run on `browser` ended; `clean` when its context closed. A browser no run may get
        again is closed once no run uses it."""
        if self.isolation == "browser":
            if clean and browser.is_connected():
                self._idle.setdefault(where, []).append(browser)
            else:
                await self.retire(browser)
            return
        users = self._users[id(browser)] = self._users.get(id(browser), 1) - 1
        if not (clean and browser.is_connected()) and self._shared.get(where) is browser:
            del self._shared[where]  # a context left open (or a lost browser): no new run goes there
        if users <= 0 and self._shared.get(where) is not browser:
            self._users.pop(id(browser), None)
            await self.retire(browser)

    def _take_idle(self, where: str) -> Browser | None:
        idle = self._idle.get(where, [])
        while idle:
            browser = idle.pop()
            if browser.is_connected():
                return browser
        return None

    async def _connect(self, options: LaunchOptions) -> Browser:
        async with self._lock:
            if self._pw is None:
                self._pw = await async_playwright().start()
            pw = self._pw
        if options.cdp_url:
            return await pw.chromium.connect_over_cdp(options.cdp_url)
        assert options.ws_endpoint is not None
        return await pw.chromium.connect(options.ws_endpoint, headers=options.ws_headers or None)

    async def _browser(self, options: LaunchOptions, where: str) -> tuple[Browser, bool]:
        """A browser for one run, and whether it served runs before."""
        if self.isolation == "context":
            return await self._shared_browser(options, where)
        browser = self._take_idle(where)
        if browser is not None and self._served.get(id(browser), 0) < self.RUNS_PER_BROWSER:
            return browser, True
        if browser is not None:
            await self.retire(browser)
        return await self._connect(options), False

    async def _shared_browser(self, options: LaunchOptions, where: str) -> tuple[Browser, bool]:
        """The endpoint's shared browser, connected once however many runs ask at the same time."""
        async with self._sharing:
            browser = self._shared.get(where)
            spent = browser is not None and self._served.get(id(browser), 0) >= self.RUNS_PER_BROWSER
            if browser is not None and (spent or not browser.is_connected()):
                del self._shared[where]
                if self._users.get(id(browser), 0) <= 0:
                    self._users.pop(id(browser), None)
                    await self.retire(browser)
                browser = None
            reused = browser is not None
            if browser is None:
                browser = self._shared[where] = await self._connect(options)
            self._users[id(browser)] = self._users.get(id(browser), 0) + 1
            return browser, reused

    async def retire(self, browser: Browser) -> None:
        """Closes a browser that will serve no more runs and forgets its count (an id may be reused
        by a later browser once this one is gone)."""
        self._served.pop(id(browser), None)
        await close_quietly(browser)

    async def driver(
        self, options: LaunchOptions, *, policy: BrowserPolicy, vault: SecretVault, downloads_dir: Path
    ) -> PlaywrightDriver:
        """A driver on a browser of the endpoint in `options`. An endpoint that cannot be reached is a
        lost browser (a batch moves the run elsewhere), not a Playwright traceback. A kept browser
        that fails to open the run's context is dropped and a fresh one connected, once."""
        where = options.ws_endpoint or options.cdp_url or ""
        for _ in range(2):
            try:
                browser, reused = await self._browser(options, where)
            except BrowserError as exc:
                said = exc.message.splitlines()[0] if exc.message else type(exc).__name__
                raise BrowserLost(f"the browser at {where} could not be reached ({said})") from exc
            try:
                base = await PlaywrightDriver.on_browser(
                    browser, policy=policy, secrets=vault, downloads_dir=downloads_dir
                )
            except BrowserError as exc:
                await self.release(where, browser, clean=False)
                if reused:
                    continue
                raise BrowserLost(f"the browser at {where} went away while the run was starting") from exc
            self._served[id(browser)] = self._served.get(id(browser), 0) + 1
            return GridDriver(base, browser, self, where)
        raise BrowserLost(f"the browser at {where} went away while the run was starting")
