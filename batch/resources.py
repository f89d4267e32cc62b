"""Each run of a batch gets its browser from the endpoint its worker holds.

The worker sets ENDPOINT (a context variable, so concurrent runs never see each other's) before it
starts or resumes a run; the run's resources read it when the run first needs a browser.

Runs on a grid share one Playwright client (its driver is a process of about 120 MB: one per run
would cost more than the runs); each run still gets a browser connection, and so a browser and a
context, of its own. A run without an endpoint launches its own local Chromium, as `waypost run` does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping
from contextvars import ContextVar
from pathlib import Path
from types import TracebackType

from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from browser.deadline import BrowserLost
from browser.driver import BrowserDriver, PlaywrightDriver
from browser.grid import endpoint_options
from browser.options import LaunchOptions
from executor.run_resources import RunResources, launch_playwright
from executor.service import SecretAwareResources

#: The endpoint URL of the run in this task's context; None launches a local browser.
ENDPOINT: ContextVar[str | None] = ContextVar("waypost_batch_endpoint", default=None)


class GridDriver(PlaywrightDriver):
    """A run's driver on a remote browser: closing the run closes its connection (and so the
    browser the server launched for it), not the Playwright client the batch shares."""

    def __init__(self, driver: PlaywrightDriver, browser: Browser) -> None:
        super().__init__(driver.session, driver.deadlines)
        self._remote = browser

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            with contextlib.suppress(PlaywrightError, TimeoutError):
                async with asyncio.timeout(5):
                    await self._remote.close()


class GridClient:
    """The batch's one Playwright client, started on the first remote run and stopped at the end."""

    def __init__(self) -> None:
        self._pw: Playwright | None = None
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> GridClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._pw is not None:
            pw, self._pw = self._pw, None
            await pw.stop()

    async def _client(self) -> Playwright:
        async with self._lock:
            if self._pw is None:
                self._pw = await async_playwright().start()
            return self._pw

    async def _browser(self, options: LaunchOptions) -> Browser:
        pw = await self._client()
        if options.cdp_url:
            return await pw.chromium.connect_over_cdp(options.cdp_url)
        assert options.ws_endpoint is not None
        return await pw.chromium.connect(options.ws_endpoint, headers=options.ws_headers or None)

    async def driver(self, resources: RunResources) -> BrowserDriver:
        """The run's browser: local, or a connection of its own to its endpoint. An endpoint that
        cannot be reached is a lost browser (the batch moves the run elsewhere), not a traceback."""
        options = resources.launch_options
        where = options.ws_endpoint or options.cdp_url
        if where is None:
            return await launch_playwright(resources)
        try:
            browser = await self._browser(options)
        except PlaywrightError as exc:
            said = exc.message.splitlines()[0] if exc.message else type(exc).__name__
            raise BrowserLost(f"the browser at {where} could not be reached ({said})") from exc
        try:
            base = await PlaywrightDriver.on_browser(
                browser,
                policy=resources.policy,
                secrets=resources.vault,
                downloads_dir=resources.run_dir / "downloads",
            )
        except PlaywrightError as exc:
            with contextlib.suppress(PlaywrightError):
                await browser.close()
            raise BrowserLost(f"the browser at {where} went away while the run was starting") from exc
        return GridDriver(base, browser)

    def resources(self, base: LaunchOptions) -> SecretAwareResources:
        """Run resources whose browser comes from the endpoint of the run's worker."""

        def make(run_id: str, run_dir: Path, secrets: Mapping[str, str]) -> RunResources:
            url = ENDPOINT.get()
            options = endpoint_options(url, base) if url else base
            return RunResources(
                run_id=run_id,
                run_dir=run_dir,
                launch_options=options,
                secrets=secrets,
                driver_factory=self.driver,
            )

        return make
