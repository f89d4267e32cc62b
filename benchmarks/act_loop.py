"""The act loop's speed: actions/s for an explicit 20-action list, and the loop's own overhead.

    .venv/bin/python benchmarks/act_loop.py [--runs 7]

Each run executes one ACT step (navigate + 20 listed actions on the fixture site's form page) through
ActLoop with a real headless Chromium and a real JsonlRecorder (fsync off, as the figures are about
the loop). The time inside the driver (perform, capture, observe, dom_hash) and inside the recorder
is measured by timing wrappers; the loop's own overhead is the rest, per action. Medians printed.
It also times a fill whose field is absent from a loaded, settled page: `not_found` must come back
well under a second, not after the action timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser.driver import PlaywrightDriver
from browser.models import Action, OutcomeStatus, parse_action
from executor.act.loop import ActLoop, LoopSpec
from executor.act.perform import ActEnv
from executor.act.progress import StepProgress
from executor.journal.views import receipts_journal
from receipts.recorder import JsonlRecorder
from tests.support.site import FixtureSite

T = TypeVar("T")
N_ACTIONS = 20


class Timer:
    def __init__(self) -> None:
        self.seconds = 0.0

    async def timed(self, call: Awaitable[T]) -> T:
        started = time.perf_counter()
        try:
            return await call
        finally:
            self.seconds += time.perf_counter() - started


class TimedDriver:
    """Wraps a driver; every awaited call counts as browser time."""

    def __init__(self, inner: PlaywrightDriver, timer: Timer) -> None:
        self.inner, self.timer = inner, timer

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if name in ("perform", "observe", "capture", "dom_hash", "set_policy"):
            method: Callable[..., Awaitable[Any]] = value
            return lambda *a, **k: self.timer.timed(method(*a, **k))
        return value


class TimedRecorder:
    def __init__(self, inner: JsonlRecorder, timer: Timer) -> None:
        self.inner, self.timer = inner, timer

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if name.startswith("record_"):
            method: Callable[..., Awaitable[Any]] = value
            return lambda *a, **k: self.timer.timed(method(*a, **k))
        return value


def actions() -> list[Action]:
    fields = [("Name", "Ada Lovelace"), ("Email", "ada@example.com")]
    out: list[dict[str, Any]] = []
    for n in range(N_ACTIONS):
        label, value = fields[n % 2]
        out.append({"kind": "fill", "target": {"label": label}, "value": f"{value} {n}"})
    return [parse_action(a) for a in out]


async def one_run(driver: PlaywrightDriver, url: str, folder: Path) -> tuple[float, float, float]:
    browser_t, receipts_t = Timer(), Timer()
    recorder = await JsonlRecorder.open(folder, fsync=False)
    timed = TimedRecorder(recorder, receipts_t)
    env = ActEnv(
        driver=TimedDriver(driver, browser_t),
        recorder=timed,
        journal=receipts_journal(folder.name, timed),
        run_id=folder.name,
        step_id="bench",
        run_dir=folder,
    )
    loop = ActLoop(env, LoopSpec(url=url, actions=actions()), gate=None, progress=StepProgress())
    started = time.perf_counter()
    await loop.run()
    total = time.perf_counter() - started
    await recorder.aclose()
    return total, browser_t.seconds, receipts_t.seconds


async def not_found_ms(driver: PlaywrightDriver, url: str, label: str) -> float:
    """One fill of a field absent from a loaded page, from the call to its `not_found` outcome."""
    await driver.perform(parse_action({"kind": "navigate", "url": url}))
    started = time.perf_counter()
    outcome = await driver.perform(parse_action({"kind": "fill", "target": {"label": label}, "value": "x"}))
    assert outcome.status is OutcomeStatus.NOT_FOUND, outcome
    return (time.perf_counter() - started) * 1000


async def main(runs: int) -> None:
    with FixtureSite() as site, tempfile.TemporaryDirectory() as tmp:
        driver = await PlaywrightDriver.launch()
        try:
            await one_run(driver, site.url("/signup.html"), Path(tmp) / "warmup")
            results = [
                await one_run(driver, site.url("/signup.html"), Path(tmp) / f"run{i}") for i in range(runs)
            ]
            absent = [await not_found_ms(driver, site.url("/login.html"), "Nickname") for _ in range(runs)]
            timeout_s = driver.session.action_timeout_ms / 1000
        finally:
            await driver.close()
    performed = N_ACTIONS + 1  # the listed actions plus the start navigation
    totals = [t for t, _, _ in results]
    overhead = [(t - b - r) / performed * 1000 for t, b, r in results]
    browser = [b / performed * 1000 for _, b, _ in results]
    receipts = [r / performed * 1000 for _, _, r in results]
    print(f"act loop, explicit list of {N_ACTIONS} actions (+1 navigate), {runs} runs, medians:")
    print(f"  actions/s                     {performed / statistics.median(totals):8.1f}")
    print(f"  per action, total       (ms)  {statistics.median(totals) / performed * 1000:8.2f}")
    print(f"  per action, browser     (ms)  {statistics.median(browser):8.2f}")
    print(f"  per action, receipts    (ms)  {statistics.median(receipts):8.2f}")
    print(f"  per action, loop itself (ms)  {statistics.median(overhead):8.3f}")
    print(f"absent target on a settled page (fill label=Nickname on login.html), {runs} runs:")
    print(f"  not_found after         (ms)  {statistics.median(absent):8.1f} median, {max(absent):.1f} max"
          f" (action timeout {timeout_s:.0f} s)")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    asyncio.run(main(parser.parse_args().runs))
