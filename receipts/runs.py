"""Finding runs: list the run folders of a runs dir and resolve a RUN argument (id or path)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from common.bounded_read import RECEIPTS_BYTES
from receipts.errors import RunFolderError
from receipts.layout import RunFolder, check_run_id


@dataclass(frozen=True, slots=True)
class RunInfo:
    run_id: str
    folder: RunFolder
    status: str | None
    records: int | None
    modified: datetime


def _info(folder: RunFolder) -> RunInfo:
    meta = folder.read_run_json()
    receipt = meta.get("receipt") if isinstance(meta.get("receipt"), dict) else {}
    status = (receipt or {}).get("status")
    records = (receipt or {}).get("records")
    paths = [p for p in (folder.receipts, folder.run_json) if p.exists()]
    mtime = max(p.stat().st_mtime for p in paths)
    if not isinstance(status, str) and folder.receipts.exists():
        # never sealed: the process was killed mid-run; what it recorded is still there to count
        status, records = "INTERRUPTED", _count_records(folder.receipts)
    return RunInfo(
        run_id=folder.run_id,
        folder=folder,
        status=status if isinstance(status, str) else None,
        records=records if isinstance(records, int) else None,
        modified=datetime.fromtimestamp(mtime, UTC),
    )


def _count_records(receipts: Path) -> int:
    """Non-blank lines, read in blocks up to the receipts' size limit (a line may be of any length)."""
    count, seen, pending = 0, 0, False
    with receipts.open("rb") as fh:
        while seen < RECEIPTS_BYTES and (block := fh.read(1 << 16)):
            seen += len(block)
            for line in block.split(b"\n")[:-1]:
                count += bool(line.strip()) or pending
                pending = False
            pending = pending or bool(block.rsplit(b"\n", 1)[-1].strip())
    return count + pending


def list_runs(runs_dir: Path | str) -> list[RunInfo]:
    """Run folders (those with receipts.jsonl or run.json), newest first."""
    root = Path(runs_dir)
    if not root.is_dir():
        return []
    folders = [RunFolder(p) for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")]
    runs = [_info(f) for f in folders if f.exists()]
    return sorted(runs, key=lambda r: r.modified, reverse=True)


def resolve_run(ref: str | Path, runs_dir: Path | str | None = None) -> RunFolder:
    """`ref` is a path to a run folder, or a run id looked up in `runs_dir`."""
    path = Path(ref)
    if path.is_dir() and RunFolder(path).exists():
        return RunFolder(path.resolve())
    if runs_dir is not None and isinstance(ref, str) and "/" not in ref and "\\" not in ref:
        folder = RunFolder.for_run(Path(runs_dir), check_run_id(ref))
        if folder.exists():
            return folder
    where = f" in {runs_dir}" if runs_dir is not None else ""
    raise RunFolderError(f"no run folder {str(ref)!r}{where}")
