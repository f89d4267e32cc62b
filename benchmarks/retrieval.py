"""RETRIEVE over the fixture site: time, pages/s, and ranking quality on a small labelled set.

Run: .venv/bin/python -m benchmarks.retrieval [--rounds N]

Speed: RETRIEVE with 3 sub-queries through the fixture search engine in one headless Chromium
(the browser is launched once; each round starts with an empty run cache, so every page is read
again). Quality: for each labelled case, which pages land in top_k, as page-level precision@k
(distinct cited pages that are relevant) and recall (relevant pages that were cited), and whether
the off-topic page or the mirror copy got in. A figure, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from browser.driver import BrowserDriver, PlaywrightDriver
from executor.models import RuntimeCtxV1
from executor.research.retrieve import RetrieveTool
from executor.research.search import BrowserSearchProvider
from executor.run.resources import RunResources
from executor.tools.boundary import ToolContext, ToolOutput
from planner.models import ExecutionPlan, Step
from tests.support.site import FixtureSite

SPEED_QUERIES = ["Acme Data pricing packages", "Beta Feeds pricing packages", "datafeed commercial use terms"]
IRRELEVANT = "/research/blog/coffee.html"
MIRROR = "/research/mirror/acme-pricing.html"


@dataclass(frozen=True)
class Case:
    name: str
    queries: list[str]
    relevant: set[str]


CASES = [
    Case(
        "acme",
        ["Acme Data pricing packages", "Acme Data commercial use terms", "Acme Data redistribution rules"],
        {"/research/acme/pricing.html", "/research/acme/terms.html"},
    ),
    Case(
        "beta",
        ["Beta Feeds pricing packages", "Beta Feeds license terms commercial use", "Beta Feeds caching"],
        {"/research/beta/pricing.html", "/research/beta/terms.pdf"},
    ),
    Case(
        "compare",
        [
            "datafeed packages commercial use SaaS",
            "HOSE HNX datafeed pricing",
            "datafeed redistribution terms",
        ],
        {
            "/research/acme/pricing.html",
            "/research/acme/terms.html",
            "/research/beta/pricing.html",
            "/research/beta/terms.pdf",
        },
    ),
    Case(
        "gamma",
        ["Gamma Quotes market data plans", "Gamma Quotes euros", "Gamma Pro price"],
        {"/research/gamma/pricing.html"},
    ),
]


def context(queries: list[str], resources: RunResources, top_k: int) -> ToolContext:
    step = Step(step_id="r1", type="RETRIEVE", inputs={"top_k": top_k})
    plan = ExecutionPlan.model_validate(
        {
            "mode": "A",
            "steps": [step],
            "sub_queries": [{"q": q} for q in queries],
            "budget": {"max_sources": 12},
        }
    )
    return ToolContext(
        run_id=resources.run_id,
        trace_id="bench",
        plan=plan,
        step=step,
        runtime=RuntimeCtxV1(),
        gate=None,
        step_outputs={},
        evidence=[],
        resources=resources,
    )


async def retrieve_once(
    tool: RetrieveTool, driver: BrowserDriver, queries: list[str], run_dir: Path, top_k: int
) -> tuple[ToolOutput, float]:
    async def shared(_: RunResources) -> BrowserDriver:
        return driver

    resources = RunResources(run_id=run_dir.name, run_dir=run_dir, driver_factory=shared, fsync=False)
    ctx = context(queries, resources, top_k)
    started = time.perf_counter()
    out = await tool({"top_k": top_k}, ctx)
    elapsed = time.perf_counter() - started
    await (await resources.recorder()).aclose()
    return out, elapsed


def path_of(url: str, base: str) -> str:
    return url.split("#", 1)[0].removeprefix(base)


async def main(rounds: int) -> None:
    with FixtureSite() as site, tempfile.TemporaryDirectory() as tmp:
        tool = RetrieveTool(BrowserSearchProvider(site.url("/research/search.html?q={query}")))
        driver = await PlaywrightDriver.launch()
        try:
            await retrieve_once(tool, driver, SPEED_QUERIES, Path(tmp) / "warmup", 8)
            times, pages = [], []
            for i in range(rounds):
                out, elapsed = await retrieve_once(tool, driver, SPEED_QUERIES, Path(tmp) / f"speed{i}", 8)
                times.append(elapsed)
                pages.append(len(out.outputs["pages_read"]))
            median = statistics.median(times)
            print(f"RETRIEVE, 3 sub-queries, top_k=8, {rounds} rounds (fresh run cache each)")
            low, high = min(times) * 1000, max(times) * 1000
            print(f"  time      median {median * 1000:7.1f} ms   min {low:7.1f} ms   max {high:7.1f} ms")
            per_run = statistics.mean(pages)
            print(f"  pages     {per_run:.1f} read per run   {per_run / median:6.1f} pages/s (median)")
            print("\nRanking quality (page level, top_k=5)")
            print(f"  {'case':8} {'P@k':>5} {'recall':>6}  cited pages  off-topic  mirror")
            precisions, recalls = [], []
            for case in CASES:
                out, _ = await retrieve_once(tool, driver, case.queries, Path(tmp) / case.name, 5)
                cited = [path_of(e.source_url, site.base_url) for e in out.evidence]
                distinct = list(dict.fromkeys(cited))
                hits = [p for p in distinct if p in case.relevant]
                precision = len(hits) / len(distinct) if distinct else 0.0
                recall = len(set(hits)) / len(case.relevant)
                precisions.append(precision)
                recalls.append(recall)
                off_topic = "YES" if IRRELEVANT in distinct else "no"
                mirror = "YES" if MIRROR in distinct else "no"
                print(
                    f"  {case.name:8} {precision:5.2f} {recall:6.2f}  {len(distinct):>11}  "
                    f"{off_topic:>9}  {mirror:>6}"
                )
                print("           " + ", ".join(p.removeprefix("/research/") for p in distinct))
            print(f"  {'mean':8} {statistics.mean(precisions):5.2f} {statistics.mean(recalls):6.2f}")
        finally:
            await driver.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    asyncio.run(main(parser.parse_args().rounds))
