"""Suite-wide guards: no test reaches beyond this machine, and shared fixtures are imported here."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
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
