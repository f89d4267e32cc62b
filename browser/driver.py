"""The browser boundary the executor talks to: a Protocol, and its Playwright implementation.

Only data crosses it (browser/models.py); the executor never sees a Playwright type, and tests
can stand a scripted fake in for PlaywrightDriver.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import Protocol, TypeVar, runtime_checkable

from playwright.async_api import Browser, Error

from browser.actions import perform
from browser.capture import capture
from browser.click_facts import ClickFacts, probe
from browser.deadline import BrowserLost, Deadlines
from browser.dom_hash import dom_hash
from browser.effect_hold import Concerns, EffectJudge
from browser.events import DialogEvent, GuardEvent
from browser.look_ahead import Chooser, Look, look
from browser.models import Action, ActionOutcome, Observation, PageCapture, Target
from browser.observe import DEFAULT_MAX_CHARS, observe
from browser.options import BrowserPolicy, LaunchOptions
from browser.page_source import FetchedBody, PageHtml, current_page, fetch_body, load_page
from browser.session import BrowserSession
from browser.tracing import TraceOutcome, start_trace, stop_trace
from common.secrecy import SecretVault

T = TypeVar("T")
CLOSE_S = 5.0  # closing gets its own few seconds past the run's wall, then the browser is stopped


@runtime_checkable
class BrowserDriver(Protocol):
    """What a run needs from a browser: act, look, take evidence, close."""

    async def perform(self, action: Action) -> ActionOutcome: ...

    async def observe(self, max_chars: int = DEFAULT_MAX_CHARS) -> Observation: ...

    async def capture(self, *, screenshot: bool = True, path: Path | None = None) -> PageCapture: ...

    async def dom_hash(self) -> str: ...

    @property
    def url(self) -> str: ...

    @property
    def dialogs(self) -> list[DialogEvent]: ...

    @property
    def guard_events(self) -> list[GuardEvent]: ...

    async def close(self) -> None: ...


@runtime_checkable
class PolicyAware(Protocol):
    """A driver whose guards can change between steps (PlaywrightDriver; fakes need not be)."""

    async def set_policy(self, policy: BrowserPolicy) -> None: ...


@runtime_checkable
class AnswerAware(Protocol):
    """A driver that knows which form posts (and the like) still wait for the server's answer."""

    def unanswered(self) -> list[str]: ...


@runtime_checkable
class EffectAware(Protocol):
    """A driver that holds the requests a page sends until a judge clears them (browser/effect_hold.py)."""

    def hold_effects(self, concerns: Concerns | None, judge: EffectJudge | None) -> None: ...


@runtime_checkable
class FactsAware(Protocol):
    """A driver that can say what a click would do before it happens (browser/click_facts.py)."""

    async def click_facts(self, target: Target) -> ClickFacts | None: ...


@runtime_checkable
class LookAware(Protocol):
    """A driver that can show a gate what an action will touch (browser/look_ahead.py)."""

    async def look(self, url: str | None, choose: Chooser, path: Path | None) -> Look: ...


@runtime_checkable
class PictureAware(Protocol):
    """A driver that remembers the active tab's last picture written to a file, with its state."""

    @property
    def last_picture(self) -> PageCapture | None: ...


