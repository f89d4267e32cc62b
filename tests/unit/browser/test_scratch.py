"""Scratch folders of Waypost processes that are gone are removed at the next launch; nothing else."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from browser.scratch import PREFIX, new_scratch, sweep_stale


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_sweep_removes_only_folders_of_dead_waypost_processes(tmp_path: Path) -> None:
    dead = tmp_path / f"{PREFIX}{_dead_pid()}-abc"
    (dead / "playwright_chromiumdev_profile-x").mkdir(parents=True)
    (dead / "org.chromium.Chromium.y").mkdir()
    alive = tmp_path / f"{PREFIX}{os.getpid()}-def"
    alive.mkdir()
    unnamed = tmp_path / f"{PREFIX}nopid"
    unnamed.mkdir()
    stranger = tmp_path / "org.chromium.Chromium.zzz"
    stranger.mkdir()

    assert sweep_stale(tmp_path) == [dead]
    assert not dead.exists()
    assert alive.exists() and unnamed.exists() and stranger.exists()


def test_removing_a_scratch_folder_a_dying_browser_still_writes_into_never_raises(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seen in the fault suite: Chromium, still spinning after its driver stopped, wrote into Cache
    while the folder was removed at exit; "Directory not empty" was a traceback after the JSON."""
    scratch = new_scratch()

    def rmtree_while_written(path: str, onerror: Callable[..., object]) -> None:
        try:
            raise OSError(errno.ENOTEMPTY, "Directory not empty", "Cache")
        except OSError:
            onerror(os.rmdir, os.path.join(path, "Cache"), sys.exc_info())

    monkeypatch.setattr(shutil, "rmtree", rmtree_while_written)
    scratch.cleanup()  # raises OSError when removal errors are not ignored
    monkeypatch.undo()
    assert sweep_stale(Path(scratch.name).parent) == []  # still ours: our process is alive
    shutil.rmtree(scratch.name)
