"""The redirect-hop guard (browser/hop_guard.py): what it costs a page's requests.

One Chromium, the fixture site on 127.0.0.1 and the same site under a made-up public name
(public.test, mapped to 127.0.0.1 for this browser). Three sessions on it, each loading a page then
fetching N small files from page script, interleaved and rotated: the rule off (a task naming a
private address: no guard), the rule on with requests to public.test (they never pause in the guard)
and the rule on with requests to 127.0.0.1 (every one pauses once more, in the browser-level Fetch
client, on top of the session's route). Prints the median time of one batch of N fetches in ms and
its ratio to the rule off.
Run: .venv/bin/python -m benchmarks.hop_guard [--rounds 20] [--fetches 50]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from playwright.async_api import async_playwright

from browser.discovery import find_chromium
from browser.launch import chromium_args
from browser.options import BrowserPolicy
from browser.session import BrowserSession
from tests.support.site import FixtureSite

FETCH_ALL = """async ([base, n]) => {
  const one = i => fetch(base + "/prices.html?n=" + i).then(r => r.text());
  await Promise.all(Array.from({length: n}, (_, i) => one(i)));
}"""


async def _batch(session: BrowserSession, base: str, fetches: int) -> float:
    started = time.perf_counter()
    await session.page.evaluate(FETCH_ALL, [base, fetches])
    return (time.perf_counter() - started) * 1000


async def main(rounds: int, fetches: int) -> None:
    with FixtureSite() as site:
        local = site.url("").rstrip("/")
        public = local.replace("127.0.0.1", "public.test")
        async with async_playwright() as pw:
            exe = find_chromium(bundled=pw.chromium.executable_path)
            args = chromium_args(["--host-resolver-rules=MAP public.test 127.0.0.1"])
            browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=args)
            ways = {
                "rule off (no guard)": (BrowserPolicy(private_network=True), local),
                "rule on, public host": (BrowserPolicy(), public),
                "rule on, private host": (BrowserPolicy(), local),
            }
            sessions = {}
            for name, (policy, base) in ways.items():
                sessions[name] = session = await BrowserSession.on_browser(browser, policy=policy)
                await session.page.goto(base + "/index.html")
            times: dict[str, list[float]] = {name: [] for name in ways}
            names = list(ways)
            for r in range(rounds):
                for name in names[r % 3 :] + names[: r % 3]:  # rotated: no way always goes first
                    times[name].append(await _batch(sessions[name], ways[name][1], fetches))
            for session in sessions.values():
                await session.close()
            await browser.close()
    base_ms = statistics.median(times[names[0]])
    print(f"{fetches} same-page fetches per batch, {rounds} rounds, median ms per batch:")
    for name in names:
        median = statistics.median(times[name])
        print(f"  {name:24} {median:8.1f} ms  x{median / base_ms:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--fetches", type=int, default=50)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.rounds, arguments.fetches))
