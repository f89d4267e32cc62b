"""A run folder's end record and the picture of its final state, read as `waypost verify` reads
them: the final picture may be a file the run took earlier (the last after-shot, a read's picture)
named again by the run_end record, so tests look it up there instead of globbing "*final.png"."""

from __future__ import annotations

from pathlib import Path

from receipts.layout import RunFolder
from receipts.models import RunEndRecord
from receipts.report import read_records


def run_end(run_dir: Path) -> RunEndRecord:
    records = [r for _, r in read_records(RunFolder(run_dir)) if isinstance(r, RunEndRecord)]
    assert len(records) == 1
    return records[0]


def final_picture(run_dir: Path) -> Path:
    final = run_end(run_dir).final_state
    assert final is not None and final.shot is not None, "the run ended without a final picture"
    return run_dir / final.shot.path
