"""A run's final state named by a picture the run folder already holds (`finish(final_shot=...)`):
the last after-shot's own ref, or a second name in shots/ for another file of the folder (a read's
picture). The run_end record vouches for it like any file: the chain, the signature and verify
cover it, and changing it is caught."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from receipts.attest import Verdict, check_run
from receipts.errors import ReceiptsError
from receipts.layout import RunFolder
from receipts.models import RunEndRecord
from receipts.recorder import JsonlRecorder
from receipts.report import read_records
from receipts.verify import Problem, verify
from tests.unit.receipts._helpers import cap, png

TOP = "0,0,1280,800,1 focus 1.0"


def run_end(run_dir: Path) -> RunEndRecord:
    return next(r for _, r in read_records(RunFolder(run_dir)) if isinstance(r, RunEndRecord))


async def test_the_last_after_shot_is_named_again(recorder: JsonlRecorder, run_dir: Path) -> None:
    after = replace(cap("http://h/a", "d1", (2, 2, 2)), view=TOP)
    record = await recorder.record_action(
        action={"kind": "click", "target": {"text": "Go"}}, outcome={"status": "ok"},
        before=cap("http://h/a", "d0", (1, 1, 1)), after=after,
    )  # fmt: skip
    state = replace(after, screenshot=None)
    shown = recorder.recorded_shot(state)
    assert shown is not None and record.after.shot is not None
    await recorder.finish("SUCCESS", final_state=state, final_shot=shown)
    final = run_end(run_dir).final_state
    assert final is not None and final.shot == record.after.shot
    assert sorted(p.name for p in (run_dir / "shots").iterdir()) == ["000001-after.png", "000001-before.png"]
    assert check_run(run_dir).verdict is Verdict.OK


async def test_another_picture_of_the_folder_gets_a_second_name_and_is_vouched_for(
    recorder: JsonlRecorder, run_dir: Path
) -> None:
    read = run_dir / "reads" / "read-1.png"
    read.parent.mkdir()
    read.write_bytes(png((3, 3, 3)))
    state = replace(cap("http://h/read", "d9"), view=TOP)
    await recorder.finish("SUCCESS", final_state=state, final_shot=read)
    final = run_end(run_dir).final_state
    assert final is not None and final.shot is not None and final.shot.path == "shots/000001-final.png"
    assert (run_dir / final.shot.path).samefile(read) and final.dom_hash == state.dom_hash
    assert check_run(run_dir).verdict is Verdict.OK
    read.write_bytes(png((4, 4, 4)))  # one file under two names: changing either is caught
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem is Problem.ALTERED_FILE and bad.seq == 1


async def test_a_picture_outside_the_run_folder_is_refused(recorder: JsonlRecorder, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.png"
    elsewhere.write_bytes(png((5, 5, 5)))
    with pytest.raises(ReceiptsError, match="not in the run folder"):
        await recorder.finish("SUCCESS", final_state=cap("http://h/a", "d1"), final_shot=elsewhere)
