"""Memory: what later runs on the same site should know, in its own SQLite file
(docs/architecture.md, "The ACT loop").

Only the runtime writes here, never cognition, and only at three moments:
- a task step is done: its final summary (kind "summary");
- an action succeeded and is reusable: a site's form field and the target that worked (kind "field",
  key = the payload key, value = {"target": ..., "label": ...});
- an error has a stable cause: the failure mode (kind "failure", key = the cause code).
Entries are keyed by site (host[:port]); a fact seen again is updated in place and its `hits` grow.
Planner and cognition read through `field_hints(site)`; people list and delete entries.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel

from common.scrubbed_sqlite import scrubbed_db
from executor.store.set_aside import open_or_set_aside

MEMORY_FILENAME = "memory.sqlite3"
Kind = Literal["summary", "field", "failure"]
_SCHEMA = """
CREATE TABLE IF NOT EXISTS memory (
    entry_id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, site TEXT NOT NULL,
    key TEXT NOT NULL, value TEXT NOT NULL, run_id TEXT, hits INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, UNIQUE (kind, site, key));
CREATE INDEX IF NOT EXISTS memory_site ON memory (site, kind);
"""


class MemoryStoreError(Exception):
    """The memory file cannot be read or written."""


class MemoryEntry(BaseModel):
    entry_id: int
    kind: Kind
    site: str
    key: str
    value: Any
    run_id: str | None = None
    hits: int = 1
    created_at: datetime
    updated_at: datetime


def site_of(url: str | None) -> str | None:
    """host[:port] of an http(s) URL, lower case; None for anything else (about:blank, file:)."""
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.hostname.lower() + (f":{parts.port}" if parts.port else "")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class MemoryStore:
    """Persistent memory beside the run store (runs_dir/memory.sqlite3). One thread, short calls."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._conn = scrubbed_db(self.path, timeout=5.0, isolation_level=None)
            self._conn.executescript(_SCHEMA)
            self._conn.execute("PRAGMA journal_mode = WAL")
        except (OSError, sqlite3.Error) as exc:
            raise MemoryStoreError(f"cannot open memory {self.path}: {exc}") from exc

    @classmethod
    def beside(cls, runs_dir: str | Path) -> MemoryStore:
        return cls(Path(runs_dir) / MEMORY_FILENAME)

    @classmethod
    def beside_or_set_aside(cls, runs_dir: str | Path) -> tuple[MemoryStore, Path | None]:
        """The memory beside the runs; a file SQLite cannot read is renamed (kept for a person to
        look at) and a fresh, empty memory takes its place: memory is a hint, never a reason to stop.
        Returns the store and where the unreadable file went (None when nothing was set aside)."""
        return open_or_set_aside(Path(runs_dir) / MEMORY_FILENAME, cls, MemoryStoreError)

    # --- writing (the runtime only) --------------------------------------------------------------

    def _put(self, kind: Kind, site: str, key: str, value: Any, run_id: str | None) -> None:
        now = _now()
        try:
            self._conn.execute(
                "INSERT INTO memory (kind, site, key, value, run_id, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, site, key) DO UPDATE SET "
                "value = excluded.value, run_id = excluded.run_id, hits = hits + 1, "
                "updated_at = excluded.updated_at",
                (kind, site, key, json.dumps(value, ensure_ascii=False), run_id, now, now),
            )
        except sqlite3.Error as exc:
            raise MemoryStoreError(f"memory {self.path}: {exc}") from exc

    def remember_summary(self, site: str, key: str, summary: str, *, run_id: str | None = None) -> None:
        self._put("summary", site, key, summary, run_id)

    def remember_field(
        self, site: str, key: str, target: dict[str, Any], *, label: str = "", run_id: str | None = None
    ) -> None:
        self._put("field", site, key, {"target": target, "label": label}, run_id)

    def remember_failure(self, site: str, cause: str, detail: str, *, run_id: str | None = None) -> None:
        self._put("failure", site, cause, detail, run_id)

    # --- reading ---------------------------------------------------------------------------------

    def entries(
        self, *, site: str | None = None, kind: Kind | None = None, limit: int = 500
    ) -> list[MemoryEntry]:
        sql, args = "SELECT * FROM memory WHERE 1 = 1", list[str]()
        if site is not None:
            sql, args = sql + " AND site = ?", [*args, site]
        if kind is not None:
            sql, args = sql + " AND kind = ?", [*args, kind]
        try:
            rows = self._conn.execute(sql + " ORDER BY updated_at DESC LIMIT ?", (*args, limit)).fetchall()
        except sqlite3.Error as exc:
            raise MemoryStoreError(f"memory {self.path}: {exc}") from exc
        names = ("entry_id", "kind", "site", "key", "value", "run_id", "hits", "created_at", "updated_at")
        return [MemoryEntry.model_validate({**dict(zip(names, r, strict=True)), "value": json.loads(r[4])})
                for r in rows]  # fmt: skip

    def field_hints(self, site: str | None) -> dict[str, dict[str, Any]]:
        """payload key -> {"target": ..., "label": ...} that worked on this site before."""
        if site is None:
            return {}
        return {e.key: e.value for e in self.entries(site=site, kind="field") if isinstance(e.value, dict)}

    # --- people manage it ------------------------------------------------------------------------

    def delete(self, entry_id: int) -> bool:
        cur = self._conn.execute("DELETE FROM memory WHERE entry_id = ?", (entry_id,))
        return cur.rowcount > 0

    def clear(self, site: str | None = None) -> int:
        if site is None:
            return self._conn.execute("DELETE FROM memory").rowcount
        return self._conn.execute("DELETE FROM memory WHERE site = ?", (site,)).rowcount

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
