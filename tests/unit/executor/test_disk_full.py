"""Every shape a full disk takes is recognised: the OS's, SQLite's, and either wrapped by the store."""

from __future__ import annotations

import errno
import sqlite3

from executor.store.checkpoint_refs import CheckpointStoreError
from executor.store.disk_full import disk_full, sentence


def _wrapped(inner: BaseException) -> CheckpointStoreError:
    try:
        raise CheckpointStoreError("checkpoint store x failed: " + str(inner)) from inner
    except CheckpointStoreError as exc:
        return exc


def test_full_disk_shapes_are_recognised_and_others_are_not() -> None:
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        assert disk_full(OSError(code, "no room", "/runs/x/receipts.jsonl"))
    assert disk_full(_wrapped(sqlite3.OperationalError("database or disk is full")))
    assert not disk_full(OSError(errno.EACCES, "Permission denied"))
    assert not disk_full(_wrapped(sqlite3.OperationalError("database is locked")))
    assert not disk_full(None)


def test_the_sentence_names_the_file_and_the_resume_command() -> None:
    text = sentence(OSError(errno.ENOSPC, "No space left on device", "/runs/r/shot.png"), "run_1")
    assert "disk is full while writing /runs/r/shot.png" in text and "`waypost resume run_1`" in text
