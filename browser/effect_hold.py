"""A click is judged by what follows it too: the requests a page sends that would change something
are held in the session's route until the executor has judged them.

Judging a click by its element (browser/click_facts.py) cannot see what its script does: a
`type=button` "Continue" whose handler runs `fetch('/account/delete', {method: 'POST'})` looks
harmless. So while the executor has a judge installed, every request the judge says concerns it
(a POST/PUT/PATCH/DELETE, or a GET whose path reads as delete or pay: the executor decides, in
executor/act/aftermath.py) waits in the route, before it leaves the browser, for the judge's verdict:
None lets it go, a sentence refuses it (the route aborts it and records a guard event of kind
`effect`). `settled()` lets an action wait until every request held so far is judged, so a
refusal is reported with the action that caused it. See docs/architecture.md ("Risk by effect").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SentRequest:
    """A request a page sent, as the judge sees it (never its body: it may carry a typed value)."""

    method: str
    url: str
    resource_type: str
    navigation: bool


#: Whether a request (method, URL) is one the judge must see before it leaves.
Concerns = Callable[[str, str], bool]
#: The verdict on a held request: None lets it go, a sentence refuses it.
EffectJudge = Callable[[SentRequest], Awaitable[str | None]]


class EffectHold:
    """The session's hold; the executor installs a judge for the run (PlaywrightDriver.hold_effects)."""

    def __init__(self) -> None:
        self._concerns: Concerns | None = None
        self._judge: EffectJudge | None = None
        self._open = 0
        self._quiet = asyncio.Condition()

    def install(self, concerns: Concerns | None, judge: EffectJudge | None) -> None:
        """From now on, requests `concerns` names wait for `judge`; (None, None) lets all go."""
        self._concerns, self._judge = concerns, judge

    def holds(self, method: str, url: str) -> bool:
        return self._concerns is not None and self._judge is not None and self._concerns(method, url)

    async def verdict(self, request: SentRequest) -> str | None:
        """Waits for the judge (a person may be asked meanwhile); the request waits in the route."""
        judge = self._judge
        if judge is None:
            return None
        self._open += 1
        try:
            return await judge(request)
        finally:
            self._open -= 1
            async with self._quiet:
                self._quiet.notify_all()

    async def settled(self) -> None:
        """Returns once every request held so far has its verdict."""
        async with self._quiet:
            await self._quiet.wait_for(lambda: self._open == 0)
