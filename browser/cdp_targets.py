"""The workers and frames behind one page, reached over the DevTools protocol without the flat mode.

Playwright attaches to a page's workers itself (flat sessions it routes by id) and offers no handle on
them. A CDP session of our own on the page (`context.new_cdp_session(page)`) can auto-attach too; with
`flatten: false` each attached target is addressed by Target.sendMessageToTarget and answers as
Target.receivedMessageFromTarget events on that same session, so Playwright's routing never sees
them. Nested targets (a worker's worker, an out-of-process frame's worker) are reached the same way,
one level at a time. Shared workers are not auto-attached to any page: they are found by target
discovery, filtered to the page's browser context, and attached on request.

Discovery also announces a dedicated worker the moment the browser creates it, before its script is
requested (measured), while auto-attach reports it only once Playwright has started it. When the
owner asks (`early()`), such a worker is attached at once: commands sent to it then wait in the
browser and reach the worker before its script runs.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Coroutine
from typing import Any

from playwright.async_api import CDPSession, Error

#: Target types whose script can open a socket, and the frames whose workers must be followed.
WORKER_TYPES = frozenset({"worker", "shared_worker"})
FOLLOWED_TYPES = WORKER_TYPES | {"iframe"}

#: A target that does not answer in this time is gone (its page navigated or closed).
ANSWER_TIMEOUT_S = 5.0

#: Not flat, and not waiting: Playwright starts each worker itself, which must not be held up.
AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": False}

_DISCOVER = {"discover": True, "filter": [{"type": "worker"}, {"type": "shared_worker"}]}

_ids = itertools.count(1)


class CdpTarget:
    """One attached worker or frame; `post` sends it a command through its parent."""

    def __init__(self, link: PageLink, parent: CdpTarget | None, event: dict[str, Any]) -> None:
        info = event["targetInfo"]
        self.link, self.parent = link, parent
        self.session_id: str = event["sessionId"]
        self.target_id: str = info["targetId"]
        self.kind: str = info["type"]
        self.url: str = info.get("url", "")
        self.early = self.target_id in link.early  # attached by discovery, before its script
        self.children: dict[str, CdpTarget] = {}
        self.held = False  # set by the worker guard
        self.late = False  # attached while workers were held

    @property
    def is_worker(self) -> bool:
        return self.kind in WORKER_TYPES

    async def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        """Sends one command without waiting for its answer (a worker not started yet answers later)."""
        ident = next(_ids)
        message = json.dumps({"id": ident, "method": method, "params": params or {}})
        await self.link.forward(self.parent, self.session_id, message)
        return ident

    async def post(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Sends one command and waits for its answer; an error answer or no answer raises Error."""
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        ident = next(_ids)
        self.link.pending[ident] = answer
        message = json.dumps({"id": ident, "method": method, "params": params or {}})
        try:
            await self.link.forward(self.parent, self.session_id, message)
            async with asyncio.timeout(ANSWER_TIMEOUT_S):
                reply = await answer
        except TimeoutError:
            raise Error(f"{method}: no answer from the {self.kind}") from None
        finally:
            self.link.pending.pop(ident, None)
        if "error" in reply:
            raise Error(f"{method}: {reply['error'].get('message', 'failed')}")
        return reply

    def all(self) -> list[CdpTarget]:
        return [self, *(t for child in self.children.values() for t in child.all())]


class PageLink:
    """Our CDP session on one page and every target reached through it.

    For each new target the owner's `on_attach(target)` coroutine runs as a task the owner's `spawn`
    keeps; `on_paused(target, event)` is called when a target's debugger pauses; `early()` says
    whether a newly created dedicated worker must be attached before it starts.
    """

    def __init__(
        self,
        cdp: CDPSession,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        on_attach: Callable[[CdpTarget], Coroutine[Any, Any, None]],
        on_paused: Callable[[CdpTarget], None],
        early: Callable[[], bool],
        shared: set[str],
    ) -> None:
        self.cdp = cdp
        self.targets: dict[str, CdpTarget] = {}
        self.pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.early: set[str] = set()  # dedicated workers attached by discovery
        self._spawn, self._on_attach, self._on_paused, self._want_early = spawn, on_attach, on_paused, early
        self._shared = shared  # shared worker target ids followed by any page of the context
        self._context_id = ""
        self._page_id = ""
        cdp.on("Target.attachedToTarget", lambda event: self.attached(None, event))
        cdp.on("Target.detachedFromTarget", lambda event: self.detached(None, event))
        cdp.on("Target.receivedMessageFromTarget", lambda event: self.received(None, event))
        cdp.on("Target.targetCreated", self._created)

    async def start(self) -> None:
        """Attaches to the page's workers and frames, now and later, and finds shared workers."""
        info = (await self.cdp.send("Target.getTargetInfo"))["targetInfo"]
        self._context_id, self._page_id = info.get("browserContextId", ""), info["targetId"]
        await self.cdp.send("Target.setAutoAttach", AUTO_ATTACH)
        await self.cdp.send("Target.setDiscoverTargets", _DISCOVER)

    def _created(self, event: dict[str, Any]) -> None:
        info = event["targetInfo"]
        if info.get("browserContextId") != self._context_id:
            return
        target_id = info["targetId"]
        if info["type"] == "shared_worker" and target_id not in self._shared:
            self._shared.add(target_id)  # followed through this page only
            self._spawn(self._attach(target_id))
        elif info["type"] == "worker" and self._is_ours(info.get("parentId")) and self._want_early():
            self.early.add(target_id)
            self._spawn(self._attach(target_id))

    def _is_ours(self, parent_id: str | None) -> bool:
        """A worker started by this page (other pages' links attach their own)."""
        return parent_id == self._page_id

    async def _attach(self, target_id: str) -> None:
        try:  # answered by Target.attachedToTarget on this session
            await self.cdp.send("Target.attachToTarget", {"targetId": target_id, "flatten": False})
        except Error:
            self._shared.discard(target_id)  # it ended first
            self.early.discard(target_id)

    async def forward(self, parent: CdpTarget | None, session_id: str, message: str) -> None:
        params = {"sessionId": session_id, "message": message}
        if parent is None:
            await self.cdp.send("Target.sendMessageToTarget", params)
        else:  # nested: the parent passes it on
            await parent.send("Target.sendMessageToTarget", params)

    def attached(self, parent: CdpTarget | None, event: dict[str, Any]) -> None:
        if event["targetInfo"]["type"] not in FOLLOWED_TYPES:
            return
        target = CdpTarget(self, parent, event)
        (parent.children if parent else self.targets)[target.session_id] = target
        self._spawn(self._on_attach(target))

    def detached(self, parent: CdpTarget | None, event: dict[str, Any]) -> None:
        gone = (parent.children if parent else self.targets).pop(event["sessionId"], None)
        if gone is not None:
            self._shared.discard(gone.target_id)

    def received(self, parent: CdpTarget | None, event: dict[str, Any]) -> None:
        target = (parent.children if parent else self.targets).get(event["sessionId"])
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
        elif method == "Debugger.paused":
            self._on_paused(target)

    def all(self) -> list[CdpTarget]:
        return [t for top in self.targets.values() for t in top.all()]
