"""The worker guard's cost: what following every page's workers adds to opening a session, and what
pausing them adds to the first typed value.

On one shared Chromium, interleaved rounds of two ways: the session as shipped, and the same session
with the worker guard switched off (`WorkerGuard.watch` made a no-op, as before the guard). Measured
per round: opening a session (context, first page, guards installed), loading the fixture page
whose dedicated worker holds a WebSocket, and the first fill under no_submit (which pauses that
worker). Prints the median of each in ms and the ratio guard/no guard.
Run: .venv/bin/python -m benchmarks.worker_guard [--rounds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, async_playwright

from browser.discovery import find_chromium
from browser.driver import PlaywrightDriver
from browser.launch import chromium_args
from browser.models import FillAction, NavigateAction, Target
from browser.options import BrowserPolicy
from browser.worker_guard import WorkerGuard
from tests.support.site import FixtureSite
from tests.support.ws_server import SocketServer

STAGES = ("open", "load", "first fill")


async def _timed(work: Callable[[], Awaitable[Any]]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = await work()
    return result, (time.perf_counter() - started) * 1000


async def _round(browser: Browser, url: str, sockets: SocketServer) -> list[float]:
    policy = BrowserPolicy(no_submit=True)
    driver, opened = await _timed(lambda: PlaywrightDriver.on_browser(browser, policy=policy))
    try:
        before = len(sockets.messages)
        _, loaded = await _timed(lambda: driver.perform(NavigateAction(url=url)))
        await asyncio.to_thread(sockets.wait_for, before + 1)  # the worker's socket is open
        fill = FillAction(target=Target(label="Email"), value="ada.lovelace.7731@example.org")
        _, filled = await _timed(lambda: driver.perform(fill))
    finally:
        await driver.close()
    return [opened, loaded, filled]


async def main(rounds: int) -> None:
    watch = WorkerGuard.watch

    async def no_watch(self: WorkerGuard, context: BrowserContext, page: Page) -> None:
        return None

    times: dict[str, list[list[float]]] = {"guard": [], "no guard": []}
    with FixtureSite() as site, SocketServer() as sockets:
        url = site.url(f"/hostile/worker_socket.html?worker=url&ws={sockets.url}")
        async with async_playwright() as pw:
            exe = find_chromium(bundled=pw.chromium.executable_path)
            browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=chromium_args())
            for r in range(rounds + 1):  # round 0 warms up and is dropped
                for way in ["guard", "no guard"] if r % 2 else ["no guard", "guard"]:
                    WorkerGuard.watch = watch if way == "guard" else no_watch  # type: ignore[method-assign]
                    figures = await _round(browser, url, sockets)
                    if r:
                        times[way].append(figures)
            WorkerGuard.watch = watch  # type: ignore[method-assign]
            await browser.close()
    print(f"worker guard, {rounds} interleaved rounds (medians, ms)")
    for i, stage in enumerate(STAGES):
        guard = statistics.median(t[i] for t in times["guard"])
        bare = statistics.median(t[i] for t in times["no guard"])
        print(f"  {stage:<10} guard {guard:7.1f}   no guard {bare:7.1f}   ratio {guard / bare:5.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    asyncio.run(main(parser.parse_args().rounds))
