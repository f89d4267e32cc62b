"""The browser boundary the executor talks to: a Protocol, and its Playwright implementation.

Only data crosses it (browser/models.py); the executor never sees a Playwright type, and tests
can stand a scripted fake in for PlaywrightDriver.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Protocol, runtime_checkable

from playwright.async_api import Browser

from browser.actions import perform
from browser.capture import capture
from browser.dom_hash import dom_hash
from browser.models import (
    Action,
    ActionOutcome,
    BrowserPolicy,
    DialogEvent,
    GuardEvent,
    LaunchOptions,
    Observation,
    PageCapture,
)
from browser.observe import DEFAULT_MAX_CHARS, observe
from browser.page_source import FetchedBody, PageHtml, current_page, fetch_body, load_page
from browser.secrets import SecretVault
from browser.session import BrowserSession


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


class PlaywrightDriver:
    """BrowserDriver over a BrowserSession; `async with await PlaywrightDriver.launch(...)`."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session

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

    async def perform(self, action: Action) -> ActionOutcome:
        return await perform(self.session, action)

    async def observe(self, max_chars: int = DEFAULT_MAX_CHARS) -> Observation:
        return await observe(self.session.page, max_chars, self.session.vault.redact)

    async def capture(self, *, screenshot: bool = True, path: Path | None = None) -> PageCapture:
        return await capture(
            self.session.page, with_screenshot=screenshot, path=path, redact=self.session.vault.redact
        )

    async def dom_hash(self) -> str:
        return await dom_hash(self.session.page)

    async def set_policy(self, policy: BrowserPolicy) -> None:
        await self.session.set_policy(policy)

    @property
    def policy(self) -> BrowserPolicy:
        return self.session.policy

    async def load_page(
        self, url: str, *, new_tab: bool = False, timeout_ms: float | None = None
    ) -> PageHtml:
        """PageSource (browser/page_source.py): the rendered HTML of `url`, for research tools."""
        return await load_page(self.session, url, new_tab=new_tab, timeout_ms=timeout_ms)

    async def fetch_body(self, url: str, *, timeout_ms: float | None = None) -> FetchedBody:
        """PageSource: the bytes behind `url` (a PDF, say), fetched under the URL policy."""
        return await fetch_body(self.session, url, timeout_ms=timeout_ms)

    async def current_page(self) -> PageHtml:
        """PageSource: the active tab's HTML as it is now, without navigating."""
        return await current_page(self.session)

    @property
    def url(self) -> str:
        return self.session.page.url

    @property
    def dialogs(self) -> list[DialogEvent]:
        return self.session.dialogs

    @property
    def guard_events(self) -> list[GuardEvent]:
        return self.session.guard_events

    async def close(self) -> None:
        await self.session.close()

    async def __aenter__(self) -> PlaywrightDriver:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
