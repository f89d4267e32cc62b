"""Replay for QA: a recorded run replays without drift; after the site changes, the drift is found."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from browser.driver import PlaywrightDriver
from executor.models import RunStatus
from executor.run.replay import ReplayReport, replay_run
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.verify import verify
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import SITE_DIR, FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest.fixture
def own_site(tmp_path: Path) -> Iterator[FixtureSite]:
    """A private copy of the fixture site, so a test can change a page between record and replay."""
    root = tmp_path / "site"
    shutil.copytree(SITE_DIR, root)
    with FixtureSite(root) as running:
        yield running


async def replay(
    harness: ActHarness, run_dir: Path, name: str, asked: Answer | None = None, *, heal: bool = False
) -> ReplayReport:
    driver = await PlaywrightDriver.on_browser(harness.browser)
    folder = RunFolder(harness.runs_dir.parent / "replays" / name)
    recorder = await JsonlRecorder.open(folder, fsync=False)
    try:
        report = await replay_run(run_dir, driver, recorder, confirm=asked, heal=heal)
        await recorder.finish(report.outcome, reason=report.summary())
    finally:
        await driver.close()
    assert verify(folder.root).ok  # the replay leaves its own verifiable receipts
    return report


async def test_replay_matches_then_finds_where_the_site_drifted(
    act_harness: ActHarness, own_site: FixtureSite
) -> None:
    actions = [
        {"kind": "fill", "target": {"label": "Email"}, "value": "qa@example.com"},
        {"kind": "click", "target": {"role": "button", "name": "Next"}},
        {"kind": "wait", "url_contains": "wizard2"},
        {"kind": "select", "target": {"label": "Plan"}, "value": "Pro"},
        {"kind": "click", "target": {"role": "button", "name": "Next"}},
        {"kind": "wait", "url_contains": "wizard3"},
    ]
    plan = act_plan(
        [
            {
                "step_id": "a1",
                "type": "ACT",
                "inputs": {"url": own_site.url("/wizard1.html"), "actions": actions},
            }
        ]
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    run_dir = act_harness.runs_dir / bundle.run_id

    same = await replay(act_harness, run_dir, "replay_same")
    assert same.ok, same.summary()
    assert [s.status for s in same.steps] == ["ok"] * 7
    assert "no drift" in same.summary()

    page = own_site.root / "wizard2.html"
    page.write_text(page.read_text().replace("Step 2 of 3: Plan", "Step 2 of 3: Pick a plan"))
    drifted = await replay(act_harness, run_dir, "replay_drift")
    assert not drifted.ok
    first = drifted.first_drift
    assert first is not None and first.kind == "click" and first.url_match and not first.dom_match
    assert drifted.steps.index(first) == 2  # navigate, fill, then the click that lands on the changed page
    assert f"drift at seq {first.seq} (click)" in drifted.summary()


async def test_replay_to_folder_is_what_the_cli_calls(act_harness: ActHarness, site: FixtureSite) -> None:
    from executor.run.replay import ReplayError, replay_to_folder

    actions = [{"kind": "fill", "target": {"label": "Name"}, "value": "Ada"},
               {"kind": "click", "target": {"role": "button", "name": "Create account"}}]  # fmt: skip
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/signup.html"), "actions": actions}}],
        no_submit=True,
    )
    bundle = await act_harness.run(plan, confirm=Answer())
    run_dir = act_harness.runs_dir / bundle.run_id
    report = await replay_to_folder(run_dir, act_harness.runs_dir)
    assert report.ok, report.summary()
    assert [s.status for s in report.steps] == ["ok", "ok", "skipped"]  # the refused click stays refused
    replay_dir = act_harness.runs_dir / report.replay_run
    assert verify(replay_dir).ok
    assert '"replay"' in (replay_dir / "run.json").read_text()
    (run_dir / "receipts.jsonl").write_text("tampered\n")
    with pytest.raises(ReplayError):
        await replay_to_folder(run_dir, act_harness.runs_dir)


async def test_a_run_whose_every_step_was_declined_replays_nothing(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    """Before, `waypost replay` of a declined run said "replayed 0 action(s) ...: no drift", exit 0."""
    from executor.gates.confirm import ConfirmAnswer

    actions = [{"kind": "fill", "target": {"label": "Name"}, "value": "Ada"}]
    plan = act_plan(
        [{"step_id": "a1", "type": "ACT", "inputs": {"url": site.url("/signup.html"), "actions": actions}}]
    )
    declined = await act_harness.run(plan, confirm=Answer(ConfirmAnswer.DENY))
    assert declined.run_status is RunStatus.BLOCKED_POLICY, declined.reason
    report = await replay(act_harness, act_harness.runs_dir / declined.run_id, "replay_declined")
    assert (report.replayed, report.ok, report.exit_code) == (0, False, 6)
    assert "every step was declined in the original run" in report.summary()
    assert report.declined == ["a1"]
