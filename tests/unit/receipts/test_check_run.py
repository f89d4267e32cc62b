"""`check_run` reads each file of a run once: the chain check's digests serve the signature check."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from receipts.attest import Verdict, check_run
from receipts.recorder import JsonlRecorder
from tests.unit.receipts._helpers import record_flow


async def test_each_screenshot_is_hashed_once(
    recorder: JsonlRecorder, run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await record_flow(recorder)
    await recorder.finish("SUCCESS")
    reads: Counter[str] = Counter()
    real_open = Path.open

    def counting_open(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "b" in mode and self.is_relative_to(run_dir):
            reads[self.relative_to(run_dir).as_posix()] += 1
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counting_open)
    result = check_run(run_dir)
    monkeypatch.undo()
    assert result.verdict is Verdict.OK, result.summary()
    shots = {path: n for path, n in reads.items() if path.startswith("shots/")}
    assert len(shots) == 5  # the first before-shot and four after-shots (each later before reuses one)
    assert set(shots.values()) == {1}, shots
