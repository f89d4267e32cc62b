"""Batch throughput and memory: cases per minute at 1, 2, 4 and 8 workers on the fixture site (every
page answers after a 1.5 s delay), against one and two local Playwright servers (run-server on
127.0.0.1, browsers from the system Chromium), and the waypost process's memory per concurrent run.

Run: .venv/bin/python -m benchmarks.batch [--cases 8] [--repeat 3] [--delay 1.5] [--browser-per-run]
Figures, not pass/fail: medians over the rounds (each round measures every configuration once).
"bare Playwright" is the machine's own ceiling: the same page opened in a fresh context on the same
server with nothing of Waypost's (no plan, guards, capture or receipts), so a speed-up that stays
short of linear can be told apart as Chromium's CPU on this machine or Waypost's overhead.
Memory is this process's resident set (browsers excluded; the one Playwright client driver the
batch shares is a child process, printed apart). "own CPU" is this process's CPU time per case: what
one Waypost process spends to drive a run when the browsers live elsewhere (a grid).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path

from playwright.async_api import async_playwright

from app.settings import load_settings
from app.wiring import build_core, launch_options
from batch.journal import BatchJournal
from batch.pool import EndpointPool
from batch.resources import endpoint_resources
from batch.runner import BatchOptions, BatchRunner
from batch.suite import SuiteCase
from browser.grid import GridClient
from executor.models import ApprovalPolicy
from tests.support.playwright_server import PlaywrightServer, browser_registry
from tests.support.site import FixtureSite

WORKERS = (1, 2, 4, 8)
BARE = "bare Playwright, one server"
MB = 1024 * 1024


def rss(pid: int | str = "self") -> int:
    """Resident set size in bytes (0 for a process that already ended)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0


def child_drivers() -> list[int]:
    """PIDs of the Playwright client drivers this process started (one, shared by the batch's runs)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmd:
                line = cmd.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and b"run-driver" in line:
            found.append(int(entry))
    return found


class Peak:
    """Samples memory while a batch runs (a benchmark may sample; tests never do)."""

    def __init__(self) -> None:
        self.own = 0
        self.drivers = 0
        self.concurrent = 0
        self.cpu = 0.0  # this process's CPU seconds over the batch (the fixture site's threads too)

    async def watch(self, pool: EndpointPool) -> None:
        """Every 0.1 s. The walk over /proc that finds the driver runs until it finds it, not at
        every sample: on 2 cores the sampler's own CPU would otherwise slow the batch it measures."""
        drivers: list[int] = []
        while True:
            drivers = drivers or child_drivers()
            self.own = max(self.own, rss())
            self.drivers = max(self.drivers, sum(rss(pid) for pid in drivers))
            self.concurrent = max(self.concurrent, sum(slot.active for slot in pool.slots))
            await asyncio.sleep(0.1)


