"""Every hop of a redirect chain passes the private-network rule (docs/architecture.md, "Navigation
policy").

Playwright's route sees a request once: when a server answers 3xx, Chromium follows the redirect
without showing the next request to the route. So the session also enables CDP's Fetch domain on
the *browser* target, which pauses every request whose URL names a private host, redirect hops
included, in every tab and frame of the browser (a popup too, from its first request). A first
request goes on untouched (the route judges it, knowing its frame); a redirect hop to a private
address is refused unless the server that sent it is private as well, or the run allows private
addresses. The hop is refused before Chromium connects to it, so the private address sees nothing.

Only URLs naming a private host pause here (`PATTERNS`), so the public web pays nothing. A redirect
hop is known by `redirectedRequestId`; the hop before it was public exactly when it did not pause
here (it did not name a private host), or it paused and its host is public (a pattern is a coarse
filter; `network_policy.is_private_url` decides).
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, CDPSession, Error

from browser.network_policy import PrivateNetworkGuard, is_private_url

# Chromium canonicalises hosts before a request starts (2130706433 and 0x7f.1 are 127.0.0.1, IPv6 is
# compressed and lower-case, ::ffff:127.0.0.1 is [::ffff:7f00:1]), so these prefixes find every URL
# naming a private host; `*` also matches inside a path, which only costs a pause.
_HOSTS = ["127.", "10.", "192.168.", "0.", "localhost", "[::1]", "[::]", "[fc", "[fd", "[::ffff:"] + [
    f"172.{n}." for n in range(16, 32)
]
PATTERNS = [f"*://{host}*" for host in _HOSTS] + ["*://*.localhost*", "*://*@*"]

#: Requests remembered to judge their next hop; older ones (never redirected) are forgotten.
_REMEMBERED = 512

Report = Callable[[str, str, bool], None]  # (reason, url, navigation)


@dataclass(eq=False)
class Watcher:
    """One session on the browser: its rule, and where its refusals are reported."""

    guard: PrivateNetworkGuard
    report: Report


class HopGuard:
    """The browser's Fetch interception of private hosts; sessions register to share it."""

    def __init__(self) -> None:
        self._cdp: CDPSession | None = None
        self._ready: asyncio.Task[None] | None = None
        self._switch = asyncio.Lock()  # enable/disable in order; the last one reads the watchers
        self._enabled = False
        self._watchers: list[Watcher] = []
        self._paused: OrderedDict[str, str] = OrderedDict()  # requestId -> URL, for the next hop
        self._tasks: set[asyncio.Task[None]] = set()

    @classmethod
    async def on(cls, browser: Browser) -> HopGuard:
        """The browser's guard (one per Browser object), attached on first use."""
        guard = _GUARDS.get(browser)
        if guard is None or guard._ready is None:  # nothing awaited between look-up and store
            guard = _GUARDS[browser] = cls()
            guard._ready = asyncio.get_running_loop().create_task(guard._attach(browser))
        try:
            await asyncio.shield(guard._ready)
        except Error:
            _GUARDS.pop(browser, None)  # the next session tries again
            raise
        return guard

    async def _attach(self, browser: Browser) -> None:
        self._cdp = await browser.new_browser_cdp_session()
        self._cdp.on("Fetch.requestPaused", self._on_paused)

    async def watch(self, guard: PrivateNetworkGuard, report: Report) -> Callable[[], None]:
        """Registers a session's rule and returns once interception is on (so no page of the session
        navigates before it); the call it returns unregisters it (on close). Interception is off
        while no session watches: the browser's requests then pause nowhere but the route."""
        watcher = Watcher(guard, report)
        self._watchers.append(watcher)
        await self._apply()

        def unwatch() -> None:
            if watcher in self._watchers:
                self._watchers.remove(watcher)
                self._own(self._apply())

        return unwatch

    async def _apply(self) -> None:
        async with self._switch:
            wanted = bool(self._watchers)
            if self._cdp is None or wanted == self._enabled:
                return
            with contextlib.suppress(Error):  # the browser went away: nothing left to intercept
                if wanted:
                    patterns = [{"urlPattern": p, "requestStage": "Request"} for p in PATTERNS]
                    await self._cdp.send("Fetch.enable", {"patterns": patterns})
                else:
                    await self._cdp.send("Fetch.disable")
                self._enabled = wanted

    def _own(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_paused(self, event: dict[str, Any]) -> None:
        self._own(self._decide(event))

    async def _decide(self, event: dict[str, Any]) -> None:
        request_id, url = event["requestId"], event["request"]["url"]
        previous = event.get("redirectedRequestId")
        self._remember(request_id, url)
        refusing = [] if previous is None else self._refusing(url, self._paused.pop(previous, None))
        navigation = event.get("resourceType") == "Document"
        for watcher, reason in refusing:
            watcher.report(reason, url, navigation)
        if self._cdp is None:
            return
        with contextlib.suppress(Error):  # the browser or the request went away meanwhile
            if refusing:
                refuse = {"requestId": request_id, "errorReason": "BlockedByClient"}
                await self._cdp.send("Fetch.failRequest", refuse)
            else:
                await self._cdp.send("Fetch.continueRequest", {"requestId": request_id})

    def _refusing(self, url: str, source: str | None) -> list[tuple[Watcher, str]]:
        """The sessions that refuse a redirect to `url` sent by `source` (None: a public server)."""
        if not is_private_url(url) or (source is not None and is_private_url(source)):
            return []
        host = urlsplit(url).hostname or url
        reason = (
            f"refused {host}: a private address, reached by a redirect"
            " from a public server (the task names none)"
        )
        return [(w, reason) for w in self._watchers if not w.guard.allow_private]

    def _remember(self, request_id: str, url: str) -> None:
        self._paused[request_id] = url
        while len(self._paused) > _REMEMBERED:
            self._paused.popitem(last=False)


_GUARDS: weakref.WeakKeyDictionary[Browser, HopGuard] = weakref.WeakKeyDictionary()


async def watch_hops(
    context: BrowserContext, guard: PrivateNetworkGuard, report: Report
) -> Callable[[], None] | None:
    """Registers a session's rule with its browser's guard; None when the context has no browser
    object to attach to (then only the route's first-request check holds)."""
    browser = context.browser
    if browser is None:
        return None
    return await (await HopGuard.on(browser)).watch(guard, report)
