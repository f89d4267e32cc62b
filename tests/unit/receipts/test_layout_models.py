"""Run folder layout (no path traversal), record models (lossless JSON) and run discovery."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from receipts.chain import compute_hash, seal
from receipts.errors import RunFolderError
from receipts.layout import RunFolder, check_run_id
from receipts.models import GENESIS_HASH, RECORD_ADAPTER, FileRef, Receipt, StateSnapshot
from receipts.recorder import JsonlRecorder
from receipts.runs import list_runs, resolve_run
from tests.unit.receipts._helpers import record_flow


@pytest.mark.parametrize("bad", ["", "..", ".hidden", "a/b", "a\\b", "../x", "x..y", "a b", "é"])
def test_unsafe_run_ids_are_refused(bad: str) -> None:
    with pytest.raises(RunFolderError):
        check_run_id(bad)


def test_refs_cannot_leave_the_run_folder(tmp_path: Path) -> None:
    folder = RunFolder.for_run(tmp_path, "run_1")
    assert folder.resolve("shots/000001-after.png") == tmp_path / "run_1" / "shots" / "000001-after.png"
    for bad in ["../secret", "shots/../../x", "/etc/passwd", "shots/", "other/x.png", "shots/a/b.png"]:
        with pytest.raises(RunFolderError):
            folder.resolve(bad)
        with pytest.raises(ValidationError):
            FileRef(path=bad, sha256="0" * 64)


async def test_every_record_round_trips_through_json(recorder: JsonlRecorder, run_dir: Path) -> None:
    await record_flow(recorder)
    await recorder.record_dialog(dialog_type="confirm", message="Sure?", accepted=False)
    await recorder.record_snapshot(StateSnapshot(label="s", url="http://h/"))
    await recorder.record_note("n", level="warning")
    receipt = await recorder.finish("SUCCESS")
    lines = (run_dir / "receipts.jsonl").read_bytes().splitlines()
    kinds = set()
    for line in lines:
        record = RECORD_ADAPTER.validate_json(line)
        kinds.add(record.kind)
        assert RECORD_ADAPTER.validate_json(RECORD_ADAPTER.dump_json(record)) == record
    assert kinds == {"action", "gate_decision", "evidence_read", "dialog", "snapshot", "note", "run_end"}
    assert Receipt.model_validate_json(receipt.model_dump_json()) == receipt


def test_seal_hashes_the_written_form() -> None:
    record = seal({"kind": "note", "seq": 1, "run_id": "r", "prev_hash": GENESIS_HASH, "text": "hi"})
    assert record.hash == compute_hash(record.model_dump(mode="json"))
    with pytest.raises(ValidationError):
        seal({"kind": "note", "seq": 1, "run_id": "r", "prev_hash": GENESIS_HASH, "text": "hi", "extra": 1})


async def test_list_and_resolve_runs(tmp_path: Path) -> None:
    for run_id in ("run_a", "run_b"):
        rec = await JsonlRecorder.open(RunFolder.for_run(tmp_path, run_id))
        await rec.record_note("x")
        await rec.finish("SUCCESS")
    (tmp_path / "not_a_run").mkdir()
    runs = list_runs(tmp_path)
    assert {r.run_id for r in runs} == {"run_a", "run_b"}
    assert all(r.status == "SUCCESS" and r.records == 2 for r in runs)
    assert resolve_run("run_a", tmp_path).root == tmp_path / "run_a"
    assert resolve_run(str(tmp_path / "run_b")).run_id == "run_b"
    with pytest.raises(RunFolderError):
        resolve_run("not_a_run", tmp_path)
    with pytest.raises(RunFolderError):
        resolve_run("../run_a", tmp_path / "run_b")
