"""verify(): an untouched run passes; each kind of tampering is named at the first bad record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from receipts.chain import canonical_json, compute_hash
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.verify import Problem, verify
from tests.unit.receipts._helpers import record_flow


def lines(run_dir: Path) -> list[bytes]:
    return RunFolder(run_dir).receipts.read_bytes().splitlines(keepends=True)


def write_lines(run_dir: Path, new: list[bytes]) -> None:
    RunFolder(run_dir).receipts.write_bytes(b"".join(new))


def rehash(obj: dict[str, object]) -> bytes:
    obj = {k: v for k, v in obj.items() if k != "hash"}
    obj["hash"] = compute_hash(obj)
    return canonical_json(obj) + b"\n"


@pytest.fixture
async def flow(recorder: JsonlRecorder, run_dir: Path) -> Path:
    """7 records: gate (1), four actions (2-5), evidence (6), run_end (7)."""
    await record_flow(recorder)
    await recorder.finish("SUCCESS")
    return run_dir


def test_untouched_run_verifies(flow: Path) -> None:
    report = verify(flow)
    assert report.ok, report.summary()
    assert report.records_checked == 7
    assert report.files_checked == 8  # two refs per action; three before-refs reuse an after-shot
    assert len(list((flow / "shots").iterdir())) == 5
    assert report.finished
    assert report.first_bad is None and report.truncated is None


def test_edited_line_is_the_first_bad_record(flow: Path) -> None:
    old = lines(flow)
    old[2] = old[2].replace(b'"duration_ms":12.5', b'"duration_ms":99.5')
    write_lines(flow, old)
    report = verify(flow)
    assert not report.ok
    assert report.first_bad is not None
    assert (report.first_bad.line, report.first_bad.seq, report.first_bad.problem) == (3, 3, Problem.EDITED)
    assert report.records_checked == 2
    data = json.loads(json.dumps(report.as_dict()))
    assert data["first_bad"] == {"line": 3, "seq": 3, "problem": "edited", "detail": report.first_bad.detail}
    assert data["ok"] is False and data["summary"].startswith("FAILED at line 3 (seq 3): edited")


def test_deleted_line(flow: Path) -> None:
    old = lines(flow)
    del old[3]  # seq 4
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (4, 5, Problem.DELETED)
    assert "seq 4" in bad.detail


def test_deleted_first_line(flow: Path) -> None:
    write_lines(flow, lines(flow)[1:])
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (1, 2, Problem.DELETED)


def test_deleted_last_line_is_caught_through_run_json(flow: Path) -> None:
    write_lines(flow, lines(flow)[:-1])
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (7, 7, Problem.TAIL_MISSING)


def test_duplicated_line_is_an_insertion(flow: Path) -> None:
    old = lines(flow)
    old.insert(3, old[2])
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (4, 3, Problem.INSERTED)
    assert "duplicate of line 3" in bad.detail


def test_forged_insertion_with_consistent_hashes(flow: Path) -> None:
    """A forger who fixes seq, prev_hash and hash of the inserted record is still found."""
    old = lines(flow)
    prev = json.loads(old[1])
    forged = json.loads(old[2]) | {"seq": 3, "prev_hash": prev["hash"], "step_id": "forged"}
    old.insert(2, rehash(forged))
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (3, 3, Problem.INSERTED)


def test_foreign_line_inserted(flow: Path) -> None:
    old = lines(flow)
    stranger = json.loads(old[4]) | {"seq": 3, "prev_hash": "1" * 64}
    old.insert(2, rehash(stranger))
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (3, 3, Problem.INSERTED)


def test_replaced_record_rehashed(flow: Path) -> None:
    old = lines(flow)
    replaced = json.loads(old[2]) | {"duration_ms": 1.0}
    old[2] = rehash(replaced)
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (3, 3, Problem.REPLACED)


def test_reordered_lines(flow: Path) -> None:
    old = lines(flow)
    old[2], old[3] = old[3], old[2]
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.seq, bad.problem) == (3, 4, Problem.REORDERED)


def test_missing_screenshot(flow: Path) -> None:
    (flow / "shots" / "000004-after.png").unlink()
    report = verify(flow)
    assert report.first_bad is not None
    assert (report.first_bad.line, report.first_bad.problem) == (4, Problem.MISSING_FILE)
    assert "shots/000004-after.png" in report.first_bad.detail
    assert verify(flow, check_files=False).ok  # the chain itself is intact


def test_altered_screenshot(flow: Path) -> None:
    shot = flow / "shots" / "000003-after.png"
    data = bytearray(shot.read_bytes())
    data[-20] ^= 0xFF
    shot.write_bytes(bytes(data))
    bad = verify(flow).first_bad
    assert bad is not None
    # seq 3's after-shot is also seq 4's before-shot; seq 3 is the first record vouching for it.
    assert (bad.line, bad.seq, bad.problem) == (3, 3, Problem.ALTERED_FILE)


def test_unparseable_middle_line(flow: Path) -> None:
    old = lines(flow)
    old[4] = b"{not json\n"
    write_lines(flow, old)
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.problem) == (5, Problem.UNPARSEABLE)


async def test_truncated_last_line_is_a_crash_not_tampering(recorder: JsonlRecorder, run_dir: Path) -> None:
    await record_flow(recorder)
    await recorder.aclose()
    full = RunFolder(run_dir).receipts.read_bytes()
    partial = b'{"action":{"kind":"click"},"after":{"dom_ha'
    RunFolder(run_dir).receipts.write_bytes(full + partial)
    report = verify(run_dir)
    assert report.ok, report.summary()
    assert report.records_checked == 6
    assert report.truncated is not None
    assert (report.truncated.line, report.truncated.size, report.truncated.offset) == (
        7,
        len(partial),
        len(full),
    )
    assert "cut short" in report.summary()
    assert not report.finished


def test_missing_receipts_file(tmp_path: Path) -> None:
    report = verify(tmp_path)
    assert not report.ok
    assert report.first_bad is not None and report.first_bad.problem is Problem.NO_RECEIPTS


def test_record_of_another_run(flow: Path, tmp_path: Path) -> None:
    old = lines(flow)
    first = json.loads(old[0]) | {"run_id": "someone_else"}
    old[0] = rehash(first)
    # re-link the next record so only the run id is wrong
    second = json.loads(old[1]) | {"prev_hash": json.loads(old[0])["hash"]}
    old[1] = rehash(second)
    write_lines(flow, old[:2])
    bad = verify(flow).first_bad
    assert bad is not None
    assert (bad.line, bad.problem) == (2, Problem.INVALID)
