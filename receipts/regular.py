"""Reading a run folder's files for verification: regular files only, never followed, bounded.

A run folder can come from anyone (`receipts verify PATH`), and a checker must not be steered by
it: a screenshot replaced by a symlink to /dev/zero or a FIFO made `receipts verify` read forever.
So every file verification reads is opened without following a symlink and without blocking on a
FIFO, and refused unless it is a regular file of at most MAX_FILE_BYTES (what a run writes is far
smaller: a screenshot is tens of KB, a long run's receipts.jsonl a few MB). The refusal is a
NotRegular error whose message is the sentence the verdict shows.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from receipts.errors import RunFolderError

#: The largest file verification reads; anything bigger is refused, not read.
MAX_FILE_BYTES = 256 * 1024 * 1024
_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
)


class NotRegular(RunFolderError):
    """A file verification would read is a symlink, a FIFO, a device or too large."""


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symlink"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def _open(path: Path, shown: str) -> int:
    """A descriptor on `path` once it is known to be a regular file within the bound."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        if path.is_symlink():
            raise NotRegular(f"{shown} is a symlink, not a file the run wrote") from exc
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{shown} is {_kind(info.st_mode)}, not a file the run wrote")
        if info.st_size > MAX_FILE_BYTES:
            raise NotRegular(f"{shown} is larger than {MAX_FILE_BYTES >> 20} MiB, more than a run writes")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(path: Path, shown: str | None = None) -> bytes:
    """The bytes of a regular file (FileNotFoundError when absent, NotRegular otherwise refused)."""
    with os.fdopen(_open(path, shown or path.name), "rb") as fh:
        return fh.read(MAX_FILE_BYTES + 1)[:MAX_FILE_BYTES]


def sha256_regular(path: Path, shown: str | None = None) -> str:
    digest = hashlib.sha256()
    with os.fdopen(_open(path, shown or path.name), "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()
