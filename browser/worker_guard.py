"""While no_submit holds, a page's workers cannot carry a typed value out once one exists.

Playwright routes a page's own WebSockets (browser/socket_guard.py) and the fetches of its dedicated
workers, but not a worker's WebSocket, nor anything a shared worker sends. The DevTools protocol can
neither intercept a WebSocket handshake nor block one by URL (measured: Network.setBlockedURLs and
Fetch do not stop one; Target.closeTarget refuses workers; offline emulation is "Not supported" in a
worker). What it can do is pause a worker's JavaScript: a paused worker cannot call `send`, and page
script cannot resume it.

So every page's workers (dedicated, nested, shared) are followed over a CDP session of our own
(browser/cdp_targets.py). Before the first typed value enters a page under no_submit, `hold()` pauses
every worker (Debugger.pause takes effect at its next JavaScript: the message the page posts it);
each held worker that tries to run is a guard event (kind `submit`), once.

A worker the page starts after that: target discovery announces it before its script is requested,
so it is attached and sent Debugger.pause at once, and the session's route lets no request through
until that is sent (`settled()`). A worker loaded from an http(s) URL therefore stops at its first
statement, deterministically (LATE_HELD). One made from a blob: or data: URL has no request to wait
for and usually runs before the pause arrives (measured), as does a nested worker or one started by
a frame: it is paused when attached and reported as unchecked (UNCHECKED in the detail), and the
step's answer then says a typed value may have left. `release()` resumes the workers when a later
step allows submitting. See docs/architecture.md ("Worker guard").
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from playwright.async_api import BrowserContext, Error, Page

from browser.cdp_targets import AUTO_ATTACH, CdpTarget, PageLink
from browser.events import GuardEvent

HELD = "worker held: it ran after a value was typed; it is paused, so nothing it sends leaves (no_submit)"
LATE_HELD = "worker stopped before its script ran: it was started after a value was typed (no_submit)"
#: The mark of a refusal that may have come too late: the answer must not say nothing was sent.
UNCHECKED = "could not be checked"
LATE = (
    "worker started after a value was typed and ran before it could be paused: "
    f"what it sent {UNCHECKED} (no_submit)"
)


class WorkerGuard:
    """Follows the workers of a context's pages; `blocking()` says whether no_submit holds now."""

    def __init__(
        self,
        blocking: Callable[[], bool],
        report: Callable[[GuardEvent], None],
        redact: Callable[[str], str],
    ) -> None:
        self._blocking = blocking
        self._report = report
        self._redact = redact
        self._links: list[PageLink] = []
        self._shared: set[str] = set()  # shared worker ids already followed through some page
        self._idle: set[asyncio.Task[None]] = set()  # tasks the route must not wait for
        self._reported: set[str] = set()  # target ids of the workers reported once
        self._tasks: set[asyncio.Task[None]] = set()
        self.holding = False
        self.reported = asyncio.Event()  #: set at each report: tests wait on it, never on a timer

    # --- following pages ---------------------------------------------------------------------

    async def watch(self, context: BrowserContext, page: Page) -> None:
        """Follows `page`'s workers from now on (the ones it already has are attached too)."""
        try:
            cdp = await context.new_cdp_session(page)
            early = self._stopping
            link = PageLink(cdp, self.spawn, self._adopt, self._paused, early, self._shared)
            self._links.append(link)
            await link.start()
        except Error:
            return  # the page closed first: it has no workers left to follow

    def watch_later(self, context: BrowserContext, page: Page) -> None:
        """For the context's "page" event, which cannot wait."""
        self.spawn(self.watch(context, page))

    def _stopping(self) -> bool:
        return self.holding and self._blocking()

    async def _adopt(self, target: CdpTarget) -> None:
        if target.early:  # not started yet: it cannot answer, but gets these before its script runs
            target.held = target.late = True
            with contextlib.suppress(Error):
                for method in ("Debugger.enable", "Debugger.pause", "Target.setAutoAttach"):
                    await target.send(method, AUTO_ATTACH if method == "Target.setAutoAttach" else None)
                self._background(self._judge_early(target))  # not awaited by the route: it waits
            return
        with contextlib.suppress(Error):  # a target that went away holds nothing
            await target.post("Target.setAutoAttach", AUTO_ATTACH)  # its own workers
            if target.is_worker and self._stopping():
                target.late = True
                self._event(target, LATE)  # first: the hold below may fail if the worker already ended
                await self._hold(target)

    async def _judge_early(self, target: CdpTarget) -> None:
        """Reports a worker paused by discovery once it has started (and its URL is known): one
        whose script came over http(s) waited in the route for the pause; any other may not have."""
        try:
            await target.post("Debugger.enable")  # answered once the worker runs
            info = await target.link.cdp.send("Target.getTargetInfo", {"targetId": target.target_id})
        except Error:
            self._event(target, LATE)  # it ended first: what it did is unknown
            return
        target.url = info["targetInfo"].get("url", "")
        self._event(target, LATE_HELD if target.url.startswith(("http:", "https:")) else LATE)

    # --- holding -----------------------------------------------------------------------------

    async def hold(self) -> None:
        """Pauses every worker before a typed value enters a page; a no-op unless no_submit holds."""
        if not self._blocking():
            return
        self.holding = True
        await self.settled()  # pages and workers seen so far are attached
        for target in [t for link in self._links for t in link.all() if t.is_worker and not t.held]:
            with contextlib.suppress(Error):  # a worker that went away holds nothing
                await self._hold(target)

    async def release(self) -> None:
        """Resumes the held workers: a later step allows submitting."""
        self.holding = False
        for target in [t for link in self._links for t in link.all() if t.held]:
            target.held = False
            with contextlib.suppress(Error):
                await target.post("Debugger.resume")
                await target.post("Debugger.disable")

    async def _hold(self, target: CdpTarget) -> None:
        target.held = True
        await target.post("Debugger.enable")
        await target.post("Debugger.pause")

    def _paused(self, target: CdpTarget) -> None:
        if target.held and not target.late:
            self._event(target, HELD)

    def _event(self, target: CdpTarget, detail: str) -> None:
        if target.target_id in self._reported:  # one worker can be attached twice (discovery, auto)
            return
        self._reported.add(target.target_id)
        self._report(GuardEvent(kind="submit", detail=detail, url=self._redact(_shown(target.url))))
        self.reported.set()

    # --- tasks -------------------------------------------------------------------------------

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._idle.add(task)
        task.add_done_callback(self._idle.discard)

    async def settled(self) -> None:
        """Waits until every page and worker seen so far is followed (and held, if holding)."""
        while pending := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def judged(self) -> None:
        """Waits until every worker started so far is attached and, if it started after a value was
        typed, reported: so the action during which a page started one is the one that says so."""
        await self.settled()
        while pending := [t for t in self._idle if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        """Stops following. A held worker is terminated first: closing its page detaches our session,
        which would resume it, and it would send what it holds as the run ends (measured)."""
        for target in [t for link in self._links for t in link.all() if t.held]:
            with contextlib.suppress(Error):  # gone already: it sends nothing
                await target.send("Runtime.terminateExecution")  # answered only once it resumes
        tasks = [*self._tasks, *self._idle]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _shown(url: str) -> str:
    """A data: URL is the worker's whole script, which can hold the typed value: only its type."""
    return url.split(",", 1)[0] + ",…" if url.startswith("data:") else url
