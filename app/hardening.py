"""Owner-only files: everything Waypost writes (stores, receipts, logs, config) is 0600 in 0700
folders, because a run's pages, answers and receipts are the person's private data.

The process umask does it for every file created from now on, whoever creates it (SQLite, the
recorder, the log handler, settings); `tighten` fixes files an older version left group- or
world-readable. A folder another user can write is refused, as ssh refuses a shared ~/.ssh
(`shared_folder`): whoever can write there can plant a symlink where Waypost writes (its log, a
run folder) and make it write into a file of theirs, or replace what it reads.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

OWNER_ONLY_UMASK = 0o077


def owner_only_umask() -> int:
    """Sets the process umask so new files are 0600 and new folders 0700; returns the old one."""
    return os.umask(OWNER_ONLY_UMASK)


def shared_folder(folder: Path, what: str) -> str | None:
    """Why `folder` (the runs or data folder) is not the person's own, or None when it is.

    The folder must belong to this user (or root) and be writable by no one else; each folder above
    it must belong to this user or root and be writable by no one else unless its sticky bit keeps
    others from replacing what is not theirs (/tmp)."""
    me = os.geteuid()
    if not folder.exists():
        return None
    path = folder.resolve()
    for place in [path, *path.parents]:
        info = place.stat()
        mode = stat.S_IMODE(info.st_mode)
        mine = info.st_uid in (me, 0)
        open_to_others = bool(mode & 0o022) and (place == path or not mode & stat.S_ISVTX)
        if mine and not open_to_others:
            continue
        who = "belongs to another user" if not mine else f"can be written by other users (mode {mode:04o})"
        where = f"{what} {folder}" if place == path else f"{place}, above the {what} {folder},"
        return (
            f"the {where} {who}: anyone who can write there could make Waypost write into their files "
            f"or read what they planted; use a folder only you can write (chmod go-w {place})"
        )
    return None


def tighten(roots: Iterable[Path]) -> list[Path]:
    """Removes group/other bits from `roots` and everything under them; returns what it changed."""
    changed: list[Path] = []
    for root in roots:
        if not root.is_dir() or root.is_symlink():  # only our own folders, never a device or a link
            continue
        for path in [root, *root.rglob("*")]:
            if path.is_symlink():
                continue
            try:
                mode = stat.S_IMODE(path.stat().st_mode)
                if mode & 0o077:
                    path.chmod(mode & 0o700)
                    changed.append(path)
            except OSError:
                continue  # vanished or not ours: nothing to tighten
    return changed
