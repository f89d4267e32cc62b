"""Batch throughput and memory: cases per minute at 1, 2, 4 and 8 workers on the fixture site (every
page answers after a 1.5 s delay), against one local Playwright server (run-server on 127.0.0.1,
browsers from the system Chromium; `--two-servers` adds a grid of two), and the waypost process's
memory per concurrent run.

Run: .venv/bin/python -m benchmarks.batch [--cases 32] [--repeat 3] [--delay 1.5] [--two-servers]
     [--browser-per-run]
Figures, not pass/fail: medians over the rounds (each round measures every configuration once).
"bare Playwright" is the machine's own ceiling: the same page opened in a fresh context on the same
server with nothing of Waypost's (no plan, guards, capture or receipts) and one screenshot, so a
speed-up that stays short of linear can be told apart as Chromium's CPU on this machine or Waypost's
overhead. "x bare" is Waypost's cases/min over bare's at the same number of workers (the goal is
0.9x or more at 4 and 8; docs/architecture.md, "Batches"). "one server" is Waypost's default
isolation (a browser of its own per run at once); "shared browser" is `--isolation context` (one
browser, a fresh context per run, the shape bare has). "bare, a browser per worker" is the same
bare case with each worker on a browser of its own, as Waypost's runs on a Playwright server are
(isolation): "x apart" over it is Waypost's own work, "x bare" adds what the isolation costs.
Waypost and both bare arms run one after the other at each number of workers, in every round.
"browser CPU" is what the server's browsers spent per case (every Chromium process it launched,
reaped ones included, benchmarks/tree_cpu.py), beside bare's: on a loaded machine wall time measures
the other processes, CPU time measures the work a case asks of Chromium. It is read while the
browsers are still open (a browser that exits first would take its children's time with it), so
it includes launching the browsers a batch connects (bare: one; Waypost: one per worker).
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
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import async_playwright

from app.settings import load_settings
from app.wiring import build_core, launch_options
from batch.journal import BatchJournal
from batch.pool import EndpointPool
from batch.resources import endpoint_resources
from batch.runner import BatchOptions, BatchRunner
from batch.suite import SuiteCase
from benchmarks.tree_cpu import descendants, exited, tree_cpu
from browser.grid import GridClient, Isolation
from executor.gates.approval import ApprovalPolicy
from receipts.keys import install_key
from tests.support.playwright_server import PlaywrightServer, browser_registry
from tests.support.site import FixtureSite

WORKERS = (1, 2, 4, 8)
BARE = "bare Playwright, one server"
BARE_APART = "bare, a browser per worker"
#: `waypost batch --isolation context`: the runs on the server share one browser, a context each.
SHARED = "one server, shared browser"
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
        self.spent = Cpu()  # every process's CPU seconds over the batch

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


@dataclass(frozen=True)
class Cpu:
    """CPU seconds spent so far (or over a batch): by the servers' browsers, by the servers' own
    processes (node, relaying the protocol), and by this side (this process, the fixture site's
    threads and the Playwright client driver it started)."""

    browsers: float = 0.0
    servers: float = 0.0
    client: float = 0.0

    @property
    def total(self) -> float:
        return self.browsers + self.servers + self.client

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(self.browsers - other.browsers, self.servers - other.servers, self.client - other.client)

    def per(self, cases: int) -> Cpu:
        return Cpu(self.browsers / cases, self.servers / cases, self.client / cases)


async def browsers_gone(servers: list[PlaywrightServer], within_s: float = 60.0) -> None:
    """Returns once the servers run no browser: the one a previous batch closed may still be
    exiting, and its time would leave the tree in the middle of the next measurement."""
    async with asyncio.timeout(within_s):
        await exited([pid for server in servers for pid in descendants(server.pid)])


def cpu_now(servers: list[PlaywrightServer]) -> Cpu:
    """Read while the batch's browsers and client driver are still running: one that exits first
    takes its children's time with it. The servers are this process's children too (kept apart)."""
    trees = [tree_cpu(server.pid) for server in servers]
    mine = tree_cpu(os.getpid())
    browsers, own = sum(t.below for t in trees), sum(t.root for t in trees)
    return Cpu(browsers=browsers, servers=own, client=mine.root + mine.below - browsers - own)


async def one_batch(
    runs_dir: Path,
    site: FixtureSite,
    servers: list[PlaywrightServer],
    workers: int,
    cases: int,
    delay: float,
    isolation: Isolation = "browser",
) -> tuple[float, Peak]:
    settings = load_settings(overrides={"runs_dir": runs_dir, "approve": "all", "planner": "rules"})
    core = build_core(settings)
    endpoints = [server.endpoint for server in servers]
    # In letters: a run of digits in a task can read as a card number, which the planner cuts out
    # as a secret (a failed case once in a few hundred).
    stamp = str(time.monotonic_ns()).translate(str.maketrans("0123456789", "abcdefghij"))
    tag = f"s{len(endpoints)}w{workers}t{stamp}"
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
    await browsers_gone(servers)
    async with GridClient(isolation) as grid, asyncio.TaskGroup() as group:
        core.resources = endpoint_resources(grid, launch_options(settings), install_key())  # as the CLI's
        watcher = group.create_task(peak.watch(pool))
        began, cpu, spent = time.perf_counter(), time.process_time(), cpu_now(servers)
        summary = await runner.run()
        seconds = time.perf_counter() - began
        peak.cpu = time.process_time() - cpu
        peak.spent = cpu_now(servers) - spent  # before the grid closes its browsers
        watcher.cancel()
    if summary.failed:
        raise SystemExit(f"benchmark batch had failures: {[r.reason for r in summary.runs if not r.passed]}")
    return seconds, peak


async def bare_batch(
    site: FixtureSite,
    server: PlaywrightServer,
    workers: int,
    cases: int,
    delay: float,
    *,
    browser_per_worker: bool = False,
) -> tuple[float, Cpu]:
    """Seconds and CPU seconds for `cases` pages, `workers` at once: context, load, one screenshot,
    close (what a Waypost case needs of Chromium at the least). On one kept browser, or with
    `browser_per_worker` on a browser of each worker's own, as Waypost's runs on a Playwright server
    get (docs/architecture.md, "Batches", Isolation): the difference is what that isolation costs."""
    tag = f"bare-{workers}-{browser_per_worker}-{time.monotonic_ns()}"
    await browsers_gone([server])
    async with async_playwright() as pw:
        spent = cpu_now([server])
        pending = list(range(cases))
        shared = None if browser_per_worker else await pw.chromium.connect(server.endpoint)
        browsers = [shared] if shared is not None else []

        async def worker() -> None:
            browser = shared or await pw.chromium.connect(server.endpoint)
            if browser is not shared:
                browsers.append(browser)
            while pending:
                i = pending.pop()
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(site.url(f"/slow?delay={delay}&b={tag}-{i}"))
                await page.screenshot()
                await context.close()

        began = time.perf_counter()
        async with asyncio.TaskGroup() as group:
            for _ in range(min(workers, cases)):  # as a batch, which starts no more runs than cases
                group.create_task(worker())
        seconds = time.perf_counter() - began
        spent = cpu_now([server]) - spent
        for browser in browsers:
            await browser.close()
    return seconds, spent


Key = tuple[str, int]  # (grid, workers)


@dataclass
class Figures:
    """What each configuration measured, round by round."""

    times: dict[Key, list[float]] = field(default_factory=dict)
    cpu: dict[Key, list[Cpu]] = field(default_factory=dict)  # per case
    peaks: dict[Key, list[Peak]] = field(default_factory=dict)

    def add(self, key: Key, seconds: float, spent: Cpu, cases: int, peak: Peak | None = None) -> None:
        self.times.setdefault(key, []).append(seconds)
        self.cpu.setdefault(key, []).append(spent.per(cases))
        if peak is not None:
            self.peaks.setdefault(key, []).append(peak)

    def cpu_median(self, key: Key) -> Cpu:
        spent = self.cpu[key]
        fields = ("browsers", "servers", "client")
        return Cpu(*(statistics.median(getattr(c, f) for c in spent) for f in fields))


def print_table(args: argparse.Namespace, figures: Figures, baseline: int) -> None:
    print(f'"x apart": over "{BARE_APART}", bare Playwright with Waypost\'s isolation (one browser a run)')
    header = f"{'grid':<28} {'workers':>7} {'cases/min':>10} {'x bare':>7} {'x apart':>8} {'seconds':>8}"
    print(f"{header} {'range':>11}  {'own MB/run':>10}")
    rates = {key: args.cases / statistics.median(spent) * 60 for key, spent in figures.times.items()}
    for (name, workers), spent in figures.times.items():
        key = (name, workers)
        spread = f"{min(spent):.1f}-{max(spent):.1f}"
        rate_x = rates[key] / rates[(BARE, workers)]
        apart_x = rates[key] / rates[(BARE_APART, workers)]
        line = f"{name:<28} {workers:>7} {rates[key]:>10.1f} {rate_x:>6.2f}x {apart_x:>7.2f}x"
        line += f" {statistics.median(spent):>8.1f} {spread:>11}"
        runs = figures.peaks.get(key)
        if not runs:  # bare Playwright: no Waypost process to weigh
            print(line)
            continue
        concurrent = max(p.concurrent for p in runs) or 1
        own = statistics.median((p.own - baseline) / concurrent / MB for p in runs)
        drivers = statistics.median(p.drivers / MB for p in runs)
        print(f"{line}  {own:>10.1f}   ({concurrent} at once; shared Playwright client {drivers:.0f} MB)")
    for name in dict.fromkeys(name for name, _ in figures.times):
        print(f"{name}: 4 workers are {rates[(name, 4)] / rates[(name, 1)]:.2f}x the speed of 1")
    print("\nCPU seconds per case (medians): the browsers; the servers' node processes; this side (the")
    print("Python process, the fixture site's threads, the Playwright client driver); all of it")
    head = f"{'grid':<28} {'workers':>7} {'browsers':>9} {'x bare':>7} {'x apart':>8} {'servers':>8}"
    print(f"{head} {'client':>7} {'all':>6} {'x bare':>7} {'waypost process':>15}")
    for name, workers in figures.times:
        cpu, bare = figures.cpu_median((name, workers)), figures.cpu_median((BARE, workers))
        apart = figures.cpu_median((BARE_APART, workers))
        line = f"{name:<28} {workers:>7} {cpu.browsers:>9.3f} {cpu.browsers / bare.browsers:>6.2f}x"
        line += f" {cpu.browsers / apart.browsers:>7.2f}x {cpu.servers:>8.3f} {cpu.client:>7.3f}"
        line += f" {cpu.total:>6.3f} {cpu.total / bare.total:>6.2f}x"
        runs = figures.peaks.get((name, workers))
        process = f" {statistics.median(p.cpu / args.cases for p in runs):>15.3f}" if runs else ""
        print(line + process)


async def measure(args: argparse.Namespace) -> None:
    """Every configuration once per round, and the rounds repeated: a load that drifts on a shared
    machine then slows every configuration alike, not whichever grid happened to be measured last."""
    with tempfile.TemporaryDirectory(prefix="waypost-bench-batch-") as tmp:
        os.environ["WAYPOST_DATA_DIR"] = str(Path(tmp) / "data")  # the runs' signing key lives here
        registry = browser_registry(Path(tmp) / "browsers")
        with FixtureSite() as site, PlaywrightServer(registry) as one, PlaywrightServer(registry) as two:
            for server in (one, two):  # imports, and each server's first launch
                await one_batch(Path(tmp) / "runs", site, [server], 1, 1, 0)
            baseline = rss()
            kept = GridClient.RUNS_PER_BROWSER
            grids: dict[str, tuple[list[PlaywrightServer], int, Isolation]] = {
                "one server": ([one], kept, "browser"),
                SHARED: ([one], kept, "context"),
            }
            if args.two_servers:
                grids["two servers"] = ([one, two], kept, "browser")
            if args.browser_per_run:  # what batches did before a browser served its endpoint's next run
                grids["one server, browser per run"] = ([one], 1, "browser")
            figures = Figures()
            load = os.getloadavg()[0]
            for _ in range(args.repeat):
                for workers in WORKERS:  # each arm beside the others at the same number of workers
                    for name, (servers, runs_per_browser, isolation) in grids.items():
                        GridClient.RUNS_PER_BROWSER = runs_per_browser
                        seconds, peak = await one_batch(
                            Path(tmp) / "runs", site, servers, workers, args.cases, args.delay, isolation
                        )
                        figures.add((name, workers), seconds, peak.spent, args.cases, peak)
                    for name, apart in ((BARE, False), (BARE_APART, True)):
                        seconds, cpu = await bare_batch(
                            site, one, workers, args.cases, args.delay, browser_per_worker=apart
                        )
                        figures.add((name, workers), seconds, cpu, args.cases)
            print(
                f"{args.cases} cases per batch, pages delayed {args.delay} s, median of {args.repeat} rounds"
            )
            print(f"load average (1 min): {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
            print_table(args, figures, baseline)
            print(f"waypost process baseline {baseline / MB:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=32)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--delay", type=float, default=1.5)
    parser.add_argument("--two-servers", action="store_true", help="also measure a grid of two servers")
    parser.add_argument(
        "--browser-per-run",
        action="store_true",
        help="also measure one server with a browser launched per run",
    )
    logging.disable(logging.WARNING)  # runs' own warnings (a slow final capture) are not figures
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
