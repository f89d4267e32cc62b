"""Opening a run folder for appending: lock it, verify what is there, repair a crash-cut tail.

A resumed run (after a pause or a crash) continues the same chain. Nothing is appended to a chain
that does not verify. A last line cut short by a crash is moved aside to receipts.partial-LINE (it
was never a complete record) so the next record starts on a clean line.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import datetime

from common.moments import reached
from receipts.errors import ChainError, RunLockedError
from receipts.layout import RunFolder, write_atomic
from receipts.models import GENESIS_HASH, ActionRecord, PageState
from receipts.verify import verify

if sys.platform != "win32":
    import fcntl


@dataclass(slots=True)
class OpenChain:
    """An appendable receipts.jsonl: its file descriptor and where the chain stands."""

    fd: int
    seq: int = 0
    head: str = GENESIS_HASH
    actions: int = 0
    started_at: datetime | None = None
    last_after: PageState | None = None
    repair_note: str | None = None  # set when a crash-cut tail was moved aside


def open_chain(folder: RunFolder) -> OpenChain:
    """Blocking: call from a worker thread. Raises RunLockedError or ChainError."""
    folder.create()
    fd = os.open(folder.receipts, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        if sys.platform != "win32":
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released when fd closes
            except BlockingIOError as exc:
                raise RunLockedError(f"{folder.root} is being written by another recorder") from exc
        reached("receipts.locked")
        report = verify(folder.root, check_files=False)
        if not report.ok:
            raise ChainError(f"cannot continue {folder.receipts}: {report.summary()}")
        chain = OpenChain(fd=fd, seq=report.head_seq, head=report.head_hash)
        size = os.fstat(fd).st_size
        if report.truncated is not None:
            cut = report.truncated
            partial = os.pread(fd, cut.size, cut.offset)
            write_atomic(folder.root / f"receipts.partial-{cut.line}", partial)
            os.ftruncate(fd, cut.offset)
            os.fsync(fd)
            chain.repair_note = (
                f"resumed after a crash: line {cut.line} ({cut.size} bytes) was cut short mid-write;"
                f" moved to receipts.partial-{cut.line}"
            )
        elif size and os.pread(fd, 1, size - 1) != b"\n":
            os.write(fd, b"\n")  # a complete last record that only lacks its newline
    except BaseException:
        os.close(fd)
        raise
    for record in report.records:
        chain.started_at = chain.started_at or record.time
        if isinstance(record, ActionRecord):
            chain.actions += 1
            chain.last_after = record.after
    return chain
