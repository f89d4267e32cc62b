"""What counts as staying on this machine: the suite's guard (tests/conftest.py) fails any socket
connection to another address."""

from __future__ import annotations

import ipaddress
from typing import Any


def is_local(address: Any) -> bool:
    """A loopback address, localhost, or a socket that is not an internet one (unix sockets)."""
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
