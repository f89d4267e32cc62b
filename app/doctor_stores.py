"""`waypost doctor`: are the two SQLite stores beside the runs readable, and what to do if not.

Opened read-only and checked with `PRAGMA quick_check`, so the doctor never changes a store it
examines. The fixes keep what is there: a store is moved aside, never deleted.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from app.doctor import Check
from executor.store.memory import MEMORY_FILENAME
from executor.store.schema import STORE_FILENAME
from executor.store.set_aside import set_aside_copies

_FIXES = {
    STORE_FILENAME: (
        "nothing is needed: the next command sets {path} aside and starts a new run store, or move it "
        "aside yourself (mv {path} {path}.bad); paused runs in the old one can no longer be resumed, and "
        "every run's receipts stay readable (waypost receipts list)"
    ),
    MEMORY_FILENAME: (
        "nothing is needed: the next run sets {path} aside and starts an empty memory "
        "(or move it aside yourself: mv {path} {path}.bad)"
    ),
}


def quick_check(path: Path) -> str | None:
    """None when SQLite reads the file cleanly, else what it said."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)) as conn:
            rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as exc:
        return str(exc)
    said = "; ".join(str(r[0]) for r in rows)
    return None if said == "ok" else said


def check_stores(runs_dir: Path | str) -> list[Check]:
    checks = []
    runs_dir = Path(runs_dir).expanduser()
    for name in (STORE_FILENAME, MEMORY_FILENAME):
        path = runs_dir / name
        label = "runstore" if name == STORE_FILENAME else "memory"
        if not path.exists():
            checks.append(Check(label, True, f"{path} not created yet"))
            continue
        problem = quick_check(path)
        kept = "".join(f"; an unreadable copy was set aside as {p}" for p in set_aside_copies(path))
        if problem is None:
            checks.append(Check(label, True, f"{path} readable{kept}"))
        else:
            checks.append(
                Check(label, False, f"{path} cannot be read: {problem}{kept}", _FIXES[name].format(path=path))
            )
    return checks
