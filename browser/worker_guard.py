"""While no_submit holds, a page's workers cannot carry a typed value out once one exists.

Playwright routes a page's own WebSockets (browser/socket_guard.py) but not those of its workers, and
the DevTools protocol can neither intercept a WebSocket handshake nor block one by URL, in a page or
in a worker (measured: Network.setBlockedURLs and Fetch do not stop one; Target.closeTarget refuses
workers; offline emulation is "Not supported" in a worker). What the protocol can do is pause a
worker's JavaScript: a paused worker cannot call `send`, and the page cannot resume it.

So this guard attaches to the workers of every page (one CDP session per page, auto-attach without
the flat protocol, so Playwright's own sessions stay untouched; messages to a worker go through
Target.sendMessageToTarget, and nested workers and out-of-process frames are followed the same way).
Before the first typed value enters a page under no_submit, `hold()` pauses every worker (Debugger.pause
takes effect at the worker's next JavaScript, e.g. the message the page posts it); a worker that
starts later is paused as soon as it is attached. Each held worker that tries to run is reported as a
guard event (kind `submit`), once. `release()` resumes them when a later step allows submitting.
Limits are in docs/architecture.md ("Worker guard").
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable, Coroutine
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Error, Page

from browser.models import GuardEvent

#: Target types whose script can open a socket, and the frames whose workers we must follow.
WORKER_TYPES = frozenset({"worker", "shared_worker"})
FOLLOWED_TYPES = WORKER_TYPES | {"iframe"}

#: A worker that does not answer in this time is gone (its page navigated or closed).
ANSWER_TIMEOUT_S = 5.0

HELD = "worker held: it ran after a value was typed; it is paused, so nothing it sends leaves (no_submit)"
LATE = "worker paused: it started after a value was typed (no_submit)"


class _Target:
    """One attached target (a worker or a frame) reached through its parent's session."""

    def __init__(self, guard: WorkerGuard, page: _PageLink, parent: _Target | None, event: dict[str, Any]):
        info = event["targetInfo"]
        self.guard, self.page, self.parent = guard, page, parent
        self.session_id: str = event["sessionId"]
        self.kind: str = info["type"]
        self.url: str = info.get("url", "")
        self.children: dict[str, _Target] = {}
        self.held = False
        self.reported = False

    @property
    def is_worker(self) -> bool:
        return self.kind in WORKER_TYPES

    async def post(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Sends one command to this target and waits for its answer (an error answer raises Error)."""
        ident = next(self.guard.ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.page.pending[ident] = answer
        message = json.dumps({"id": ident, "method": method, "params": params or {}})
        try:
            await self.page.forward(self.parent, self.session_id, message)
            async with asyncio.timeout(ANSWER_TIMEOUT_S):
                reply = await answer
        finally:
            self.page.pending.pop(ident, None)
        if "error" in reply:
            raise Error(f"{method}: {reply['error'].get('message', 'failed')}")
        return reply

    def all(self) -> list[_Target]:
        return [self, *(t for child in self.children.values() for t in child.all())]


class _PageLink:
    """The CDP session of one page and the targets reached through it."""

    def __init__(self, guard: WorkerGuard, cdp: CDPSession) -> None:
        self.guard, self.cdp = guard, cdp
        self.targets: dict[str, _Target] = {}
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        cdp.on("Target.attachedToTarget", lambda event: self.attached(None, event))
        cdp.on("Target.detachedFromTarget", lambda event: self.detached(None, event))
        cdp.on("Target.receivedMessageFromTarget", lambda event: self.received(None, event))

    async def forward(self, parent: _Target | None, session_id: str, message: str) -> None:
        params = {"sessionId": session_id, "message": message}
        if parent is None:
            await self.cdp.send("Target.sendMessageToTarget", params)
        else:  # nested: the parent passes the message on
            await parent.post("Target.sendMessageToTarget", params)

    def attached(self, parent: _Target | None, event: dict[str, Any]) -> None:
        if event["targetInfo"]["type"] not in FOLLOWED_TYPES:
            return
        target = _Target(self.guard, self, parent, event)
        (parent.children if parent else self.targets)[target.session_id] = target
        self.guard.spawn(self.guard.adopt(target))

    def detached(self, parent: _Target | None, event: dict[str, Any]) -> None:
        (parent.children if parent else self.targets).pop(event["sessionId"], None)

    def received(self, parent: _Target | None, event: dict[str, Any]) -> None:
        siblings = parent.children if parent else self.targets
        target = siblings.get(event["sessionId"])
        if target is None:
            return
        message = json.loads(event["message"])
        answer = self.pending.get(message.get("id", -1))
        if answer is not None:
            if not answer.done():
                answer.set_result(message)
            return
        method, params = message.get("method"), message.get("params", {})
        if method == "Target.attachedToTarget":
            self.attached(target, params)
        elif method == "Target.detachedFromTarget":
            self.detached(target, params)
        elif method == "Target.receivedMessageFromTarget":
            self.received(target, params)
        elif method == "Debugger.paused" and target.held:
            self.guard.paused(target)

    def all(self) -> list[_Target]:
        return [t for top in self.targets.values() for t in top.all()]


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
        self._links: list[_PageLink] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self.ids = itertools.count(1)
        self.holding = False
        self.reported = asyncio.Event()  #: set at each report: tests wait on it, never on a timer

    async def watch(self, context: BrowserContext, page: Page) -> None:
        """Follows `page`'s workers from now on (workers it already has are attached too)."""
        try:
            cdp = await context.new_cdp_session(page)
            link = _PageLink(self, cdp)
            self._links.append(link)
            await cdp.send("Target.setAutoAttach", _AUTO_ATTACH)
        except Error:
            return  # the page closed first: it has no workers left to follow

    def watch_later(self, context: BrowserContext, page: Page) -> None:
        """For the context's "page" event, which cannot wait."""
        self.spawn(self.watch(context, page))

    async def adopt(self, target: _Target) -> None:
        with contextlib.suppress(Error, TimeoutError):
            await target.post("Target.setAutoAttach", _AUTO_ATTACH)  # its nested workers
            if target.is_worker and self.holding and self._blocking():
                await self._hold(target)
                self._event(target, LATE)

    async def hold(self) -> None:
        """Pauses every worker before a typed value enters a page; no-op unless no_submit holds."""
        if not self._blocking():
            return
        self.holding = True
        workers = [t for link in self._links for t in link.all() if t.is_worker and not t.held]
        for target in workers:
            with contextlib.suppress(Error, TimeoutError):  # a worker that went away holds nothing
                await self._hold(target)

    async def release(self) -> None:
        """Resumes the held workers: a later step allows submitting."""
        self.holding = False
        for link in self._links:
            for target in link.all():
                if target.held:
                    target.held = False
                    with contextlib.suppress(Error, TimeoutError):
                        await target.post("Debugger.resume")
                        await target.post("Debugger.disable")

    async def _hold(self, target: _Target) -> None:
        target.held = True
        await target.post("Debugger.enable")
        await target.post("Debugger.pause")

    def paused(self, target: _Target) -> None:
        self._event(target, HELD)

    def _event(self, target: _Target, detail: str) -> None:
        if target.reported:
            return
        target.reported = True
        self._report(GuardEvent(kind="submit", detail=detail, url=self._redact(target.url)))
        self.reported.set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Waits until every page seen so far is followed (and its present workers attached)."""
        while pending := [t for t in self._tasks if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


#: Not flat (messages go through Target.sendMessageToTarget, so Playwright's session routing never
#: sees them) and not waiting: Playwright starts each worker itself, and we must not hold it up.
_AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False}
