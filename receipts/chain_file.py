"""ChainFile: the open receipts.jsonl of one run, and how a sealed record reaches the disk.

Each record is one line written with a single write before the call returns, so a killed process
leaves every record it reported readable and verifiable. The files a record vouches for are written
(atomically, and fsynced) in the same worker-thread job, just before the line, so a record never
reaches the disk before its files. Disk work runs in a worker thread so the event loop (and the Qt
window on it) never waits on the disk.

Durability against power loss: the fsync of the record's line (and of the folders the files were
renamed into) runs in an owned background task while the run goes on to its next action, instead
of blocking the call; the next record is written only after that fsync has finished (a failed one
is raised there), and `settle()` waits for it. So at most the last record is not yet on disk at any
moment (a cut last line is what resume already repairs), and the action is not held up by the disk.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from receipts.errors import RecorderClosedError
from receipts.layout import write_atomic
from receipts.models import Record
from receipts.resume import OpenChain


class ChainFile:
    """Appends sealed records to a chain opened by `receipts.resume.open_chain`; not thread-safe:
    its owner (the recorder) appends one record at a time."""

    def __init__(self, chain: OpenChain, run_id: str, *, fsync: bool = True) -> None:
        self.run_id = run_id
        self.seq = chain.seq
        self.head = chain.head
        self._fd: int | None = chain.fd
        self._fsync = fsync
        self._syncing: asyncio.Task[None] | None = None  # fsync of the last record, if still running

    def _write_line(self, line: bytes) -> None:
        if self._fd is None:
            raise RecorderClosedError(f"recorder of {self.run_id} is closed")
        start = os.lseek(self._fd, 0, os.SEEK_END)
        try:
            view = memoryview(line)
            while view:  # a regular file rarely takes less than all, but it may
                view = view[os.write(self._fd, view) :]
        except OSError:
            os.ftruncate(self._fd, start)  # never leave half a record for the next one to follow
            raise

    def _write(self, files: Sequence[tuple[Path, bytes]], line: bytes) -> None:
        """Blocking (worker thread): the files a record vouches for, then the record's line."""
        for path, data in files:
            write_atomic(path, data, fsync=self._fsync)
        self._write_line(line)

    def _sync(self, folders: set[Path]) -> None:
        """Blocking (worker thread): puts receipts.jsonl and the folders' new entries on disk."""
        if sys.platform != "win32":  # a folder cannot be opened for fsync on Windows
            for folder in folders:
                fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
                try:
                    os.fsync(fd)  # the renames that put the files in place
                finally:
                    os.close(fd)
        if self._fd is not None:
            os.fsync(self._fd)

    async def settle(self) -> None:
        """Waits for the last record's fsync; an error it met (a failing disk) is raised here."""
        task, self._syncing = self._syncing, None
        if task is not None:
            await task

    async def append(self, record: Record, line: bytes, files: Sequence[tuple[Path, bytes]] = ()) -> None:
        """Writes `files`, then `line` (the encoded `record`), and starts the fsync behind them. The
        caller has settled the previous record and sealed this one on `seq` and `head`."""
        await asyncio.to_thread(self._write, files, line)
        self.seq, self.head = record.seq, record.hash
        if self._fsync:
            folders = {path.parent for path, _ in files}
            self._syncing = asyncio.create_task(asyncio.to_thread(self._sync, folders))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the flock
            self._fd = None
