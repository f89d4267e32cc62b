"""Suite-wide guards: no test reaches beyond this machine, shared fixtures are loaded here (the one
Chromium of the browser tests among them), and the `browser` marker is assigned by folder and fixture
(tests/README.md, "Tiers")."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio
from hypothesis import settings

from tests.support.loopback import InternetAccessError, is_local

if TYPE_CHECKING:
    from playwright.async_api import Browser

    from tests.support.act_harness import ActHarness

# Property tests check what a contract does, never how fast: hypothesis's per-example deadline is a
# timing assertion that fails on a loaded machine (tests/README.md, "Rules").
settings.register_profile("waypost", deadline=None)
settings.load_profile("waypost")

#: Fixture modules every test may use (tests/README.md, "Fixtures and helpers").
pytest_plugins = [
    "tests.support.home_fixtures",
    "tests.support.llm_fixtures",
    "tests.support.site_fixtures",
    "tests.support.voice_fixtures",
]


_TESTS = Path(__file__).parent
# Folders whose every test drives Chromium (directly, or through a `waypost` process that launches one).
BROWSER_FOLDERS = ("e2e", "integration", "faults")
# Fixtures that launch Chromium or a Playwright server; pytest resolves them transitively, so a test
# using `driver` or `act_harness` (which take `chromium`) or `grid` (which takes `registry`) matches too.
BROWSER_FIXTURES = frozenset({"chromium", "browser", "demo_core", "registry"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks `browser` every test in a browser folder or using a Chromium fixture, so the fast tier
    (`-m "not browser and not slow"`, `./run-tests.sh --fast`) never starts one. A test that starts
    Chromium some other way keeps an explicit `pytest.mark.browser`."""
    for item in items:
        folder = item.path.relative_to(_TESTS).parts[0] if item.path.is_relative_to(_TESTS) else ""
        if folder in BROWSER_FOLDERS or BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True, scope="session")
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The install's data (its receipt-signing key above all) lives in a temporary folder, never in
    the person's home; a test that needs its own folder sets WAYPOST_DATA_DIR again."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WAYPOST_DATA_DIR", str(tmp_path_factory.mktemp("waypost-data")))
        yield


@pytest.fixture(autouse=True)
def _no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails any socket connection to a non-loopback address made from this process."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guarded_connect(self: socket.socket, address: Any) -> None:
        if not is_local(address):
            raise InternetAccessError(f"test tried to reach {address!r}; tests stay on 127.0.0.1")
        real_connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        if not is_local(address):
            raise InternetAccessError(f"test tried to reach {address!r}; tests stay on 127.0.0.1")
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def chromium() -> AsyncIterator[Browser]:
    """One headless Chromium for every browser test of the session; tests take a fresh context on it.
    A test using it runs in the session event loop (`pytest.mark.asyncio(loop_scope="session")`)."""
    from tests.support.chromium import chromium_with

    async with chromium_with([]) as browser:
        yield browser


@pytest.fixture
def act_harness(chromium: Browser, tmp_path: Path) -> ActHarness:
    """Full runs on the shared Chromium with a real run folder and store (tests/support/act_harness.py)."""
    from tests.support.act_harness import harness_on

    return harness_on(chromium, tmp_path)
