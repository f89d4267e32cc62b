"""Screenshot masking of shown secrets: what marking the elements that show a secret costs a capture.

One Chromium page, captured again and again (interleaved and rotated, same state) three ways: with no secrets
declared (no marking pass), with three secrets the page does not show, and with three it shows
(text, a field's value, a revealed password field). Two page sizes: the small echo page and the same
page padded with 3,000 paragraphs. Prints per-capture medians in ms and the ratio to "no secrets".
Run: .venv/bin/python -m benchmarks.secret_mask [--rounds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from playwright.async_api import Page, async_playwright

from browser.capture import capture
from browser.discovery import find_chromium
from browser.launch import chromium_args

SHOWN = ["sk-live-4f9c2a7e1b", "pin-8841-kestrel", "Zq7 horse+PASS/91x"]
HIDDEN = ["not-on-the-page-1", "not-on-the-page-2", "not-on-the-page-3"]


def page_html(padding: int) -> str:
    filler = "".join(f"<p>paragraph {i} of ordinary text</p>" for i in range(padding))
    return (
        "<p>Your API key: sk-live-4f9c2a7e1b</p><input value='pin-8841-kestrel'>"
        "<input id=pw type=text value='Zq7 horse+PASS/91x'>" + filler
    )


async def _time(page: Page, secrets: list[str]) -> float:
    started = time.perf_counter()
    await capture(page, secrets=secrets)
    return (time.perf_counter() - started) * 1000


async def main(rounds: int) -> None:
    async with async_playwright() as pw:
        exe = find_chromium(bundled=pw.chromium.executable_path)
        browser = await pw.chromium.launch(executable_path=str(exe), headless=True, args=chromium_args())
        page = await browser.new_page()
        for padding in (0, 3000):
            await page.set_content(page_html(padding))
            times: dict[str, list[float]] = {"no secrets": [], "not shown": [], "shown": []}
            ways = [("no secrets", []), ("not shown", HIDDEN), ("shown", SHOWN)]
            for r in range(rounds):
                for name, secrets in ways[r % 3 :] + ways[: r % 3]:  # rotated: no way always goes first
                    times[name].append(await _time(page, secrets))
            base = statistics.median(times["no secrets"])
            for name, values in times.items():
                median = statistics.median(values)
                print(f"{padding:>5} paragraphs  {name:<11} median {median:7.1f} ms  x{median / base:.2f}")
        await browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    asyncio.run(main(parser.parse_args().rounds))
