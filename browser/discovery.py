"""Finding a Chromium to drive, in a fixed order, with an error that says how to get one.

Order: the WAYPOST_BROWSER environment variable, then Playwright's own bundled Chromium when its
executable exists, then a system chromium / chromium-browser / google-chrome on PATH.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

ENV_VAR = "WAYPOST_BROWSER"
SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class ChromiumNotFound(RuntimeError):
    """No usable Chromium on this machine; the message carries the install commands."""

    def __init__(self, detail: str) -> None:
        super().__init__(
            f"No Chromium found ({detail}). Install one with `apt-get install chromium` "
            f"or `playwright install chromium`, or point {ENV_VAR} at a Chromium executable."
        )


def find_chromium(
    bundled: str | None = None,
    env: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
) -> Path:
    """Returns the Chromium executable to launch; raises ChromiumNotFound when there is none.

    `bundled` is Playwright's `chromium.executable_path` (the caller has a Playwright instance; this
    module does not start one). The lookups are parameters so the order is testable offline.
    """
    env = os.environ if env is None else env
    override = env.get(ENV_VAR)
    if override:
        path = Path(override).expanduser()
        if path.is_file() and os.access(path, os.X_OK):
            return path
        found = which(override)
        if found:
            return Path(found)
        raise ChromiumNotFound(f"{ENV_VAR}={override!r} is not an executable")
    if bundled and Path(bundled).is_file():
        return Path(bundled)
    for name in SYSTEM_NAMES:
        found = which(name)
        if found:
            return Path(found)
    raise ChromiumNotFound(
        "no bundled Playwright Chromium and none of " + ", ".join(SYSTEM_NAMES) + " on PATH"
    )
