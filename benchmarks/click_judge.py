"""What judging a click by its element's facts costs: the probe (resolve the target, read its facts)
against the click itself, on the fixture site with a real headless Chromium.

    .venv/bin/python benchmarks/click_judge.py [--runs 30]

Each round opens the search page, probes the "Search" button by role+name, by a CSS selector and by
its index in an observation (what a model's decision uses), then clicks it. Medians in
milliseconds, and the probe's share of probe + click.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browser.click_facts import probe
from browser.driver import PlaywrightDriver
from browser.models import Target, parse_action
from tests.support.site import FixtureSite


async def _ms(make: object) -> float:
    started = time.perf_counter()
    await make  # type: ignore[misc]
    return (time.perf_counter() - started) * 1000


async def measure(runs: int) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"probe_role": [], "probe_selector": [], "probe_index": [], "click": []}
    with FixtureSite() as site:
        async with await PlaywrightDriver.launch() as driver:
            session = driver.session
            role = Target(role="button", name="Search")
            selector = Target(selector="form button[type=submit]")
            click = parse_action({"kind": "click", "target": {"role": "button", "name": "Search"}})
            for _ in range(runs):
                await session.page.goto(site.url("/search.html"))
                figures["probe_role"].append(await _ms(probe(session, role)))
                figures["probe_selector"].append(await _ms(probe(session, selector)))
                seen = await driver.observe()
                index = next(e.index for e in seen.elements if e.name == "Search" and e.role == "button")
                figures["probe_index"].append(await _ms(probe(session, Target(index=index))))
                figures["click"].append(await _ms(driver.perform(click)))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.runs))
    medians = {k: statistics.median(v) for k, v in figures.items()}
    for name, value in medians.items():
        print(f"{name:>15}: median {value:7.1f} ms over {args.runs} runs")
    share = medians["probe_role"] / (medians["probe_role"] + medians["click"])
    print(f"{'probe share':>15}: {share:.0%} of probe + click (role+name target)")


if __name__ == "__main__":
    main()
