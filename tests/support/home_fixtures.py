"""A waypost home in a temporary folder for CLI tests (star-imported by tests/conftest.py).

Config and data folders live under the test's own folder, so a test can read what a run wrote
(`waypost_home / "data" / "runs"`), and no model or runs folder from the person's environment leaks in.
"""

from __future__ import annotations

from pathlib import Path

import pytest

__all__ = ["isolate_home", "waypost_home"]

#: Environment that would point a run at a person's model or runs folder.
PERSONAL_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WAYPOST_RUNS_DIR", "WAYPOST_MODEL")


def isolate_home(mp: pytest.MonkeyPatch, home: Path) -> Path:
    """Points Waypost's config and data folders into `home` and forgets the personal variables."""
    mp.setenv("WAYPOST_CONFIG_DIR", str(home / "config"))
    mp.setenv("WAYPOST_DATA_DIR", str(home / "data"))
    for var in PERSONAL_VARS:
        mp.delenv(var, raising=False)
    return home


@pytest.fixture
def waypost_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate_home(monkeypatch, tmp_path)
