"""WRITE_ARTIFACT: a file written inside the run folder, never outside it.

Inputs: `{"path": "notes/summary.md", "content": "..."}`; content may use `{{step:ID.PATH}}`
references (executor/act/refs.py). The path is relative to RUN_DIR/artifacts; absolute paths, `..`
and anything that resolves outside (a symlink included) are refused. The file's sha256 joins the
receipts chain as a note.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import tempfile
from pathlib import Path, PurePosixPath

from common.secrecy import scrub_bytes
from executor.act.refs import resolve_data
from executor.errors import FatalToolError
from executor.journal.run_journal import Noted
from executor.tools.boundary import ToolContext, ToolOutput
from executor.tools.engine import ToolCallEngine
from planner.models import Step

ARTIFACTS_DIR = "artifacts"


class UnsafeArtifactPath(FatalToolError):
    code = "unsafe_path"


def _relative(name: str) -> PurePosixPath:
    rel = PurePosixPath(name.replace("\\", "/"))
    if not name or rel.is_absolute() or ".." in rel.parts or any(p.startswith("~") for p in rel.parts):
        raise UnsafeArtifactPath(f"artifact path {name!r} must be relative, inside the run folder")
    return rel


def artifact_path(run_dir: Path, name: str) -> Path:
    rel = _relative(name)
    root = (run_dir / ARTIFACTS_DIR).resolve()
    target = (root / Path(*rel.parts)).resolve()
    if not target.is_relative_to(root) or target == root:
        raise UnsafeArtifactPath(f"artifact path {name!r} resolves outside {root}")
    return target


def store_artifact(run_dir: Path, name: str, data: bytes) -> tuple[str, str]:
    """Writes (atomically) and returns (path relative to the run folder, sha256)."""
    path = artifact_path(run_dir, name)
    data = scrub_bytes(data)  # a run's data may quote a page that echoed a secret
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    return path.relative_to(run_dir.resolve()).as_posix(), hashlib.sha256(data).hexdigest()


class WriteArtifactRunner:
    def check_inputs(self, step: Step) -> None:
        """A path that could never be written inside the run folder, found when the plan is read
        (a step without one still fails when it runs, as before)."""
        if "path" not in step.inputs:
            return
        name = step.inputs["path"]
        if not isinstance(name, str):
            raise UnsafeArtifactPath(f"`path` must be a file name inside the run folder, not {name!r}")
        _relative(name)

    async def run(self, step: Step, ctx: ToolContext, engine: ToolCallEngine) -> ToolOutput:
        if ctx.run_dir is None:
            raise FatalToolError("WRITE_ARTIFACT needs a run folder", code="no_run_dir")
        inputs = resolve_data(dict(step.inputs), ctx.step_outputs)
        content = inputs.get("content", "")
        if not isinstance(content, str):
            content = json.dumps(content, ensure_ascii=False, indent=2)
        data = content.encode("utf-8")
        rel, digest = await asyncio.to_thread(
            store_artifact, Path(ctx.run_dir), str(inputs.get("path") or ""), data
        )
        if ctx.journal is not None:
            text = f"wrote {rel} ({len(data)} bytes) sha256={digest}"
            await ctx.journal.append(Noted(text=text, step_id=step.step_id))
        return ToolOutput(
            outputs={"path": rel, "sha256": digest, "bytes": len(data)}, actions=[f"write:{rel}"]
        )
