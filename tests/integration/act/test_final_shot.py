"""A run's final state on a real Chromium: when the page still shows what the run folder already
holds a picture of (the last action's after-shot, or the last read's picture), the run_end record
names that file instead of Chromium taking a second screenshot; a page that changed since, if only
by scrolling, gets a final picture of its own. Either way the receipts verify, and changing the
shared file is caught."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser.driver import PlaywrightDriver
from browser.models import FillAction, ScrollAction, Target
from receipts.verify import Problem, verify
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.run_end import run_end
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]


async def test_an_act_run_ends_on_its_last_after_shot(act_harness: ActHarness, site: FixtureSite) -> None:
    inputs = {"url": site.url("/order_desk.html"), "actions": [{"kind": "wait", "text": "Order desk"}]}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
    bundle = await act_harness.run(plan, confirm=Answer())
    assert bundle.run_status == "SUCCESS", bundle.reason
    run_dir = act_harness.runs_dir / bundle.run_id
    last = act_harness.actions(bundle)[-1]
    final = run_end(run_dir).final_state
    assert final is not None and final.shot is not None and last.after.shot is not None
    assert final.shot == last.after.shot  # the same file, named again in the run_end record
    assert final.dom_hash == last.after.dom_hash
    assert not list((run_dir / "shots").glob("*-final.png"))
    shared = run_dir / final.shot.path
    shared.write_bytes(shared.read_bytes()[:-12] + b"not the page")
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem is Problem.ALTERED_FILE


async def _read_then(
    act_harness: ActHarness, site: FixtureSite, tmp_path: Path, change: FillAction | ScrollAction | None
) -> tuple[Path, Path]:
    """Reads a page with its picture (as OPEN_URL does), applies `change`, ends the run."""
    run_dir = tmp_path / "runs" / "run_final_shot"
    resources = act_harness.resources("run_final_shot", run_dir)
    driver = await resources.driver()
    assert isinstance(driver, PlaywrightDriver)
    read = run_dir / "reads" / "read-1.png"
    page = await driver.load_page(site.url("/order_desk.html"), picture=read)
    assert page.screenshot_path == str(read)
    if change is not None:
        assert (await driver.perform(change)).status == "ok"
    await resources.recorder()
    await resources.close("SUCCESS", "read", {})
    assert verify(run_dir).ok, verify(run_dir).summary()
    return run_dir, read


async def test_a_read_page_left_as_it_was_ends_on_the_reads_picture(
    act_harness: ActHarness, site: FixtureSite, tmp_path: Path
) -> None:
    run_dir, read = await _read_then(act_harness, site, tmp_path, None)
    final = run_end(run_dir).final_state
    assert final is not None and final.shot is not None
    assert (run_dir / final.shot.path).samefile(read)  # one file on disk, no second screenshot
    read.write_bytes(read.read_bytes()[:-12] + b"not the page")
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem is Problem.ALTERED_FILE


@pytest.mark.parametrize(
    "change",
    [
        FillAction(target=Target(label="Note"), value="one-off order"),  # another DOM
        ScrollAction(amount=600),  # the same DOM, another picture
    ],
    ids=["typed", "scrolled"],
)
async def test_a_read_page_that_changed_gets_a_final_picture_of_its_own(
    act_harness: ActHarness, site: FixtureSite, tmp_path: Path, change: FillAction | ScrollAction
) -> None:
    run_dir, read = await _read_then(act_harness, site, tmp_path, change)
    final = run_end(run_dir).final_state
    assert final is not None and final.shot is not None
    picture = run_dir / final.shot.path
    assert picture.name.endswith("-final.png") and not picture.samefile(read)
