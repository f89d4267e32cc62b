"""A browser session: owns Playwright, the browser and one context, and installs the guards.

Tabs: every new page (popup, target=_blank, window.open) becomes the active tab; closing the active
tab falls back to the most recent remaining one. Dialogs are answered by policy (dismissed unless
`accept_dialogs`) and recorded. Requests pass through one context route that applies the URL
policy and, with submit blocked, aborts state-changing methods and requests carrying a typed value;
under the task's no_submit it quarantines the page once a value is typed (browser/quarantine.py); and
it holds what would change something until the executor's judge answers (browser/effect_hold.py).
Closing runs no page script (no unload handler reaches the network).
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
    Frame,
    Page,
    Playwright,
    Request,
    Route,
    async_playwright,
)

from browser import local_network
from browser.effect_hold import EffectHold, SentRequest
from browser.events import DialogEvent, GuardEvent
from browser.hop_guard import watch_hops
from browser.launch import launch
from browser.models import PageCapture
from browser.network_policy import PrivateNetworkGuard
from browser.options import BrowserPolicy, LaunchOptions
from browser.quarantine import NO_WEBRTC, REFUSED, Quarantine, silence
from browser.request_guard import TypedValues, measuring
from browser.scratch import new_scratch
from browser.sent_requests import SentLedger
from browser.socket_guard import SocketGuard
from browser.submit_guard import INIT_SCRIPT, OFF_SCRIPT, is_unsafe_method
from browser.unanswered import Unanswered
from browser.url_policy import UrlPolicy
from browser.worker_guard import WorkerGuard
from common.secrecy import SecretVault

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
        #: Form posts and the like still waiting for the server's answer (browser/unanswered.py).
        self.unanswered = Unanswered(self.vault.redact)
        self.typed = TypedValues()
        self.quarantine = Quarantine()  # no_submit and a typed value: nothing the page sends leaves
        self.sockets = SocketGuard(
            self.typed,
            lambda: self.policy.submit_blocked,
            self.guard_events.append,
            self.vault.redact,
            quarantined=lambda: self.quarantine.on,
        )
        self.workers = WorkerGuard(
            lambda: self.policy.submit_blocked, self.guard_events.append, self.vault.redact
        )
        self.effects = EffectHold()  # requests that would change something wait for the executor's judge
        self.sent = SentLedger(self.vault.redact)  # what actions send, and the site's answers
        self._pages: list[Page] = []
        self._guard_script: AsyncContextManager | None = None
        self._webrtc_off = False
        self.secret_typed = False  # a declared secret was typed in this session
        #: The active tab's last picture written to a file (a research read's), with the state it
        #: shows: the run's final state may be that file instead of a second screenshot.
        self.last_picture: PageCapture | None = None
        self._refused_popups = 0  # refused first documents of tabs a page opened (see _adopt)
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
        if self.policy.no_submit:
            await self._webrtc_offline()
        await self.context.route("**/*", self._route)
        await self._watch_hops()  # redirect hops never pass the route above
        self.context.on("requestfailed", self._on_failed)  # Chromium's own check (local_network.py)
        self.unanswered.install(self.context)
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
        if policy.no_submit:
            await self._webrtc_offline()
            if self.typed.any:  # a value typed in an earlier step: nothing may leave from now on
                self.quarantine.start()
        if not policy.submit_blocked and not self.quarantine.on:
            await self.workers.release()
        elif self.typed.any:  # values typed in an earlier step must not leave through a worker now
            await self.workers.hold()

    async def typed_in(self, value: str, *, secret: bool = False) -> None:
        """A personal value (not a search query) is about to enter a page: the guards learn it, and
        under no_submit the page's network is quarantined and its workers held (browser/quarantine.py).
        After a secret, no page picture goes to a model (browser/thumbnail.py)."""
        self.secret_typed = self.secret_typed or secret
        self.typed.add(value)
        if self.policy.no_submit:
            self.quarantine.start()
        await self.workers.hold()

    async def _webrtc_offline(self) -> None:
        if not self._webrtc_off:
            self._webrtc_off = True
            await self.context.add_init_script(NO_WEBRTC)
            await self._in_frames(f"() => {NO_WEBRTC.strip().rstrip(';')}")

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
        if self._refused_popups and page.url.startswith("chrome-error:"):
            # A tab a page opened whose first document was refused: Playwright announces it once it
            # shows the refusal. Kept, it would become the active tab and hide its opener: closed.
            self._refused_popups -= 1
            self.workers.spawn(_close_quietly(page))
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
        kind: Literal["url", "submit", "effect", "quarantine"] = "url"
        if reason is None and self.policy.submit_blocked and is_unsafe_method(request.method):
            reason = f"{request.method} blocked: no form submission leaves the page (no_submit)"
            kind = "submit"
        if reason is None and self.policy.submit_blocked:
            referer = request.headers.get("referer")
            where = self.typed.carried_by(request.url, request.post_data_buffer, referer)
            if where is not None:
                reason = (
                    f"{request.resource_type} request blocked: its {where} carries a typed value (no_submit)"
                )
                kind = "submit"
        navigation = request.is_navigation_request()
        if reason is None and not measuring(request.url) and self.quarantine.refuses(request.url, navigation):
            reason, kind = f"{request.resource_type} {REFUSED}", "quarantine"
        if reason is None and not measuring(request.url) and self.effects.holds(request.method, request.url):
            sent = SentRequest(request.method, request.url, request.resource_type, navigation)
            reason = await self.effects.verdict(sent)  # held here, before it leaves, until judged
            kind = "effect"
        try:
            if reason is None:
                self.network.passed(request.url, navigation=navigation)
                await route.continue_()
                return
            redact = self.vault.redact
            event = GuardEvent(
                kind=kind,
                detail=redact(reason),
                url=redact(request.url),
                navigation=navigation,
            )
            self.guard_events.append(event)
            await route.abort("blockedbyclient")
            if kind != "url" and navigation and _frame_of(request) is None:
                self._refused_popups += 1  # a tab the page is opening: closed when announced (_adopt)
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
        with contextlib.suppress(Error):  # no page script runs while its page closes (quarantine.py)
            await silence(self.context, self._pages)
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


def _frame_of(request: Request) -> Frame | None:
    """The request's frame; None for the first document of a tab a page is opening (no frame yet)."""
    try:
        return request.frame
    except Error:
        return None


async def _close_quietly(page: Page) -> None:
    with contextlib.suppress(Error):
        await page.close()


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
