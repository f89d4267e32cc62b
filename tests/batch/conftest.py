"""Batch tests: two real Playwright servers per module; a waypost home in tmp_path as the CLI tests
have it (the session-wide `waypost_home` fixture, tests/support/home_fixtures.py)."""

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
