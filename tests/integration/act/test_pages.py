"""Multi-page and unruly pages: a three-page wizard, a button that moves, a download."""

from __future__ import annotations

import hashlib

import pytest

from executor.models import RunStatus
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import SITE_DIR, FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_wizard_across_three_pages(act_harness: ActHarness, site: FixtureSite) -> None:
    actions = [
        {"kind": "fill", "target": {"label": "Email"}, "value": "ada@example.com"},
        {"kind": "click", "target": {"role": "button", "name": "Next"}},
        {"kind": "wait", "url_contains": "wizard2"},
        {"kind": "select", "target": {"label": "Plan"}, "value": "Pro"},
        {"kind": "click", "target": {"role": "button", "name": "Next"}},
        {"kind": "wait", "url_contains": "wizard3"},
        {"kind": "click", "target": {"role": "button", "name": "Finish"}},
        {"kind": "wait", "text": "All set"},
        {"kind": "extract", "what": "text", "target": {"selector": "#r-email"}},
        {"kind": "extract", "what": "text", "target": {"selector": "#r-plan"}},
    ]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/wizard1.html"), "actions": actions}}]
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    outputs = bundle.step_runs[0].outputs
    assert outputs["extracted"] == ["ada@example.com", "pro"]
    assert outputs["final_url"].endswith("/wizard3.html")
    records = act_harness.actions(bundle)
    assert len(records) == 11 and all(r.outcome.status == "ok" for r in records)
    assert {r.after.url.rsplit("/", 1)[-1] for r in records} == {
        "wizard1.html",
        "wizard2.html",
        "wizard3.html",
    }


async def test_button_that_moves_and_one_that_appears_late(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    actions = [
        {"kind": "click", "target": {"role": "button", "name": "Continue"}},
        {"kind": "wait", "text": "Clicked"},
        {"kind": "click", "target": {"text": "Late button"}},
        {"kind": "wait", "text": "Late clicked"},
    ]
    plan = act_plan(
        [
            {
                "step_id": "a1",
                "type": "CLICK_NAV",
                "inputs": {"url": site.url("/moving.html"), "actions": actions},
            }
        ]
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    assert [r.outcome.status for r in act_harness.actions(bundle)] == ["ok"] * 5


async def test_download_lands_in_the_run_folder_with_its_sha256(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    gate = {
        "gate_id": "gate_download",
        "kind": "download",
        "blocked_actions": ["submit", "purchase", "delete"],
    }
    plan = act_plan(
        [
            {
                "step_id": "d1",
                "type": "DOWNLOAD_FILE",
                "inputs": {"url": site.url("/download.html"), "target": {"text": "Download report"}},
            }
        ],
        gates=[gate],
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    (download,) = bundle.step_runs[0].outputs["downloads"]
    expected = hashlib.sha256((SITE_DIR / "files" / "report.csv").read_bytes()).hexdigest()
    assert download["path"] == "downloads/report.csv" and download["sha256"] == expected
    run_dir = act_harness.runs_dir / bundle.run_id
    assert hashlib.sha256((run_dir / download["path"]).read_bytes()).hexdigest() == expected
    assert any(expected in note for note in act_harness.notes(bundle))
