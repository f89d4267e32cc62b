"""Property: no run whose receipts hold a non-ok, non-optional action ends SUCCESS.

Generated action lists meet generated outcomes (ok, not found, ambiguous, timeout, blocked, error)
through the real conductor, loop and recorder on a scripted driver. A record that was retried (the
same action recorded again right after it) is superseded by its retry; every other record that did
not end ok must be optional, or the run is not SUCCESS. The check reads the receipts themselves.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from browser.models import OutcomeStatus
from executor.models import RunStatus
from receipts.layout import RunFolder
from receipts.models import ActionRecord, RunEndRecord
from receipts.report import read_records
from tests.support.loop_harness import LoopHarness, plan_of
from tests.unit.act._scripted import ScriptedDriver

FORM = [
    {"tag": "button", "role": "button", "name": "Next"},
    {"tag": "input", "role": "textbox", "name": "Email"},
]
KINDS = [
    {"kind": "click", "target": {"text": "Next"}},
    {"kind": "fill", "target": {"label": "Email"}, "value": "a@b.co"},
    {"kind": "click", "target": {"index": 0}},
]
actions = st.lists(st.tuples(st.sampled_from(range(len(KINDS))), st.booleans()), min_size=1, max_size=5)
outcomes = st.lists(st.sampled_from(list(OutcomeStatus)), max_size=12)


def _retried(record: ActionRecord, following: ActionRecord | None) -> bool:
    if following is None:
        return False
    keys = ("kind", "value")
    same = all(record.action.get(k) == following.action.get(k) for k in keys)
    return (
        same and (record.action.get("target") or {}).keys() == (following.action.get("target") or {}).keys()
    )


async def _run(
    chosen: list[tuple[int, bool]], scripted: list[OutcomeStatus]
) -> tuple[RunStatus, list[Any], str]:
    with tempfile.TemporaryDirectory() as tmp:
        harness = LoopHarness(Path(tmp))
        harness.driver = ScriptedDriver(FORM)
        harness.driver.outcomes = [OutcomeStatus.OK, *scripted]  # the start page always opens
        listed = [{**KINDS[i], **({"optional": True} if optional else {})} for i, optional in chosen]
        step = {
            "step_id": "a1",
            "type": "ACT",
            "inputs": {"url": "http://127.0.0.1:9/form", "actions": listed},
        }
        bundle = await harness.run(plan_of(step, blocked=[]))
        records = [r for _, r in read_records(RunFolder(Path(tmp) / "runs" / bundle.run_id))]
        end = next(r for r in records if isinstance(r, RunEndRecord))
        assert end.reason == bundle.reason  # the receipts and the bundle say the same thing
        return bundle.run_status, [r for r in records if isinstance(r, ActionRecord)], bundle.reason


@settings(max_examples=120, deadline=None)
@given(chosen=actions, scripted=outcomes)
def test_no_unmet_action_in_the_receipts_of_a_successful_run(
    chosen: list[tuple[int, bool]], scripted: list[OutcomeStatus]
) -> None:
    status, records, reason = asyncio.run(_run(chosen, scripted))
    if status is not RunStatus.SUCCESS:
        assert reason  # a run that did not succeed says why
        return
    for n, record in enumerate(records):
        following = records[n + 1] if n + 1 < len(records) else None
        if record.outcome.status == "ok" or record.action.get("optional") or _retried(record, following):
            continue
        raise AssertionError(
            f"SUCCESS with an unmet action in the receipts: {record.action} {record.outcome}"
        )
