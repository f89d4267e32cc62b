"""WRITE_ARTIFACT writes inside the run folder only, with earlier outputs as content."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from executor.act.artifact import UnsafeArtifactPath, artifact_path
from executor.models import RunStatus
from tests.support.loop_harness import LoopHarness, plan_of


@pytest.mark.parametrize("name", ["../x.txt", "/etc/passwd", "a/../../x", "", "~/x", "..\\x.txt"])
def test_traversal_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(UnsafeArtifactPath):
        artifact_path(tmp_path, name)


def test_symlink_out_of_the_run_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "artifacts").mkdir()
    (tmp_path / "artifacts" / "out").symlink_to(tmp_path.parent)
    with pytest.raises(UnsafeArtifactPath):
        artifact_path(tmp_path, "out/x.txt")


async def test_artifact_with_a_step_reference(loop: LoopHarness) -> None:
    loop.tools["compute"].outputs = {"recommendation": "Datafeed Pro"}
    inputs = {"path": "notes/pick.md", "content": "We pick {{step:c1.recommendation}}."}
    write = {"step_id": "w1", "type": "WRITE_ARTIFACT", "depends_on": ["c1"], "inputs": inputs}
    bundle = await loop.run(plan_of({"step_id": "c1", "type": "COMPUTE"}, write))
    assert bundle.run_status is RunStatus.SUCCESS, bundle.reason
    outputs = bundle.step_runs[-1].outputs
    path = loop.tmp / "runs" / bundle.run_id / outputs["path"]
    assert outputs["path"] == "artifacts/notes/pick.md" and path.read_text() == "We pick Datafeed Pro."
    assert outputs["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


async def test_artifact_outside_the_run_folder_fails_the_step(loop: LoopHarness) -> None:
    write = {
        "step_id": "w1",
        "type": "WRITE_ARTIFACT",
        "inputs": {"path": "../../escape.txt", "content": "x"},
    }
    bundle = await loop.run(plan_of(write))
    assert bundle.step_runs[0].error_code == "unsafe_path"
    assert not (loop.tmp / "escape.txt").exists() and not (loop.tmp / "runs" / "escape.txt").exists()
