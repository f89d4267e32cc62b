"""Where Waypost keeps an install's own data and its config: one definition, so the settings, the
receipt key and the window's first checks (app/window_folders.py) agree. Standard library only."""

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


def config_dir() -> Path:
    """WAYPOST_CONFIG_DIR, else $XDG_CONFIG_HOME/waypost, else ~/.config/waypost."""
    explicit = os.environ.get("WAYPOST_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "waypost"


def settings_path() -> Path:
    return config_dir() / "config.toml"


def default_runs_dir() -> Path:
    return data_dir() / "runs"
