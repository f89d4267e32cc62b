"""Observation size vs raw HTML on the fixture pages, in tokens (chars / 4).

Run: .venv/bin/python -m benchmarks.observation_size

For each page: the HTML a naive agent would read (page.content() of every frame, open shadow roots
added), the rendered Observation, their ratio, and a check that every interactive element counted
independently by Playwright's own CSS engine (which pierces open shadow roots) is in the observation.
A figure, not a pass/fail test; the aim is a ratio of 0.10 or less on real-sized pages.
Then, for the pages of tests/fixtures/site/widgets (clickable divs, spans and icons), how many of the
elements a person can click (marked `data-clickable`) the observation lists, its size and build time.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from browser.driver import PlaywrightDriver
from browser.models import parse_action
from browser.observe import INDEX_ATTR
from tests.support.site import SITE_DIR, FixtureSite

INTERACTIVE_CSS = (
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], "
    "[role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], [role=switch], "
    "[role=textbox], [role=combobox], [role=searchbox], [role=slider], [role=spinbutton], "
    "[contenteditable=''], [contenteditable=true], [onclick]"
)
SKIP = {"never.html"}  # never finishes loading; covered by the timeout tests
SHADOW_HTML = """() => {
  let out = "";
  const walk = (root) => root.querySelectorAll("*").forEach((el) => {
    if (el.shadowRoot) { out += el.shadowRoot.innerHTML; walk(el.shadowRoot); }
  });
  walk(document);
  return out;
}"""


def tokens(chars: int) -> int:
    return chars // 4


async def raw_html_chars(driver: PlaywrightDriver) -> int:
    page = driver.session.page
    total = 0
    for frame in page.frames:
        total += len(await frame.content())
        total += len(await frame.evaluate(SHADOW_HTML))
    return total


async def interactive_count(driver: PlaywrightDriver) -> int:
    return sum([await frame.locator(INTERACTIVE_CSS).count() for frame in driver.session.page.frames])


async def main() -> int:
    pages = sorted(p.name for p in SITE_DIR.glob("*.html") if p.name not in SKIP)
    rows: list[tuple[str, int, int, float, int, int, bool]] = []
    with FixtureSite() as site:
        async with await PlaywrightDriver.launch() as driver:
            for name in pages:
                await driver.perform(parse_action({"kind": "navigate", "url": site.url("/" + name)}))
                raw = tokens(await raw_html_chars(driver))
                observation = await driver.observe()
                seen = len(observation.elements)
                expected = await interactive_count(driver)
                obs = observation.token_estimate
                rows.append((name, raw, obs, obs / raw, expected, seen, observation.truncated))
    print(f"{'page':<20} {'html tok':>9} {'obs tok':>8} {'ratio':>6} {'interactive':>11} {'kept':>5}")
    all_kept = True
    for name, raw, obs, ratio, expected, seen, truncated in rows:
        kept = seen == expected and not truncated
        all_kept &= kept
        print(
            f"{name:<20} {raw:>9} {obs:>8} {ratio:>6.2f} {expected:>11} {seen:>5} {'' if kept else 'MISSING'}"
        )
    total_raw = sum(r[1] for r in rows)
    total_obs = sum(r[2] for r in rows)
    print(f"{'TOTAL':<20} {total_raw:>9} {total_obs:>8} {total_obs / total_raw:>6.2f}")
    median = statistics.median(r[3] for r in rows)
    print(f"median ratio {median:.2f}; every interactive element kept: {all_kept}")
    widgets_kept = await widgets()
    return 0 if all_kept and widgets_kept else 1


async def widgets() -> bool:
    """Pages of non-semantic widgets (inbox rows, icon buttons, custom dropdowns, cards): every element
    a person can click carries `data-clickable`; found = those the observation lists."""
    pages = sorted(p.name for p in (SITE_DIR / "widgets").glob("*.html"))
    print(f"\n{'widget page':<20} {'found':>5} {'present':>7} {'obs tok':>8} {'build ms':>8}")
    every = True
    with FixtureSite() as site:
        async with await PlaywrightDriver.launch() as driver:
            for name in pages:
                await driver.perform(parse_action({"kind": "navigate", "url": site.url("/widgets/" + name)}))
                times: list[float] = []
                for _ in range(7):
                    started = time.perf_counter()
                    observation = await driver.observe()
                    times.append((time.perf_counter() - started) * 1000)
                page = driver.session.page
                present = await page.locator("[data-clickable]").count()
                found = await page.locator(f"[data-clickable][{INDEX_ATTR}]").count()
                every &= found == present
                print(
                    f"{name:<20} {found:>5} {present:>7} {observation.token_estimate:>8} "
                    f"{statistics.median(times):>8.1f}"
                )
    print(f"every clickable widget listed: {every} (tokens are chars / 4)")
    return every


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
