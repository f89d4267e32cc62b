"""A full disk is the person's machine, not a bug: the run ends with a status and a sentence.

Writes fail in many places (a screenshot, a receipt line, a step row in SQLite), each with its own
error type; `disk_full` recognises them all, following an error's causes, so the conductor can end the
run the same way wherever the disk ran out. What was written before stays, so the run resumes once
there is space again.
"""

from __future__ import annotations

import errno
import sqlite3

#: No space left, a disk quota reached, a file larger than allowed (RLIMIT_FSIZE).
_NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
_SQLITE_FULL = "database or disk is full"


def disk_full(exc: BaseException | None) -> bool:
    """True when `exc`, or an error it came from, says the disk has no room."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in _NO_SPACE:
            return True
        if isinstance(exc, sqlite3.Error) and _SQLITE_FULL in str(exc):
            return True
        if _SQLITE_FULL in str(exc):  # wrapped by the store, which names its file first
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def sentence(exc: BaseException, run_id: str) -> str:
    """What happened and what to do, for the run's reason."""
    where = getattr(exc, "filename", None)
    place = f" while writing {where}" if where else ""
    return (
        f"the disk is full{place}; what the run recorded so far is kept. "
        f"Free some space, then `waypost resume {run_id}` continues it"
    )
