"""A store file SQLite cannot read is renamed (kept for a person to look at) and a fresh one takes its
place, so one corrupt file never refuses every later command (docs/architecture.md, "Faults (every
run ends, says why, and can be resumed)"). The memory and the run store both open this way.

Only a file that is not a database, or is malformed, is set aside: a store that is locked by another
process or on a disk that fails is a different problem, and moving it would lose what it holds.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

S = TypeVar("S")

#: The suffix of a set-aside file: `<name>.unreadable-<UTC time>`.
MARK = ".unreadable-"


def unreadable(exc: BaseException) -> bool:
    """The store's error came from SQLite finding no database (or a malformed one) in the file."""
    cause = exc.__cause__
    return isinstance(cause, sqlite3.DatabaseError) and not isinstance(cause, sqlite3.OperationalError)


def open_or_set_aside(
    path: Path, opener: Callable[[Path], S], error: type[Exception]
) -> tuple[S, Path | None]:
    """The store at `path`; when SQLite cannot read the file, the file is renamed and a fresh store
    opened in its place. Returns the store and where the unreadable file went (None: nothing moved)."""
    try:
        return opener(path), None
    except error as exc:
        if not unreadable(exc) or not path.exists():
            raise
    aside = path.with_name(f"{path.name}{MARK}{datetime.now(UTC):%Y%m%dT%H%M%S%f}")
    path.rename(aside)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return opener(path), aside


def set_aside_copies(path: Path) -> list[Path]:
    """Earlier unreadable copies of the store at `path`, oldest first (what `waypost doctor` shows)."""
    return sorted(path.parent.glob(f"{path.name}{MARK}*"))
