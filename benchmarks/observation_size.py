"""Observation size vs raw HTML on the fixture pages, in tokens (chars / 4).

Run: .venv/bin/python -m benchmarks.observation_size

For each page: the HTML a naive agent would read (page.content() of every frame, open shadow roots
added), the rendered Observation, their ratio, and a check that every interactive element counted
independently by Playwright's own CSS engine (which pierces open shadow roots) is in the observation.
A figure, not a pass/fail test; the aim is a ratio of 0.10 or less on real-sized pages.
Then, for the pages of tests/fixtures/site/widgets (clickable divs, spans and icons), how many of the
elements a person can click (marked `data-clickable`) the observation lists, its size and build time.
Last, on pages whose clickable things were counted by hand (a person's list, written down once from
the page as shown, in HAND_COUNTS), the visible elements the observation lists beside that count.
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
    await hand_counted()
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


#: Pages and what a person sees to click or type into on them, counted by hand from the page as shown
#: at 1280x720 (closed dialogs, hidden tabs and collapsed menus not counted).
HAND_COUNTS: dict[str, tuple[str, str, int, str]] = {
    "asked-inbox": ("site", "/asked/inbox.html", 12, "4 message rows, a trash and a star icon in each"),
    "asked-join": (
        "site",
        "/asked/join.html",
        9,
        "4 nav links, name, email, Create account, news email, Sign up",
    ),
    "asked-login": ("site", "/asked/login.html", 3, "username, password, Sign in"),
    "asked-plans": ("site", "/asked/plans.html", 6, "2 nav links, 3 Sign up buttons, the footer link"),
    "eval-contact": ("eval", "contact.html", 7, "name, email, phone, subject, message, newsletter box, Send"),
    "eval-unlabelled": ("eval", "unlabelled.html", 6, "5 fields, Continue"),
    "eval-wizard": ("eval", "wizard.html", 3, "your name, work email, Next (steps 2-4 hidden)"),
    "eval-inbox": ("eval", "inbox.html", 6, "6 message links (Archive and Star show once one is open)"),
    "eval-search": ("eval", "search.html", 2, "search box, Search"),
    "eval-table": ("eval", "table.html", 2, "the Price and In stock header buttons"),
    "eval-dialogs": ("eval", "dialogs.html", 5, "2 cookie buttons, Settings, Rename project, Help"),
    "eval-tabs": ("eval", "tabs.html", 4, "4 tabs (their panels hidden)"),
    "eval-dates": ("eval", "dates.html", 4, "check-in, check-out, Book now, Open calendar"),
}


async def hand_counted() -> None:
    """The observation's visible elements on each hand-counted page, beside a person's count."""
    from evals.site import EvalSite

    print(f"\n{'hand-counted page':<18} {'person':>6} {'found':>6} {'obs tok':>8}  what a person counts")
    with FixtureSite() as site, EvalSite() as evals:
        async with await PlaywrightDriver.launch() as driver:
            for name, (where, path, person, what) in HAND_COUNTS.items():
                url = site.url(path) if where == "site" else evals.url(path)
                await driver.perform(parse_action({"kind": "navigate", "url": url}))
                observation = await driver.observe()
                found = sum(1 for e in observation.elements if e.visible)
                print(f"{name:<18} {person:>6} {found:>6} {observation.token_estimate:>8}  {what}")


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
