"""Receipts overhead: one 20-action form flow done three ways in the same browser, interleaved.

1. raw Playwright (locator.fill / select_option / check);
2. raw Playwright plus one PNG screenshot per action: the floor for "a picture of every action";
   also shown with the CDP screenshot Waypost itself uses when nothing needs masking, so the
   receipts' own overhead is visible apart from the choice of screenshot call;
3. Waypost: PlaywrightDriver.perform + before/after capture (DOM hash, masked screenshot, the
   previous "after" reused as "before" when the DOM is unchanged) + a hash-chained, fsynced
   ActionRecord per action.
Prints per-flow medians and the ratios to the floor. Goal: Waypost within 1.15x of the floor.
Run: .venv/bin/python -m benchmarks.receipts_overhead [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from playwright.async_api import Page

from app.demo.server import DemoSite
from browser.capture import plain_screenshot
from browser.driver import PlaywrightDriver
from browser.models import Action, parse_action
from browser.options import LaunchOptions
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder

FIELDS = ("Full name", "Email", "Company")


def flow_actions(round_no: int) -> list[Action]:
    """20 actions, each changing the DOM (new values), so no screenshot can be skipped as unchanged."""
    actions: list[Action] = []
    for i in range(4):
        for label in FIELDS:
            actions.append(
                parse_action(
                    {"kind": "fill", "target": {"label": label}, "value": f"{label} r{round_no} v{i}"}
                )
            )
        package = ("Starter", "Pro", "Enterprise")[i % 3]
        actions.append(parse_action({"kind": "select", "target": {"label": "Package"}, "value": package}))
        actions.append(
            parse_action(
                {"kind": "check", "target": {"label": "I accept the terms of use"}, "checked": i % 2 == 0}
            )
        )
    return actions[:20]


async def raw_action(page: Page, action: Action) -> None:
    data = action.model_dump()
    label = data["target"]["label"]
    locator = page.get_by_label(label, exact=True)
    if data["kind"] == "fill":
        await locator.fill(data["value"])
    elif data["kind"] == "select":
        await locator.select_option(data["value"])
    else:
        await locator.set_checked(data["checked"])


async def run_raw(
    driver: PlaywrightDriver, actions: list[Action], *, shots: bool, fast: bool = False
) -> None:
    page = driver.session.page
    for action in actions:
        await raw_action(page, action)
        if shots and fast:
            await plain_screenshot(page)
        elif shots:
            await page.screenshot(type="png")


async def run_waypost(driver: PlaywrightDriver, actions: list[Action], run_dir: Path) -> None:
    async with await JsonlRecorder.open(RunFolder(run_dir)) as recorder:
        for action in actions:
            t0 = time.perf_counter()
            before = await driver.capture(screenshot=False)
            if recorder.needs_before_shot(before.url, before.dom_hash):
                before = await driver.capture(screenshot=True)
            outcome = await driver.perform(action)
            after = await driver.capture(screenshot=True)
            await recorder.record_action(
                action=action,
                outcome=outcome,
                before=before,
                after=after,
                step_id="bench",
                duration_ms=(time.perf_counter() - t0) * 1000,
            )
            assert outcome.ok, outcome.message


async def main(rounds: int) -> None:
    timings: dict[str, list[float]] = {"raw": [], "raw+screenshot": [], "raw+cdp shot": [], "waypost": []}
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp:
        async with await PlaywrightDriver.launch(LaunchOptions()) as driver:
            await driver.perform(parse_action({"kind": "navigate", "url": site.url("/signup.html")}))
            await run_raw(driver, flow_actions(0), shots=True)  # warm-up

            async def timed(name: str, body: Callable[[], Awaitable[None]]) -> None:
                t0 = time.perf_counter()
                await body()
                timings[name].append(time.perf_counter() - t0)

            for r in range(1, rounds + 1):
                acts, run_dir = flow_actions(r), Path(tmp) / f"run_bench_{r}"
                await timed("raw", lambda a=acts: run_raw(driver, a, shots=False))  # type: ignore[misc]
                await timed("raw+screenshot", lambda a=acts: run_raw(driver, a, shots=True))  # type: ignore[misc]
                await timed("raw+cdp shot", lambda a=acts: run_raw(driver, a, shots=True, fast=True))  # type: ignore[misc]
                await timed("waypost", lambda a=acts, d=run_dir: run_waypost(driver, a, d))  # type: ignore[misc]
    floor = statistics.median(timings["raw+screenshot"])
    cdp_floor = statistics.median(timings["raw+cdp shot"])
    print(f"20-action flow, median of {rounds} interleaved rounds")
    for name, values in timings.items():
        med = statistics.median(values)
        per_action = med / 20 * 1000
        print(
            f"  {name:<15} {med * 1000:8.0f} ms  {per_action:6.1f} ms/action  "
            f"x{med / floor:.2f} of floor  x{med / cdp_floor:.2f} of the CDP-screenshot floor"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    asyncio.run(main(parser.parse_args().rounds))
