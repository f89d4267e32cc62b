"""JsonlRecorder: screenshot reuse, resume, locking, concurrency and what lands in run.json."""

from __future__ import annotations

import asyncio
import json
import zipfile
from pathlib import Path

import pytest

from browser.models import ActionOutcome, OutcomeStatus, PageCapture
from receipts.errors import ChainError, RecorderClosedError, RunFolderError, RunLockedError
from receipts.interface import Capture, Recorder
from receipts.layout import RunFolder
from receipts.models import ActionRecord, NoteRecord, StateSnapshot
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor
from receipts.verify import verify
from tests.unit.receipts._helpers import SECRET, cap, dom, png

CLICK = {"kind": "click", "target": {"text": "Go"}}


def shot_files(run_dir: Path) -> list[str]:
    return sorted(p.name for p in (run_dir / "shots").iterdir())


async def test_before_shot_reused_when_dom_and_url_unchanged(recorder: JsonlRecorder, run_dir: Path) -> None:
    first = await recorder.record_action(
        action=CLICK, outcome={"status": "ok"}, before=cap("http://h/a", "d0", (1, 1, 1)),
        after=cap("http://h/a", "d1", (2, 2, 2)),
    )  # fmt: skip
    assert recorder.needs_before_shot("http://h/a", dom("d1")) is False
    assert recorder.needs_before_shot("http://h/a", dom("d2")) is True
    assert recorder.needs_before_shot("http://h/other", dom("d1")) is True
    # The caller may skip the before screenshot entirely when told it is not needed.
    second = await recorder.record_action(
        action=CLICK, outcome={"status": "ok"}, before=cap("http://h/a", "d1", None),
        after=cap("http://h/a", "d2", (3, 3, 3)),
    )  # fmt: skip
    assert second.before_shot_reused
    assert second.before.shot == first.after.shot
    # Same DOM hash but another URL: a new before-shot is written.
    third = await recorder.record_action(
        action=CLICK, outcome={"status": "ok"}, before=cap("http://h/b", "d2", (4, 4, 4)),
        after=cap("http://h/b", "d3", (5, 5, 5)),
    )  # fmt: skip
    assert not third.before_shot_reused
    assert third.before.shot is not None and third.before.shot.path == "shots/000003-before.png"
    assert shot_files(run_dir) == [
        "000001-after.png", "000001-before.png", "000002-after.png", "000003-after.png", "000003-before.png",
    ]  # fmt: skip
    assert verify(run_dir).ok


async def test_no_reuse_after_an_action_without_after_shot(recorder: JsonlRecorder) -> None:
    await recorder.record_action(
        action=CLICK, outcome={"status": "ok"}, before=cap("http://h/a", "d0", (1, 1, 1)),
        after=cap("http://h/a", "d1", None),
    )  # fmt: skip
    assert recorder.needs_before_shot("http://h/a", dom("d1"))


async def test_browser_page_capture_and_outcome_fit_the_protocols(recorder: JsonlRecorder) -> None:
    before = PageCapture(url="http://h/a", title="A", dom_hash=dom("a"), screenshot=png((9, 9, 9)))
    outcome = ActionOutcome(
        kind="click", status=OutcomeStatus.NOT_FOUND, message="no Go", candidates=["Gone"]
    )
    as_protocol: Recorder = recorder  # mypy checks that JsonlRecorder implements the protocol
    record = await as_protocol.record_action(action=CLICK, outcome=outcome, before=before, after=before)
    assert record.outcome.status == "not_found"
    assert record.outcome.candidates == ["Gone"]
    assert record.before.title == "A" and record.after.shot is not None
    dumped = await recorder.record_action(action=CLICK, outcome=outcome.model_dump(mode="json"))
    assert dumped.outcome == record.outcome


async def test_resume_continues_the_same_chain(run_dir: Path) -> None:
    rec = await JsonlRecorder.open(run_dir)
    await rec.record_note("one")
    await rec.record_action(
        action=CLICK, outcome={"status": "ok"}, before=None, after=cap("http://h/a", "d1", (1, 2, 3))
    )
    receipt = await rec.finish("NEEDS_CONFIRMATION", reason="gate")
    assert receipt.records == 3 and receipt.actions == 1

    resumed = await JsonlRecorder.open(run_dir)
    assert resumed.seq == 3 and resumed.head_hash == receipt.head_hash
    assert not resumed.needs_before_shot("http://h/a", dom("d1"))  # reuse survives a resume
    note = await resumed.record_note("two")
    assert note.seq == 4 and note.prev_hash == receipt.head_hash
    final = await resumed.finish("SUCCESS")
    assert final.records == 5 and final.actions == 1
    report = verify(run_dir)
    assert report.ok and report.records_checked == 5
    assert json.loads(RunFolder(run_dir).run_json.read_text())["receipt"]["head_hash"] == final.head_hash


async def test_resume_moves_a_crash_cut_tail_aside(run_dir: Path) -> None:
    rec = await JsonlRecorder.open(run_dir)
    await rec.record_note("kept")
    await rec.aclose()
    folder = RunFolder(run_dir)
    with folder.receipts.open("ab") as fh:
        fh.write(b'{"kind":"note","te')
    resumed = await JsonlRecorder.open(run_dir)
    await resumed.record_note("after the crash")
    await resumed.aclose()
    report = verify(run_dir)
    assert report.ok and report.truncated is None
    texts = [r.text for r in report.records if isinstance(r, NoteRecord)]
    assert texts[0] == "kept" and "cut short" in texts[1] and texts[2] == "after the crash"
    assert (run_dir / "receipts.partial-2").read_bytes() == b'{"kind":"note","te'


