"""RunResources: what the tools of one run share, opened on first use and closed when the run ends.

One browser per run (so OPEN_URL and the ACT after it act on the same page), one receipts recorder
per run folder, and the run's declared secrets, which only the browser driver resolves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from browser.driver import BrowserDriver, PlaywrightDriver
from browser.models import BrowserPolicy, LaunchOptions
from browser.secrets import SecretVault
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor

DriverFactory = Callable[["RunResources"], Awaitable[BrowserDriver]]


async def launch_playwright(resources: RunResources) -> BrowserDriver:
    return await PlaywrightDriver.launch(
        resources.launch_options,
        policy=resources.policy,
        secrets=resources.vault,
        downloads_dir=resources.run_dir / "downloads",
    )


#: Seconds the final screenshot may take when a run ends (a stopped run gets less, see conductor).
FINAL_CAPTURE_S = 10.0
#: A run stopped by a person: its final picture may not delay the stop.
STOPPED_CAPTURE_S = 0.5


class RunResources:
    def __init__(
        self,
        *,
        run_id: str,
        run_dir: Path,
        launch_options: LaunchOptions | None = None,
        policy: BrowserPolicy | None = None,
        secrets: Mapping[str, str] | None = None,
        driver_factory: DriverFactory = launch_playwright,
        fsync: bool = True,
    ) -> None:
        self.run_id = run_id
        self.run_dir = run_dir
        self.launch_options = launch_options or LaunchOptions()
        self.policy = policy or BrowserPolicy()
        self.vault = SecretVault(dict(secrets or {}))
        # one source of values: the receipts redactor knows what the vault holds, no more, no less
        self.redactor = Redactor(self.vault.values())
        self._driver_factory = driver_factory
        self._fsync = fsync
        self._driver: BrowserDriver | None = None
        self._recorder: JsonlRecorder | None = None
        self._lock = asyncio.Lock()

    @property
    def browser_started(self) -> bool:
        return self._driver is not None

    async def driver(self) -> BrowserDriver:
        """The run's browser, launched on first use (a pure research run may never need one)."""
        async with self._lock:
            if self._driver is None:
                self._driver = await self._driver_factory(self)
            return self._driver

    async def recorder(self) -> JsonlRecorder:
        """The run folder's recorder; a resumed run continues the same hash chain."""
        async with self._lock:
            if self._recorder is None:
                self._recorder = await JsonlRecorder.open(
                    RunFolder(self.run_dir), redactor=self.redactor, fsync=self._fsync
                )
            return self._recorder

    async def close(
        self, status: str, reason: str, meta: Mapping[str, Any], *, capture_within_s: float = FINAL_CAPTURE_S
    ) -> None:
        """Writes run.json and the run-end record, then closes the browser. Always leaves a run folder.

        The final picture has a deadline: a page still loading (or a hung renderer) can hold a
        screenshot for as long as its server likes, and a stopped run must end now. Without it the
        run-end record says no final state was captured.
        """
        recorder = await self.recorder()
        final_state = None
        driver, self._driver = self._driver, None
        try:
            if driver is not None:
                try:
                    async with asyncio.timeout(capture_within_s):
                        final_state = await driver.capture(screenshot=True)
                except TimeoutError:
                    final_state = None
            await recorder.write_run_meta(meta)
            await recorder.finish(status, reason=reason, final_state=final_state)
        finally:
            self._recorder = None
            if driver is not None:
                await driver.close()


ResourcesFactory = Callable[[str, Path], RunResources]
