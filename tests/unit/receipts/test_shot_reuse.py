"""An action that left the picture as it was points its after-state at the before-shot's file.

The reference is a FileRef like any other (path + sha256 inside the sealed record), so the chain, the
signature and verify cover it; an action whose URL, DOM hash, scroll, viewport or focus changed gets
an after-shot of its own.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from receipts.attest import Verdict, check_run
from receipts.interface import Capture
from receipts.recorder import JsonlRecorder
from receipts.report import export_report
from receipts.verify import Problem, verify
from tests.unit.receipts._helpers import cap

WAIT = {"kind": "wait", "text": "Ready"}
TOP = "0,0,1280,800,1 focus 1.0"


def at(url: str, dom_text: str, color: tuple[int, int, int] | None, view: str | None = TOP) -> Capture:
    return replace(cap(url, dom_text, color), view=view)


def shots(run_dir: Path) -> list[str]:
    return sorted(p.name for p in (run_dir / "shots").iterdir())


async def test_unchanged_page_after_shot_is_the_before_file_and_verifies(
    recorder: JsonlRecorder, run_dir: Path
) -> None:
    record = await recorder.record_action(
        action=WAIT, outcome={"status": "ok"}, before=at("http://h/a", "d1", (1, 1, 1)),
        after=at("http://h/a", "d1", (1, 1, 2)),  # a blinking caret: same state, other pixels
    )  # fmt: skip
    assert record.after_shot_reused and not record.before_shot_reused
    assert record.after.shot == record.before.shot
    assert record.after.shot is not None and record.after.shot.path == "shots/000001-before.png"
    assert record.after.dom_hash == record.before.dom_hash
    assert shots(run_dir) == ["000001-before.png"]
    await recorder.finish("SUCCESS")
    assert verify(run_dir).ok
    assert "after (same as before: nothing visible changed)" in export_report(run_dir).read_text("utf-8")
    assert check_run(run_dir).verdict is Verdict.OK  # the signed head covers the reference


async def test_a_reference_to_an_earlier_records_file_verifies_and_tampering_is_caught(
    recorder: JsonlRecorder, run_dir: Path
) -> None:
    first = await recorder.record_action(
        action={"kind": "click", "target": {"text": "Go"}}, outcome={"status": "ok"},
        before=at("http://h/a", "d0", (1, 1, 1)), after=at("http://h/a", "d1", (2, 2, 2)),
    )  # fmt: skip
    # The next action starts where the first ended (before reused) and changes nothing (after reused).
    second = await recorder.record_action(
        action=WAIT, outcome={"status": "ok"}, before=at("http://h/a", "d1", None),
        after=at("http://h/a", "d1", (2, 2, 3)),
    )  # fmt: skip
    assert second.before_shot_reused and second.after_shot_reused
    assert second.before.shot == second.after.shot == first.after.shot
    assert shots(run_dir) == ["000001-after.png", "000001-before.png"]
    await recorder.finish("SUCCESS")
    assert verify(run_dir).ok
    shot = run_dir / "shots" / "000001-after.png"
    shot.write_bytes(shot.read_bytes()[:-8] + b"tampered")
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem is Problem.ALTERED_FILE and bad.seq == 1
    shot.unlink()
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem is Problem.MISSING_FILE


async def test_an_action_that_changed_the_picture_gets_its_own_after_shot(
    recorder: JsonlRecorder, run_dir: Path
) -> None:
    changes = {
        "dom": at("http://h/a", "d2", (3, 3, 3)),
        "url": at("http://h/b", "d1", (3, 3, 3)),
        "scroll": at("http://h/a", "d1", (3, 3, 3), view="0,600,1280,800,1 focus 1.0"),
        "focus": at("http://h/a", "d1", (3, 3, 3), view="0,0,1280,800,1 focus 1.1.4"),
        "unknown view": at("http://h/a", "d1", (3, 3, 3), view=None),
    }
    for n, (change, after) in enumerate(changes.items(), start=1):
        before = at("http://h/a", "d1", (n, 9, 9))
        record = await recorder.record_action(
            action=WAIT, outcome={"status": "ok"}, before=before, after=after
        )
        assert not record.after_shot_reused, change
        assert record.after.shot is not None and record.after.shot.path == f"shots/{record.seq:06d}-after.png"
        assert record.after.shot != record.before.shot, change
    # A capture that could not read the view (the main frame did not answer) never shares a file.
    unknown = at("http://h/a", "d9", (7, 7, 7), view=None)
    later = at("http://h/a", "d9", (8, 8, 8), view=None)
    record = await recorder.record_action(action=WAIT, outcome={"status": "ok"}, before=unknown, after=later)
    assert not record.after_shot_reused and record.after.shot != record.before.shot
    assert verify(run_dir).ok


async def test_recorded_shot_names_the_last_after_file_only_for_the_same_picture(
    recorder: JsonlRecorder, run_dir: Path
) -> None:
    assert recorder.recorded_shot(at("http://h/a", "d1", None)) is None  # nothing recorded yet
    await recorder.record_action(
        action=WAIT, outcome={"status": "ok"}, before=at("http://h/a", "d0", (1, 1, 1)),
        after=at("http://h/a", "d1", (2, 2, 2)),
    )  # fmt: skip
    assert recorder.recorded_shot(at("http://h/a", "d1", None)) == (run_dir / "shots" / "000001-after.png")
    assert recorder.recorded_shot(at("http://h/a", "d2", None)) is None
    assert recorder.recorded_shot(at("http://h/b", "d1", None)) is None
    assert recorder.recorded_shot(at("http://h/a", "d1", None, view="0,300,1280,800,1 focus 1.0")) is None
    assert recorder.recorded_shot(at("http://h/a", "d1", None, view=None)) is None


async def test_a_resumed_recorder_reuses_no_picture_for_a_gate(run_dir: Path) -> None:
    rec = await JsonlRecorder.open(run_dir)
    await rec.record_action(
        action=WAIT, outcome={"status": "ok"}, before=None, after=at("http://h/a", "d1", (2, 2, 2))
    )
    await rec.finish("NEEDS_CONFIRMATION")
    resumed = await JsonlRecorder.open(run_dir)
    assert resumed.recorded_shot(at("http://h/a", "d1", None)) is None  # the view is not on disk
    await resumed.aclose()
