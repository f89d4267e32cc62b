"""Runs an assistant started over MCP, so the person can find the ones waiting for them.

The MCP server notes each run it starts in `RUNS_DIR/mcp-runs.jsonl` (one JSON object a line,
owner-only like the rest of the runs folder); the window's "Waiting for you" list and
`waypost approve` read it back beside the run store's status. The file names runs only: it grants
nothing, and a run that is not in it is approved the same way.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from common.secrecy import scrub
from executor.store.rows import RunSummary

CHANNEL_RUNS = "mcp-runs.jsonl"


def note_channel_run(runs_dir: Path, run_id: str, task: str) -> None:
    """Appends one line; a run noted twice (a resume) is listed once."""
    line = json.dumps({"run_id": run_id, "task": task[:200], "at": datetime.now(UTC).isoformat()})
    path = runs_dir / CHANNEL_RUNS
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        fh.write(scrub(line) + "\n")  # a task names secrets by placeholder only; scrub all the same


def channel_run_ids(runs_dir: Path) -> set[str]:
    """The ids noted so far; a torn or foreign line is skipped, never an error."""
    try:
        text = (runs_dir / CHANNEL_RUNS).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    ids: set[str] = set()
    for line in text.splitlines():
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("run_id"), str):
            ids.add(data["run_id"])
    return ids


def waiting_channel_runs(runs_dir: Path, history: list[RunSummary]) -> list[RunSummary]:
    """Runs started over MCP that wait for a person's approval, newest first (as `history` is)."""
    ids = channel_run_ids(runs_dir)
    return [
        r for r in history if r.run_id in ids and r.pending is not None and r.pending.kind == "CONFIRMATION"
    ]
