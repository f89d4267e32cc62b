"""RunResources: what the tools of one run share, opened on first use and closed when the run ends.

One browser per run (so OPEN_URL and the ACT after it act on the same page), one receipts recorder
per run folder, and the run's declared secrets, which only the browser driver resolves.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from browser.deadline import BrowserLost, BrowserUnresponsive
from browser.driver import BrowserDriver, PictureAware, PlaywrightDriver
from browser.models import PageCapture
from browser.options import BrowserPolicy, LaunchOptions
from common.moments import reached
from common.secrecy import SecretVault
from executor.journal.observability import log
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor
from receipts.signing import KeySource

FINAL_CAPTURE_S = 3.0


def _set_wall(driver: object, wall: float | None) -> None:
    """Gives a driver whose calls stop at a wall (PlaywrightDriver; fakes need not) its wall."""
    setter = getattr(driver, "set_wall", None)
    if setter is not None:
        setter(wall)


DriverFactory = Callable[["RunResources"], Awaitable[BrowserDriver]]


async def launch_playwright(resources: RunResources) -> BrowserDriver:
    return await PlaywrightDriver.launch(
        resources.launch_options,
        policy=resources.policy,
        secrets=resources.vault,
        downloads_dir=resources.run_dir / "downloads",
    )


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
        signer: KeySource | None = None,
        trace: bool = False,
    ) -> None:
        self.run_id = run_id
        self.trace = trace  # record a Playwright trace into the run folder (browser/tracing.py)
        self.signer = signer  # signs the run's receipts at its end (receipts/signing.py)
        self.run_dir = run_dir
        self.launch_options = launch_options or LaunchOptions()
        self.policy = policy or BrowserPolicy()
        self.vault = SecretVault(dict(secrets or {}))
        # one redactor: the receipts' shares the vault's values, and a sensitive value it hides joins them
        self.redactor = Redactor(self.vault.values(), matcher=self.vault.redactor)
        self._driver_factory = driver_factory
        self._fsync = fsync
        self._driver: BrowserDriver | None = None
        self._recorder: JsonlRecorder | None = None
        #: Opening the recorder takes the run folder's lock on a worker thread; a cancelled caller
        #: must not leave that thread's lock behind (the run's own close would find it taken).
        self._opening: asyncio.Task[JsonlRecorder] | None = None
        self._lock = asyncio.Lock()
        self._wall: float | None = None

    def set_wall(self, wall: float | None) -> None:
        """No browser call may run past `wall` (time.monotonic()): the run's time budget."""
        self._wall = wall
        _set_wall(self._driver, wall)

    def extend_wall(self, seconds: float) -> None:
        """Moves the wall later: time a person spent deciding is not the run's time."""
        if self._wall is not None:
            self.set_wall(self._wall + seconds)

    @property
    def browser_started(self) -> bool:
        return self._driver is not None

    async def driver(self) -> BrowserDriver:
        """The run's browser, launched on first use (a pure research run may never need one)."""
        async with self._lock:
            if self._driver is None:
                self._driver = await self._driver_factory(self)
                _set_wall(self._driver, self._wall)
                reached("browser.started")
                if self.trace:
                    await _start_trace(self._driver)
            return self._driver

    async def recorder(self) -> JsonlRecorder:
        """The run folder's recorder; a resumed run continues the same hash chain.

        The opening runs as a task of its own, shielded: a caller cancelled while it runs (a signal)
        leaves it to finish, and the next caller (the run's close) gets that same recorder instead
        of opening the folder a second time and finding its own lock taken."""
        async with self._lock:
            if self._recorder is None:
                if self._opening is None:
                    self._opening = asyncio.ensure_future(self._open_recorder())
                try:
                    self._recorder = await asyncio.shield(self._opening)
                finally:
                    if self._opening.done() and (self._opening.cancelled() or self._opening.exception()):
                        self._opening = None  # a failed opening is tried again by the next caller
            return self._recorder

    async def _open_recorder(self) -> JsonlRecorder:
        folder = RunFolder(self.run_dir)
        return await JsonlRecorder.open(folder, redactor=self.redactor, fsync=self._fsync, signer=self.signer)

    async def close(
        self, status: str, reason: str, meta: Mapping[str, Any], *, capture_within_s: float = FINAL_CAPTURE_S
    ) -> None:
        """Writes run.json and the run-end record, then closes the browser. Always leaves a run folder.

        The final picture has a deadline: a page still loading (or a hung renderer) can hold a
        screenshot for as long as its server likes, and a stopped run must end now. Without it the
        run-end record says no final state was captured.
        """
        recorder = await self.recorder()
        final_state, shown = None, None
        driver, self._driver = self._driver, None
        try:
            if driver is not None:
                final_state, shown = await _final_capture(driver, recorder, capture_within_s)
                if self.trace:
                    await _save_trace(driver, recorder)
            await recorder.write_run_meta(meta)
            await recorder.finish(status, reason=reason, final_state=final_state, final_shot=shown)
        finally:
            self._recorder = self._opening = None
            if driver is not None:
                await driver.close()


async def _start_trace(driver: BrowserDriver) -> None:
    """Starts a trace on a driver that records them (PlaywrightDriver; fakes need not)."""
    start = getattr(driver, "start_trace", None)
    if start is not None:
        await start()


async def _save_trace(driver: BrowserDriver, recorder: JsonlRecorder) -> None:
    """trace.zip before the receipts are signed (the signature names it); a trace not kept is a note."""
    save = getattr(driver, "save_trace", None)
    if save is None:
        return
    try:
        outcome = await save(recorder.folder.trace)
    except (BrowserUnresponsive, BrowserLost) as exc:
        await recorder.record_note(f"no trace: the browser did not answer ({exc})", level="warning")
        return
    if outcome.why:
        await recorder.record_note(outcome.why, level="warning")


async def _final_capture(
    driver: BrowserDriver, recorder: JsonlRecorder, within_s: float
) -> tuple[PageCapture | None, Path | None]:
    """The page's last state, if it answers within `within_s` (a stuck, dead or still-loading page
    must not hold the run open: the run ends without it), and the picture of it the run folder
    already holds (the last action's after-shot, or the last read's picture) when the state is the
    same picture (URL, DOM hash and view): then Chromium takes no second screenshot of it."""
    _set_wall(driver, time.monotonic() + within_s)
    try:
        state = await driver.capture(screenshot=False)
        shown = recorder.recorded_shot(state) or _read_picture(driver, state)
        if shown is not None:
            return state, shown
        return await driver.capture(screenshot=True), None
    except (BrowserUnresponsive, BrowserLost) as exc:
        log.warning("no final capture", extra={"error": str(exc)})
        return None, None


def _read_picture(driver: BrowserDriver, state: PageCapture) -> Path | None:
    """The last read's picture of the active tab, when it shows `state` (same URL, DOM hash, view)."""
    last = driver.last_picture if isinstance(driver, PictureAware) else None
    if last is None or last.screenshot_path is None or state.view is None:
        return None
    same = (last.url, last.dom_hash, last.view) == (state.url, state.dom_hash, state.view)
    path = Path(last.screenshot_path)
    return path if same and path.is_file() else None


ResourcesFactory = Callable[[str, Path], RunResources]