async def one_batch(
    runs_dir: Path, site: FixtureSite, endpoints: list[str], workers: int, cases: int, delay: float
) -> tuple[float, Peak]:
    settings = load_settings(overrides={"runs_dir": runs_dir, "approve": "all", "planner": "rules"})
    core = build_core(settings)
    tag = f"{len(endpoints)}-{workers}-{time.monotonic_ns()}"
    suite = [
        SuiteCase(name=f"case {i}", task=f"Open {site.url(f'/slow?delay={delay}&b={tag}-{i}')} and read it")
        for i in range(cases)
    ]
    per = -(-workers // len(endpoints))
    journal = BatchJournal.create(
        runs_dir, suite, workers=workers, endpoints=endpoints, per_endpoint=per, approve=ApprovalPolicy.ALL
    )
    options = BatchOptions(workers=workers, approve=ApprovalPolicy.ALL, planner="rules")
    pool = EndpointPool(endpoints, per)
    runner = BatchRunner(core, journal, pool, options)
    peak = Peak()
    async with GridClient() as grid, asyncio.TaskGroup() as group:
        core.resources = endpoint_resources(grid, launch_options(settings))
        watcher = group.create_task(peak.watch(pool))
        began, cpu = time.perf_counter(), time.process_time()
        summary = await runner.run()
        seconds = time.perf_counter() - began
        peak.cpu = time.process_time() - cpu
        watcher.cancel()
    if summary.failed:
        raise SystemExit(f"benchmark batch had failures: {[r.reason for r in summary.runs if not r.passed]}")
    return seconds, peak


async def bare_batch(site: FixtureSite, endpoint: str, workers: int, cases: int, delay: float) -> float:
    """Seconds for `cases` pages on one kept browser, `workers` at once: context, load, one
    screenshot, close (what a Waypost case needs of Chromium at the least)."""
    tag = f"bare-{workers}-{time.monotonic_ns()}"
    gate = asyncio.Semaphore(workers)
    async with async_playwright() as pw:
        browser = await pw.chromium.connect(endpoint)

        async def one(i: int) -> None:
            async with gate:
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(site.url(f"/slow?delay={delay}&b={tag}-{i}"))
                await page.screenshot()
                await context.close()

        began = time.perf_counter()
        async with asyncio.TaskGroup() as group:
            for i in range(cases):
                group.create_task(one(i))
        seconds = time.perf_counter() - began
        await browser.close()
    return seconds


Key = tuple[str, int]  # (grid, workers)


def print_table(
    args: argparse.Namespace, times: dict[Key, list[float]], peaks: dict[Key, list[Peak]], baseline: int
) -> None:
    header = f"{'grid':<28} {'workers':>7} {'cases/min':>10} {'seconds':>8} {'range':>11}"
    print(f"{header}  {'own MB/run':>10} {'own CPU s/case':>14}")
    rates = {key: args.cases / statistics.median(spent) * 60 for key, spent in times.items()}
    for (name, workers), spent in times.items():
        spread = f"{min(spent):.1f}-{max(spent):.1f}"
        median = statistics.median(spent)
        line = f"{name:<28} {workers:>7} {rates[(name, workers)]:>10.1f} {median:>8.1f} {spread:>11}"
        runs = peaks.get((name, workers))
        if not runs:  # bare Playwright: no Waypost process to weigh
            print(line)
            continue
        concurrent = max(p.concurrent for p in runs) or 1
        own = statistics.median((p.own - baseline) / concurrent / MB for p in runs)
        drivers = statistics.median(p.drivers / MB for p in runs)
        cpu = statistics.median(p.cpu / args.cases for p in runs)
        shared = f"({concurrent} at once; shared Playwright client {drivers:.0f} MB)"
        print(f"{line}  {own:>10.1f} {cpu:>14.3f}   {shared}")
    for name in dict.fromkeys(name for name, _ in times):
        print(f"{name}: 4 workers are {rates[(name, 4)] / rates[(name, 1)]:.2f}x the speed of 1")


async def measure(args: argparse.Namespace) -> None:
    """Every configuration once per round, and the rounds repeated: a load that drifts on a shared
    machine then slows every configuration alike, not whichever grid happened to be measured last."""
    with tempfile.TemporaryDirectory(prefix="waypost-bench-batch-") as tmp:
        registry = browser_registry(Path(tmp) / "browsers")
        with FixtureSite() as site, PlaywrightServer(registry) as one, PlaywrightServer(registry) as two:
            for server in (one, two):  # imports, and each server's first launch
                await one_batch(Path(tmp) / "runs", site, [server.endpoint], 1, 1, 0)
            baseline = rss()
            kept = GridClient.RUNS_PER_BROWSER
            grids = {
                "one server": ([one.endpoint], kept),
                "two servers": ([one.endpoint, two.endpoint], kept),
            }
            if args.browser_per_run:  # what batches did before a browser served its endpoint's next run
                grids["one server, browser per run"] = ([one.endpoint], 1)
            times: dict[Key, list[float]] = {}
            peaks: dict[Key, list[Peak]] = {}
            load = os.getloadavg()[0]
            for _ in range(args.repeat):
                for name, (endpoints, runs_per_browser) in grids.items():
                    GridClient.RUNS_PER_BROWSER = runs_per_browser
                    for workers in WORKERS:
                        seconds, peak = await one_batch(
                            Path(tmp) / "runs", site, endpoints, workers, args.cases, args.delay
                        )
                        times.setdefault((name, workers), []).append(seconds)
                        peaks.setdefault((name, workers), []).append(peak)
                for workers in WORKERS:
                    seconds = await bare_batch(site, one.endpoint, workers, args.cases, args.delay)
                    times.setdefault((BARE, workers), []).append(seconds)
            print(
                f"{args.cases} cases per batch, pages delayed {args.delay} s, median of {args.repeat} rounds"
            )
            print(f"load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
            print_table(args, times, peaks, baseline)
            print(f"waypost process baseline {baseline / MB:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--delay", type=float, default=1.5)
    parser.add_argument(
        "--browser-per-run",
        action="store_true",
        help="also measure one server with a browser launched per run",
    )
    logging.disable(logging.WARNING)  # runs' own warnings (a slow final capture) are not figures
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
