"""Suite-wide guards: no test reaches beyond this machine, shared fixtures are imported here, and the
`browser` marker is assigned by folder and fixture (tests/README.md, "Tiers")."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.home_fixtures import *  # noqa: F403
from tests.support.llm_fixtures import *  # noqa: F403
from tests.support.site_fixtures import *  # noqa: F403
from tests.support.voice_fixtures import *  # noqa: F403


def _is_local(address: Any) -> bool:
    if not isinstance(address, tuple) or not address:
        return True  # unix sockets and the like never leave the machine
    host = str(address[0])
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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


class InternetAccessError(RuntimeError):
    """A test tried to reach a host beyond loopback."""


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
        if not _is_local(address):
            raise InternetAccessError(f"test tried to reach {address!r}; tests stay on 127.0.0.1")
        real_connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: Any) -> int:
        if not _is_local(address):
            raise InternetAccessError(f"test tried to reach {address!r}; tests stay on 127.0.0.1")
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_connect_ex)
