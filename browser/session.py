"""A browser session: owns Playwright, the browser and one context, and installs the guards.

Tabs: every new page (popup, target=_blank, window.open) becomes the active tab; closing the active
tab falls back to the most recent remaining one. Dialogs are answered by policy (dismissed unless
`accept_dialogs`) and recorded. Requests pass through one context route that applies the URL
policy and, with submit blocked, aborts state-changing methods.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal, cast

from playwright._impl._async_base import AsyncContextManager
from playwright.async_api import (
    Browser,
    BrowserContext,
    Dialog,
    Error,
    Page,
    Playwright,
    Request,
    Route,
    async_playwright,
)

from browser import local_network
from browser.hop_guard import watch_hops
from browser.launch import launch
from browser.models import BrowserPolicy, DialogEvent, GuardEvent, LaunchOptions
from browser.network_policy import PrivateNetworkGuard
from browser.request_guard import TypedValues
from browser.scratch import new_scratch
from browser.secrets import SecretVault
from browser.sent_requests import SentLedger
from browser.socket_guard import SocketGuard
from browser.submit_guard import INIT_SCRIPT, OFF_SCRIPT, is_unsafe_method
from browser.url_policy import UrlPolicy
from browser.worker_guard import WorkerGuard

DEFAULT_ACTION_TIMEOUT_MS = 5_000
DEFAULT_NAVIGATION_TIMEOUT_MS = 15_000

DialogType = Literal["alert", "confirm", "prompt", "beforeunload"]


class BrowserSession:
    """Use `await BrowserSession.launch(...)` (owns everything) or `on_browser(...)` (owns a context)."""

    def __init__(
        self,
        context: BrowserContext,
        *,
        policy: BrowserPolicy | None = None,
        vault: SecretVault | None = None,
        downloads_dir: Path | None = None,
        playwright: Playwright | None = None,
        browser: Browser | None = None,
        action_timeout_ms: float = DEFAULT_ACTION_TIMEOUT_MS,
        navigation_timeout_ms: float = DEFAULT_NAVIGATION_TIMEOUT_MS,
    ) -> None:
        self.context = context
        self.policy = policy or BrowserPolicy()
        self.vault = vault or SecretVault()
        self.url_policy = UrlPolicy(self.policy.allowed_schemes, self.policy.allowed_domains)
        self.network = PrivateNetworkGuard(allow_private=self.policy.private_network)
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        if downloads_dir is None:
            self._tmp = tempfile.TemporaryDirectory(prefix="waypost-downloads-")
            downloads_dir = Path(self._tmp.name)
        self.downloads_dir = downloads_dir
        self.action_timeout_ms = action_timeout_ms
        self.navigation_timeout_ms = navigation_timeout_ms
        self.dialogs: list[DialogEvent] = []
        self.guard_events: list[GuardEvent] = []
        self.typed = TypedValues()
        self.sockets = SocketGuard(
            self.typed, lambda: self.policy.submit_blocked, self.guard_events.append, self.vault.redact
        )
        self.workers = WorkerGuard(
            lambda: self.policy.submit_blocked, self.guard_events.append, self.vault.redact
        )
        self.sent = SentLedger(self.vault.redact)  # what actions send, and the site's answers
        self._pages: list[Page] = []
        self._guard_script: AsyncContextManager | None = None
        self._playwright = playwright
        self._browser = browser
        self._closed = False
        self._scratch: tempfile.TemporaryDirectory[str] | None = None  # the browser's temp folders
        self._unwatch_hops: Callable[[], None] | None = None  # redirect hops (browser/hop_guard.py)

    # --- construction ------------------------------------------------------------------------

    @classmethod
    async def launch(
        cls,
        options: LaunchOptions | None = None,
        *,
        policy: BrowserPolicy | None = None,
        vault: SecretVault | None = None,
        downloads_dir: Path | None = None,
    ) -> BrowserSession:
        scratch = new_scratch()
        pw = await _start_playwright(scratch.name)
        try:
            private = (policy or BrowserPolicy()).private_network
            launched = await launch(pw, options or LaunchOptions(), private_network=private)
        except BaseException:
            await pw.stop()
            scratch.cleanup()
            raise
        session = cls(
            launched.context,
            policy=policy,
            vault=vault,
            downloads_dir=downloads_dir,
            playwright=pw,
            browser=launched.browser,
        )
        session._scratch = scratch
        await session._install()
        return session

    @classmethod
    async def on_browser(
        cls,
        browser: Browser,
        *,
        policy: BrowserPolicy | None = None,
        vault: SecretVault | None = None,
        downloads_dir: Path | None = None,
    ) -> BrowserSession:
        """A fresh context on a browser someone else owns (tests share one browser this way)."""
        context = await browser.new_context(accept_downloads=True, service_workers="block")
        session = cls(context, policy=policy, vault=vault, downloads_dir=downloads_dir)
        await session._install()
        return session

    async def _install(self) -> None:
        self.context.set_default_timeout(self.action_timeout_ms)
        self.context.set_default_navigation_timeout(self.navigation_timeout_ms)
        if self.policy.submit_blocked:
            self._guard_script = await self.context.add_init_script(INIT_SCRIPT)
        await self.context.route("**/*", self._route)
        await self._watch_hops()  # redirect hops never pass the route above
        self.context.on("requestfailed", self._on_failed)  # Chromium's own check (local_network.py)
        self.sent.install(self.context)
        await self.sockets.install(self.context)  # WebSocket messages never pass the route above
        self.context.on("page", self._adopt)
        for page in self.context.pages:
            self._adopt(page)
        if not self._pages:
            self._adopt(await self.context.new_page())
        await self.workers.settled()  # the first tab's workers are followed before it loads anything

    async def set_policy(self, policy: BrowserPolicy) -> None:
        """Applies another policy to the live session (each ACT step runs under its own gate).

        The route layer reads the policy per request, so URL rules and the POST block change at once;
        the submit script is added to (or turned off in) future documents and every open frame.
        """
        self.policy = policy
        self.url_policy = UrlPolicy(policy.allowed_schemes, policy.allowed_domains)
        self.network.allow_private = policy.private_network
        await self._watch_hops()
        if policy.submit_blocked and self._guard_script is None:
            self._guard_script = await self.context.add_init_script(INIT_SCRIPT)
            await self._in_frames(f"() => {INIT_SCRIPT.strip().rstrip(';')}")
        elif not policy.submit_blocked and self._guard_script is not None:
            guard, self._guard_script = self._guard_script, None
            await guard.close()
            await self._in_frames(OFF_SCRIPT)
        if not policy.submit_blocked:
            await self.workers.release()
        elif self.typed.any:  # values typed in an earlier step must not leave through a worker now
            await self.workers.hold()

    async def _in_frames(self, script: str) -> None:
        for page in self._pages:
            for frame in page.frames:
                with contextlib.suppress(Error):  # a frame navigating away gets the init script anyway
                    await frame.evaluate(script)

    # --- tabs --------------------------------------------------------------------------------

    @property
    def page(self) -> Page:
        """The active tab."""
        if not self._pages:
            raise RuntimeError("the session has no open tab")
        return self._pages[-1]

    @property
    def alive(self) -> bool:
        """False once the session was closed, its browser disconnected or its last tab went."""
        connected = self._browser is None or self._browser.is_connected()
        return not self._closed and connected and bool(self._pages)

    @property
    def tabs(self) -> list[Page]:
        return list(self._pages)

    async def new_tab(self) -> Page:
        page = await self.context.new_page()
        self._adopt(page)  # usually already adopted by the "page" event; adopting is idempotent
        await self.workers.settled()
        return page

    def switch_to(self, index: int) -> Page:
        page = self._pages.pop(index)
        self._pages.append(page)
        return page

    def _adopt(self, page: Page) -> None:
        if page in self._pages:
            return
        self._pages.append(page)
        self.workers.watch_later(self.context, page)  # workers never pass the routes: see worker_guard
        page.on("dialog", self._on_dialog)
        page.on("close", self._on_close)

    def _on_close(self, page: Page) -> None:
        if page in self._pages:
            self._pages.remove(page)

    # --- guards and dialogs ------------------------------------------------------------------

    async def _route(self, route: Route) -> None:
        if self.workers.holding:  # a new worker's script waits until the worker is paused
            await self.workers.settled()
        request = route.request
        reason = self.url_policy.check(request.url)
        reason = reason or self.network.refusal(request.url, from_url=_source(route))
        kind: Literal["url", "submit"] = "url"
        if reason is None and self.policy.submit_blocked and is_unsafe_method(request.method):
            reason = f"{request.method} blocked: no form submission leaves the page (no_submit)"
            kind = "submit"
        if reason is None and self.policy.submit_blocked:
            where = self.typed.carried_by(request.url, request.post_data_buffer)
            if where is not None:
                reason = (
                    f"{request.resource_type} request blocked: its {where} carries a typed value (no_submit)"
                )
                kind = "submit"
        try:
            if reason is None:
                self.network.passed(request.url, navigation=request.is_navigation_request())
                await route.continue_()
                return
            redact = self.vault.redact
            event = GuardEvent(
                kind=kind,
                detail=redact(reason),
                url=redact(request.url),
                navigation=request.is_navigation_request(),
            )
            self.guard_events.append(event)
            await route.abort("blockedbyclient")
        except Error:
            return  # the page or context closed while the request was in flight

    def _refused(self, reason: str, url: str, navigation: bool) -> None:
        """Records a URL refused outside the route, as the route does: a redirect hop
        (browser/hop_guard.py) or Chromium's own check (browser/local_network.py)."""
        redact = self.vault.redact
        event = GuardEvent(kind="url", detail=redact(reason), url=redact(url), navigation=navigation)
        self.guard_events.append(event)

    async def _watch_hops(self) -> None:
        if self._unwatch_hops is None and not self.network.allow_private:
            self._unwatch_hops = await watch_hops(self.context, self.network, self._refused)

    def _on_failed(self, request: Request) -> None:
        reason = local_network.refusal(request.url, request.failure)
        if reason is not None:
            self._refused(reason, request.url, request.is_navigation_request())

    async def _on_dialog(self, dialog: Dialog) -> None:
        accept = self.policy.accept_dialogs
        self.dialogs.append(
            DialogEvent(
                type=cast(DialogType, dialog.type),
                message=self.vault.redact(dialog.message),
                accepted=accept,
                url=dialog.page.url if dialog.page else "",
            )
        )
        try:
            if accept:
                await dialog.accept(dialog.default_value if dialog.type == "prompt" else None)
            else:
                await dialog.dismiss()
        except Error:
            return  # the page closed with the dialog open

    # --- lifecycle ---------------------------------------------------------------------------

    async def close(self) -> None:
        """Closes what this session owns, in reverse order; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        await self.workers.close()
        with contextlib.suppress(Error):  # already gone with its browser
            await self.context.close()
        if self._browser is not None and self._playwright is not None:
            with contextlib.suppress(Error):
                await self._browser.close()
        if self._playwright is not None:
            await self._playwright.stop()
        self._cleanup()

    async def abandon(self) -> None:
        """Stops Playwright's driver, which takes its browser with it: for a browser that would not
        close (or is already gone). Never raises a Playwright error."""
        self._closed = True
        if self._playwright is not None:
            with contextlib.suppress(Error, TimeoutError):
                async with asyncio.timeout(5):
                    await self._playwright.stop()
        self._cleanup()

    def _unwatch(self) -> None:
        unwatch, self._unwatch_hops = self._unwatch_hops, None
        if unwatch is not None:
            unwatch()

    def _cleanup(self) -> None:
        self._unwatch()
        for folder in (self._tmp, self._scratch):
            if folder is not None:
                folder.cleanup()


def _source(route: Route) -> str:
    """The URL of the page a request comes from (its frame's document), or "" when unknown."""
    try:
        return route.request.frame.url
    except Error:  # a service worker's request has no frame
        return ""


async def _start_playwright(tmpdir: str) -> Playwright:
    """Starts Playwright's driver with TMPDIR=`tmpdir`: the driver and the Chromium it launches keep
    their profile and temp folders there, and the session removes it on close, so a browser that
    crashed or was killed leaves nothing behind in the system temp folder."""
    saved = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = tmpdir
    try:
        return await async_playwright().start()
    finally:
        if saved is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved
