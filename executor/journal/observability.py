"""JSON log lines carrying trace_id, run_id, step_id and tool_call_id from context variables.

Ids are bound with `bind_log_context` where they become known (run, step, tool call), so every
log call below that point is correlated without passing ids around.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
from datetime import UTC, datetime
from typing import Any

from common.scoped import Scoped
from common.secrecy import scrub

_FIELDS = ("trace_id", "run_id", "step_id", "tool_call_id")
_EMPTY: dict[str, str] = {}
_context: contextvars.ContextVar[dict[str, str]] = contextvars.ContextVar(
    "waypost_log_context",
    default=_EMPTY,  # never mutated: bind_log_context always sets a fresh dict
)

log = logging.getLogger("waypost")

_STANDARD_ATTRS = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {"message", "asctime"}


def bind_log_context(**ids: str | None) -> Scoped[dict[str, str], None]:
    """`with bind_log_context(step_id=...):` the ids given join those bound outside the block."""
    merged = dict(_context.get())
    merged.update({k: v for k, v in ids.items() if v is not None})
    return Scoped(_context, merged, None)


class JsonFormatter(logging.Formatter):
    """One JSON object a line; the correlation ids are always present (null when unknown)."""

    def __init__(self, redact: Any = None) -> None:
        super().__init__()
        self._redact = redact

    def format(self, record: logging.LogRecord) -> str:
        ctx = _context.get()
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for name in _FIELDS:
            line[name] = ctx.get(name)
        for key, value in record.__dict__.items():
            if key not in _STANDARD_ATTRS and key not in line:
                line[key] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        text = json.dumps(line, default=str, ensure_ascii=False)
        return scrub(self._redact(text) if self._redact is not None else text)


class OwnLogFile(logging.FileHandler):
    """The log file, opened without following a symlink: one planted where the log goes cannot make
    Waypost append into another file (the open fails instead, and says so)."""

    def __init__(self, path: str) -> None:
        super().__init__(path, encoding="utf-8", delay=True)
        self.stream = self._open()

    def _open(self) -> Any:
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        return os.fdopen(os.open(self.baseFilename, flags, 0o600), "a", encoding="utf-8")


def configure_json_logging(
    level: int = logging.INFO, stream: Any = None, redact: Any = None, *, path: str | None = None
) -> None:
    """Sends the `waypost` logger's records, as JSON lines, to a file at `path` or to `stream`."""
    handler: logging.Handler = OwnLogFile(path) if path is not None else logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter(redact))
    log.handlers[:] = [handler]
    log.setLevel(level)
    log.propagate = False
