"""`check_run` reads each file of a run once: the chain check's digests serve the signature check."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from receipts import regular
from receipts.attest import Verdict, check_run
from receipts.recorder import JsonlRecorder
from tests.unit.receipts._helpers import record_flow


async def test_each_screenshot_is_hashed_once(
    recorder: JsonlRecorder, run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await record_flow(recorder)
    await recorder.finish("SUCCESS")
    reads: Counter[str] = Counter()
    real_open = regular._open  # every file verification reads is opened here (regular files only)

    def counting_open(path: Path, shown: str) -> int:
        if path.is_relative_to(run_dir):
            reads[path.relative_to(run_dir).as_posix()] += 1
        return real_open(path, shown)

    monkeypatch.setattr(regular, "_open", counting_open)
    result = check_run(run_dir)
    monkeypatch.undo()
    assert result.verdict is Verdict.OK, result.summary()
    shots = {path: n for path, n in reads.items() if path.startswith("shots/")}
    assert len(shots) == 5  # the first before-shot and four after-shots (each later before reuses one)
    assert set(shots.values()) == {1}, shots
