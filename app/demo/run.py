"""`waypost demo`: the four flows on the bundled site, planned by the rules, with receipts verified."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from app.demo.flows import FLOWS, DemoFlow
from app.demo.server import DemoSite
from app.progress import ProgressPrinter
from app.settings import Settings
from app.wiring import build_core
from executor.gates.approval import ApprovalPolicy
from executor.models import RunBundleV1
from receipts.verify import verify


@dataclass(frozen=True)
class DemoResult:
    flow: DemoFlow
    bundle: RunBundleV1
    receipts_ok: bool


async def run_demo(
    settings: Settings, *, approve: ApprovalPolicy, quiet: bool
) -> tuple[list[DemoResult], int]:
    """Runs every flow; returns the results and the number of form submissions the site received."""
    results: list[DemoResult] = []
    with DemoSite() as site:
        local = settings.model_copy(
            update={"search_url": site.search_template, "search_provider": "browser", "planner": "rules"}
        )
        core = build_core(local)
        for flow in FLOWS:
            task = flow.task(site.base_url)
            if not quiet:
                print(f"\n== {flow.mode}: {flow.title}\n   {task}", file=sys.stderr)
            planned = await core.plan(task, planner="rules")
            bundle = await core.run(
                planned.plan,
                safe_mode=local.safe_mode,
                approval_policy=approve,
                events=None if quiet else ProgressPrinter(),
            )
            receipts_ok = verify(core.run_dir(bundle.run_id)).ok
            results.append(DemoResult(flow, bundle, receipts_ok))
        posts = site.posts()
    return results, posts


def describe(results: list[DemoResult], posts: int) -> str:
    lines = []
    for r in results:
        b = r.bundle
        lines.append(
            f"{r.flow.mode} {r.flow.title:<32} {b.run_status:<20} {len(b.citations)} sources, "
            f"{len(b.receipt.get('actions', []) if b.receipt else [])} UI actions, "
            f"receipts {'verified' if r.receipts_ok else 'BROKEN'}  ({b.run_id})"
        )
    lines.append(f"form submissions received by the demo site: {posts}")
    return "\n".join(lines)
