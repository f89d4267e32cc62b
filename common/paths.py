"""Where Waypost keeps an install's own data: one definition, so settings and the receipt key agree."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """WAYPOST_DATA_DIR, else $XDG_DATA_HOME/waypost, else ~/.local/share/waypost."""
    explicit = os.environ.get("WAYPOST_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "waypost"