async def test_resume_refuses_a_tampered_chain(run_dir: Path) -> None:
    rec = await JsonlRecorder.open(run_dir)
    await rec.record_note("original")
    await rec.record_note("second")
    await rec.aclose()
    folder = RunFolder(run_dir)
    folder.receipts.write_bytes(folder.receipts.read_bytes().replace(b"original", b"forged!!"))
    with pytest.raises(ChainError, match="edited"):
        await JsonlRecorder.open(run_dir)


async def test_second_writer_is_refused(recorder: JsonlRecorder, run_dir: Path) -> None:
    with pytest.raises(RunLockedError):
        await JsonlRecorder.open(run_dir)
    await recorder.aclose()
    again = await JsonlRecorder.open(run_dir)  # the lock goes with the first recorder
    await again.aclose()


async def test_recording_after_finish_is_refused(recorder: JsonlRecorder) -> None:
    await recorder.finish("SUCCESS")
    with pytest.raises(RecorderClosedError):
        await recorder.record_note("late")


async def test_concurrent_tasks_produce_one_valid_chain(recorder: JsonlRecorder, run_dir: Path) -> None:
    async def act(i: int) -> ActionRecord:
        return await recorder.record_action(
            action={"kind": "scroll", "direction": "down"}, outcome={"status": "ok"},
            before=cap(f"http://h/{i}", f"b{i}", (i, 0, 0)), after=cap(f"http://h/{i}", f"a{i}", (0, i, 0)),
        )  # fmt: skip

    results = await asyncio.gather(
        *(act(i) for i in range(20)), *(recorder.record_note(f"n{i}") for i in range(20))
    )
    assert sorted(r.seq for r in results) == list(range(1, 41))
    report = verify(run_dir)
    assert report.ok and report.records_checked == 40 and report.files_checked == 40


async def test_snapshot_file_is_vouched_for(recorder: JsonlRecorder, run_dir: Path) -> None:
    record = await recorder.record_snapshot(
        StateSnapshot(label="after login / home", url="http://h/home", title="Home", text_excerpt="Welcome")
    )
    assert record.file.path == "snapshots/000001-after-login-home.json"
    stored = StateSnapshot.model_validate_json((run_dir / record.file.path).read_text())
    assert stored.run_id == "run_test01" and stored.text_excerpt == "Welcome"
    (run_dir / record.file.path).write_text(
        stored.model_copy(update={"text_excerpt": "edited"}).model_dump_json()
    )
    bad = verify(run_dir).first_bad
    assert bad is not None and bad.problem.value == "altered_file"


async def test_finish_records_final_state_trace_and_run_json(run_dir: Path) -> None:
    rec = await JsonlRecorder.open(run_dir, redactor=Redactor([SECRET]))
    await rec.write_run_meta({"task": "buy nothing", "plan": {"plan_id": "plan_1"}})
    with zipfile.ZipFile(RunFolder(run_dir).trace, "w") as zf:
        zf.writestr("trace.trace", f'{{"value":"{SECRET}"}}')
        zf.writestr("resources/shot.jpeg", b"\xff\xd8binary")
    receipt = await rec.finish(
        "SUCCESS", reason="done", final_state=Capture("http://h/end", "End", dom("end"), png((7, 7, 7)))
    )
    meta = json.loads(RunFolder(run_dir).run_json.read_text())
    assert meta["task"] == "buy nothing" and meta["plan"] == {"plan_id": "plan_1"}
    assert meta["receipt"]["records"] == 1 and meta["receipt"]["status"] == "SUCCESS"
    assert receipt.final_state is not None and receipt.final_state.shot is not None
    with zipfile.ZipFile(RunFolder(run_dir).trace) as zf:
        assert SECRET not in zf.read("trace.trace").decode()
        assert zf.read("resources/shot.jpeg") == b"\xff\xd8binary"
    report = verify(run_dir)
    assert report.ok and report.files_checked == 2  # trace.zip and the final screenshot


async def test_sensitive_values_hidden_but_placeholders_kept(recorder: JsonlRecorder) -> None:
    typed = await recorder.record_action(
        action={"kind": "fill", "target": {"placeholder": "PIN code"}, "value": "4821"},
        outcome={"status": "ok"},
    )
    assert typed.value == "[REDACTED]" and typed.action["value"] == "[REDACTED]"
    planned = await recorder.record_action(
        action={"kind": "fill", "target": {"label": "Password"}, "value": "{{secret:site_pw}}"},
        outcome={"status": "ok"},
    )
    assert planned.value == "{{secret:site_pw}}"  # a placeholder is no secret and tells QA which one
    marked = await recorder.record_action(
        action={"kind": "select", "target": {"label": "Security question"}, "value": ["pet", "first car"]},
        outcome={"status": "ok"}, sensitive=True,
    )  # fmt: skip
    assert marked.value == ["[REDACTED]", "[REDACTED]"]
    note = await recorder.record_note("the answer was first car")
    assert note.text == "the answer was [REDACTED]"  # a hidden value is a secret from then on


async def test_unsafe_folder_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RunFolderError):
        await JsonlRecorder.open(tmp_path / "bad name")


async def test_a_failed_background_fsync_is_raised_by_the_next_call(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = await JsonlRecorder.open(run_dir)

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr("receipts.chain_file.os.fsync", failing_fsync)
    await rec.record_note("written, never on disk")  # its fsync runs behind the call, and fails
    with pytest.raises(OSError, match="Input/output"):
        await rec.record_note("not written after a failed fsync")
    monkeypatch.undo()
    await rec.aclose()
    report = verify(run_dir)
    assert report.ok and report.records_checked == 1
