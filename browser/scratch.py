"""The browser's scratch folder: Playwright's driver and Chromium keep their profile and temp
folders (`playwright_chromiumdev_profile-*`, `org.chromium.Chromium.*`) inside it.

The session removes it on close, and after a crashed browser too. A Waypost process killed outright
(kill -9) cannot, so the folder is named after the process that made it, and the next launch removes
the folders of Waypost processes that no longer exist. Nothing else in the temp folder is touched.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

PREFIX = "waypost-browser-"
_OURS = re.compile(rf"{PREFIX}(?P<pid>[0-9]+)-")


def new_scratch() -> tempfile.TemporaryDirectory[str]:
    """A fresh scratch folder for this process, after sweeping those of processes gone."""
    sweep_stale()
    # A browser that is still dying can write into its cache while the folder is removed; what it
    # leaves is swept by the next launch (below), so removal never raises, even at interpreter exit.
    return tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-", ignore_cleanup_errors=True)


def sweep_stale(root: Path | None = None) -> list[Path]:
    """Removes scratch folders whose Waypost process is dead; returns them."""
    removed = []
    for folder in (root or Path(tempfile.gettempdir())).glob(f"{PREFIX}*"):
        match = _OURS.match(folder.name)
        if match is None or not folder.is_dir() or _alive(int(match["pid"])):
            continue
        try:
            if folder.stat().st_uid != os.getuid():
                continue  # another user's: not ours to judge
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
