"""Pictures a gated run does not store twice, on a real Chromium: an action that left the page as it
was points its after-state at the before-shot's file; an action gate's picture of the page the last
action left is that action's after-shot (one file, two names). An action that changed the picture,
if only by scrolling, gets its own after-shot; tampering with a shared file fails verification."""

from __future__ import annotations

from pathlib import Path

import pytest

from receipts.verify import Problem, verify
from tests.support.act_harness import ActHarness, Answer, act_plan
from tests.support.site import FixtureSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

OPEN_GATE = [{"gate_id": "gate_action", "kind": "action", "blocked_actions": []}]
SEND = {"kind": "click", "target": {"role": "button", "name": "Send"}}


def one_file(a: Path, b: Path) -> bool:
    return a.samefile(b)


async def test_unchanged_page_shares_its_picture_and_changed_pages_get_their_own(
    act_harness: ActHarness, site: FixtureSite
) -> None:
    actions = [{"kind": "wait", "text": "Order desk"}, {"kind": "scroll", "amount": 600}, SEND, SEND]
    inputs = {"url": site.url("/order_desk.html"), "actions": actions}
    plan = act_plan([{"step_id": "a1", "type": "ACT", "inputs": inputs}], gates=OPEN_GATE)
    answers = Answer()
    bundle = await act_harness.run(plan, confirm=answers)  # the harness verifies the receipts
    assert site.post_count() == 0
    navigate, wait, scroll, first, second = act_harness.actions(bundle)
    assert [r.outcome.status for r in (navigate, wait, scroll, first, second)] == ["ok"] * 5
    # The wait changed nothing: its before and after are the navigation's after-shot, one file.
    assert wait.before_shot_reused and wait.after_shot_reused
    assert wait.before.shot == wait.after.shot == navigate.after.shot
    # The scroll left the DOM as it was but moved the picture: an after-shot of its own.
    assert scroll.after.dom_hash == scroll.before.dom_hash and not scroll.after_shot_reused
    assert scroll.after.shot is not None and scroll.after.shot != scroll.before.shot
    # Each Send changed the page: its own after-shot.
    for click in (first, second):
        assert click.after.dom_hash != click.before.dom_hash and not click.after_shot_reused
        assert click.after.shot is not None and click.after.shot.path == f"shots/{click.seq:06d}-after.png"
    # Each Send asked first; the question's picture is the shot of the page the last action left.
    run_dir = act_harness.runs_dir / bundle.run_id
    gates = [r for r in answers.requests if r.decision.gate_kind == "send"]
    assert len(gates) == 2, [r.decision.gate_id for r in answers.requests]
    for click, question in zip((first, second), gates, strict=True):
        assert question.screenshot_path is not None and click.before.shot is not None
        picture = Path(question.screenshot_path)
        assert picture.parent == run_dir / "gates"
        assert one_file(picture, run_dir / click.before.shot.path)
    # The shared file is still vouched for: changing it is caught at the first record naming it.
    assert wait.after.shot is not None
    shared = run_dir / wait.after.shot.path
    shared.write_bytes(shared.read_bytes()[:-12] + b"not the page")
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem is Problem.ALTERED_FILE and bad.seq == navigate.seq
