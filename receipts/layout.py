"""The on-disk format of one run folder, in one place so writers, verifier and report agree.

RUNS_DIR/RUN_ID/
    run.json          run bundle, plan, settings digest and the receipt summary
    receipts.jsonl    one chained record a line, appended as it happens, fsynced right behind
    shots/*.png       screenshots (already masked by the browser layer)
    snapshots/*.json  state snapshots (redacted)
    trace.zip         optional Playwright trace (redacted)
    report.html       the exported self-contained report
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from receipts.errors import RunFolderError
from receipts.regular import NotRegular, read_regular

RUN_JSON = "run.json"
RECEIPTS_JSONL = "receipts.jsonl"
SHOTS_DIR = "shots"
SNAPSHOTS_DIR = "snapshots"
TRACE_ZIP = "trace.zip"
REPORT_HTML = "report.html"

_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")
_FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


def check_run_id(run_id: str) -> str:
    """Run ids become folder names: letters, digits, `_ . -`, no leading dot, no `..`."""
    if not _RUN_ID.match(run_id) or ".." in run_id:
        raise RunFolderError(f"unsafe run id {run_id!r}: use letters, digits, '_', '.', '-'")
    return run_id


def _check_file_name(name: str) -> str:
    if not _FILE_NAME.match(name) or ".." in name:
        raise RunFolderError(f"unsafe file name {name!r}")
    return name


def inside(root: Path, *parts: str) -> Path:
    """`root/parts...`, refused unless it resolves inside `root` (a `..` or symlink cannot escape).

    Every path a run writes that is built from a plan-supplied name goes through here, so a step id
    the schema let through by mistake still cannot write outside the run folder.
    """
    base = root.resolve()
    path = base.joinpath(*parts).resolve()
    if path == base or base not in path.parents:
        raise RunFolderError(f"path {'/'.join(parts)!r} is outside the run folder {root}")
    return path


@dataclass(frozen=True, slots=True)
class RunFolder:
    """Knows the paths of one run folder; creates nothing until `create()` is called."""

    root: Path

    @classmethod
    def for_run(cls, runs_dir: Path | str, run_id: str) -> RunFolder:
        return cls(Path(runs_dir) / check_run_id(run_id))

    @property
    def run_id(self) -> str:
        return self.root.name

    @property
    def run_json(self) -> Path:
        return self.root / RUN_JSON

    @property
    def receipts(self) -> Path:
        return self.root / RECEIPTS_JSONL

    @property
    def shots_dir(self) -> Path:
        return self.root / SHOTS_DIR

    @property
    def snapshots_dir(self) -> Path:
        return self.root / SNAPSHOTS_DIR

    @property
    def trace(self) -> Path:
        return self.root / TRACE_ZIP

    @property
    def report(self) -> Path:
        return self.root / REPORT_HTML

    def create(self) -> RunFolder:
        self.shots_dir.mkdir(parents=True, exist_ok=True)
        self.snapshots_dir.mkdir(parents=True, exist_ok=True)
        return self

    def exists(self) -> bool:
        return self.receipts.is_file() or self.run_json.is_file()

    def shot_ref(self, name: str) -> str:
        return f"{SHOTS_DIR}/{_check_file_name(name)}"

    def snapshot_ref(self, name: str) -> str:
        return f"{SNAPSHOTS_DIR}/{_check_file_name(name)}"

    def resolve(self, ref: str) -> Path:
        """The absolute path of a relative ref from a record; refuses anything outside the folder."""
        parts = ref.split("/")
        if len(parts) == 1 and parts[0] == TRACE_ZIP:
            return self.trace
        if len(parts) != 2 or parts[0] not in (SHOTS_DIR, SNAPSHOTS_DIR):
            raise RunFolderError(f"ref {ref!r} is not inside shots/ or snapshots/")
        return self.root / parts[0] / _check_file_name(parts[1])

    def second_name(self, picture: Path, ref: str) -> Path:
        """`ref` (inside shots/ or snapshots/) as a second name of `picture`, a file of this folder."""
        if not picture.resolve().is_relative_to(self.root.resolve()):
            raise RunFolderError(f"{picture} is not in the run folder {self.root}")
        target = self.resolve(ref)
        link_file(picture, target)
        return target

    def read_run_json(self) -> dict[str, Any]:
        """run.json as a dict, or {} when absent or unreadable (a report must still render)."""
        try:  # a regular file only: a FIFO or a symlink to a device must not hang a reader
            data = json.loads(read_regular(self.run_json, RUN_JSON).decode("utf-8"))
        except (OSError, ValueError, NotRegular):
            return {}
        return data if isinstance(data, dict) else {}


def write_atomic(path: Path, data: bytes, *, fsync: bool = True) -> None:
    """Writes via a temp file and rename, so a crash never leaves a half-written file under `path`."""
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def link_file(source: Path, target: Path) -> None:
    """`target` names the same file as `source` (a hard link, a copy where the file system has none):
    a run's pictures are written once and never rewritten, so a second name costs no second file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def plain_json(data: Mapping[str, Any] | BaseModel | None) -> dict[str, Any] | None:
    """A model or mapping as the plain JSON object it is written as (None stays None)."""
    if data is None:
        return None
    if isinstance(data, BaseModel):
        return data.model_dump(mode="json", exclude_none=True)
    return json.loads(json.dumps(dict(data), default=_json_default))  # type: ignore[no-any-return]


def _json_default(value: object) -> object:
    """Nested models keep their structure (a bundle inside run.json stays an object, not a string)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return str(value)