class PlaywrightDriver:
    """BrowserDriver over a BrowserSession; `async with await PlaywrightDriver.launch(...)`."""

    def __init__(self, session: BrowserSession, deadlines: Deadlines | None = None) -> None:
        self.session = session
        self.deadlines = deadlines or Deadlines()

    def set_wall(self, wall: float | None) -> None:
        """No call may run past `wall` (a time.monotonic() instant): the run's time budget."""
        self.deadlines.wall = wall

    @classmethod
    async def launch(
        cls,
        options: LaunchOptions | None = None,
        *,
        policy: BrowserPolicy | None = None,
        secrets: SecretVault | None = None,
        downloads_dir: Path | None = None,
    ) -> PlaywrightDriver:
        session = await BrowserSession.launch(
            options, policy=policy, vault=secrets, downloads_dir=downloads_dir
        )
        return cls(session)

    @classmethod
    async def on_browser(
        cls,
        browser: Browser,
        *,
        policy: BrowserPolicy | None = None,
        secrets: SecretVault | None = None,
        downloads_dir: Path | None = None,
    ) -> PlaywrightDriver:
        session = await BrowserSession.on_browser(
            browser, policy=policy, vault=secrets, downloads_dir=downloads_dir
        )
        return cls(session)

    async def _call(self, what: str, make: Callable[[], Awaitable[T]]) -> T:
        """One browser call under its deadline; a dead browser is BrowserLost, not a Playwright error."""
        if not self.session.alive:
            raise BrowserLost(f"the browser is gone (it closed or crashed) before {what}")
        try:
            return await self.deadlines.within(what, make())
        except (Error, RuntimeError) as exc:
            if not self.session.alive:
                raise BrowserLost(f"the browser went away (closed or crashed) while {what}") from exc
            raise

    async def perform(self, action: Action) -> ActionOutcome:
        return await self._call(f"performing {action.kind}", lambda: perform(self.session, action))

    async def observe(self, max_chars: int = DEFAULT_MAX_CHARS) -> Observation:
        redact = self.session.vault.redact
        return await self._call("reading the page", lambda: observe(self.session.page, max_chars, redact))

    async def capture(self, *, screenshot: bool = True, path: Path | None = None) -> PageCapture:
        redact = self.session.vault.redact
        return await self._call(
            "capturing the page",
            lambda: capture(
                self.session.page,
                with_screenshot=screenshot,
                path=path,
                redact=redact,
                secrets=self.session.vault.redactor.values(),
            ),
        )

    async def dom_hash(self) -> str:
        return await self._call("hashing the page", lambda: dom_hash(self.session.page))

    async def click_facts(self, target: Target) -> ClickFacts | None:
        return await self._call("reading what a click would do", lambda: probe(self.session, target))

    def hold_effects(self, concerns: Concerns | None, judge: EffectJudge | None) -> None:
        self.session.effects.install(concerns, judge)

    async def start_trace(self) -> None:
        """Records a Playwright trace from now on (browser/tracing.py)."""
        with_secrets = bool(self.session.vault.values())
        await self._call(
            "starting the trace", lambda: start_trace(self.session.context, with_secrets=with_secrets)
        )

    async def save_trace(self, path: Path) -> TraceOutcome:
        """Stops the trace and keeps it at `path`, scrubbed of the run's secrets, or says why not."""
        vault = self.session.vault
        secrets = [*vault.values(), *vault.redactor.values()]  # declared, and sensitive ones typed
        return await self._call("saving the trace", lambda: stop_trace(self.session.context, path, secrets))

    async def set_policy(self, policy: BrowserPolicy) -> None:
        await self._call("setting the guards", lambda: self.session.set_policy(policy))

    async def look(self, url: str | None, choose: Chooser, path: Path | None) -> Look:
        """The page a gate asks about (`url` in a tab of its own, else the active tab), with the
        elements of the actions `choose` picks boxed, pictured at `path` (None: not pictured);
        nothing is typed or clicked."""
        vault = self.session.vault
        secrets = vault.redactor.values()
        return await self._call(
            "looking at the page a gate asks about",
            lambda: look(self.session, url, choose, path, redact=vault.redact, secrets=secrets),
        )

    @property
    def policy(self) -> BrowserPolicy:
        return self.session.policy

    def unanswered(self) -> list[str]:
        """`METHOD url` of each request that can change something and has had no answer yet."""
        return self.session.unanswered.waiting()

    async def load_page(
        self, url: str, *, new_tab: bool = False, timeout_ms: float | None = None, picture: Path | None = None
    ) -> PageHtml:
        """PageSource (browser/page_source.py): the rendered HTML of `url`, for research tools."""
        return await self._call(
            f"loading {url}",
            lambda: load_page(self.session, url, new_tab=new_tab, timeout_ms=timeout_ms, picture=picture),
        )

    async def fetch_body(self, url: str, *, timeout_ms: float | None = None) -> FetchedBody:
        """PageSource: the bytes behind `url` (a PDF, say), fetched under the URL policy."""
        return await self._call(
            f"fetching {url}", lambda: fetch_body(self.session, url, timeout_ms=timeout_ms)
        )

    async def current_page(self) -> PageHtml:
        """PageSource: the active tab's HTML as it is now, without navigating."""
        return await self._call("reading the page", lambda: current_page(self.session))

    @property
    def url(self) -> str:
        return self.session.page.url

    @property
    def last_picture(self) -> PageCapture | None:
        """The active tab's last picture in a file (a research read's) and the state it shows."""
        return self.session.last_picture

    @property
    def dialogs(self) -> list[DialogEvent]:
        return self.session.dialogs

    @property
    def guard_events(self) -> list[GuardEvent]:
        return self.session.guard_events

    async def close(self) -> None:
        """Closes the browser within CLOSE_S; a browser that does not go is stopped with its driver."""
        try:
            async with asyncio.timeout(CLOSE_S):
                await self.session.close()
        except TimeoutError:
            await self.session.abandon()

    async def __aenter__(self) -> PlaywrightDriver:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
