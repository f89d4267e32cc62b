"""The page a person sees when a gate asks: captured from the run's own page at the moment of asking.

Each question gets its own file (never overwritten by a later gate or a resumed leg) and a small
JSON note beside it with the run, URL, title and time, so the window can show where and when the
picture was taken and refuse a picture that belongs to another run.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import Field, ValidationError

from browser.models import PageCapture
from common.bounded_read import NOTE_BYTES, read_text
from common.contracts import Contract
from common.secrecy import scrub
from receipts.layout import inside


class _Capturing(Protocol):
    async def capture(self, *, screenshot: bool = True, path: Path | None = None) -> PageCapture: ...


class GateMark(Contract):
    """One element the gated action(s) will act on, as the picture shows it (executor/gates/look.py)."""

    #: Its number on the picture and in the list beside it (1, 2, ...).
    n: int
    #: The action: fill, click, select, check, press, upload.
    kind: str
    #: The element's name on the page (or how the plan names it when it was not found).
    label: str
    #: What will be typed or chosen; a secret stays its {{secret:NAME}} placeholder (shown masked).
    value: str | None = None
    #: x, y, width, height in the picture's pixels; None when the element is not on this page.
    box: list[float] | None = None
    #: ok, or why there is no box: not_found, ambiguous, hidden.
    found: str = "ok"


class GatePreview(Contract):
    """Where and when a gate's screenshot was taken, and for which run; what it marks."""

    run_id: str
    url: str
    title: str = ""
    taken_at: datetime
    screenshot_path: str
    marks: list[GateMark] = Field(default_factory=list)
    #: The page's viewport width in CSS pixels (the boxes' scale), when known.
    viewport_width: int | None = None
    #: True when the picture is the run's last recorded page (no page was open to look at now).
    recorded: bool = False
    #: A sentence about how the marks were found (e.g. decided again when the step runs).
    note: str = ""


def _note_path(screenshot_path: str | Path) -> Path:
    return Path(screenshot_path).with_suffix(".json")


async def take_gate_preview(driver: _Capturing, run_id: str, folder: Path, name: str) -> str | None:
    """Captures the page now into a file of its own; returns its path (None when no picture came)."""
    capture = await driver.capture(screenshot=True, path=fresh_path(folder, name))
    return write_preview(capture, run_id)


def write_preview(capture: PageCapture, run_id: str, **extra: Any) -> str | None:
    """Writes the note of a capture taken for a gate (with `extra` GatePreview fields); its path."""
    if not capture.screenshot_path:
        return None
    preview = GatePreview(
        run_id=run_id,
        url=capture.url,
        title=capture.title,
        taken_at=extra.pop("taken_at", None) or datetime.now(UTC),
        screenshot_path=capture.screenshot_path,
        **extra,
    )
    _write_note(preview)
    return capture.screenshot_path


def fresh_path(folder: Path, name: str) -> Path:
    """A new file in `folder` (a run's gates folder); a name built from a plan-supplied step id cannot
    write outside the run folder (receipts.layout.inside)."""
    path = inside(folder.parent, folder.name, f"{name}-{time.time_ns()}.png")
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def _write_note(preview: GatePreview) -> None:
    _note_path(preview.screenshot_path).write_text(scrub(preview.model_dump_json()), encoding="utf-8")


def read_gate_preview(screenshot_path: str | None, run_id: str) -> GatePreview | None:
    """The preview note of `screenshot_path` if it exists and belongs to `run_id`, else None."""
    if not screenshot_path:
        return None
    try:
        raw = json.loads(read_text(_note_path(screenshot_path), NOTE_BYTES, what="gate note"))
        preview = GatePreview.model_validate(raw)
    except (OSError, ValueError, ValidationError):
        return None
    if preview.run_id != run_id or Path(preview.screenshot_path) != Path(screenshot_path):
        return None
    return preview
