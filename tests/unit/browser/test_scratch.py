"""Scratch folders of Waypost processes that are gone are removed at the next launch; nothing else."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from browser.scratch import PREFIX, sweep_stale


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
