"""Owner-only files: everything Waypost writes (stores, receipts, logs, config) is 0600 in 0700
folders, because a run's pages, answers and receipts are the person's private data.

The process umask does it for every file created from now on, whoever creates it (SQLite, the
recorder, the log handler, settings); `tighten` fixes files an older version left group- or
world-readable.
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
