"""Batch tests: two real Playwright servers per module, and a waypost home in tmp_path."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.playwright_server import PlaywrightServer, browser_registry


@pytest.fixture(scope="session")
def registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A browser registry linking to the system Chromium, shared by every server of the session."""
    return browser_registry(tmp_path_factory.mktemp("pw-browsers"))


@pytest.fixture(scope="module")
def grid(registry: Path) -> Iterator[list[PlaywrightServer]]:
    """Two Playwright servers, shared by the tests of a module (each connection gets its own browser)."""
    with PlaywrightServer(registry) as one, PlaywrightServer(registry) as two:
        yield [one, two]


@pytest.fixture
def waypost_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WAYPOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("WAYPOST_DATA_DIR", str(tmp_path / "data"))
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "WAYPOST_RUNS_DIR", "WAYPOST_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path
