"""Public pages do not reach private addresses (docs/architecture.md, "Navigation policy").

A page on the public web that sends the browser to 127.0.0.1, 10/8, 172.16/12, 192.168/16, ::1 or
fc00::/7 is using the person's machine to reach their own network (a router's admin page, a local
service). Once a run has opened a public page, every request to a private address is refused for
the rest of the run, unless the task itself names a private address (then it is the person's own
intranet or a local test site, and the rule stays off). Hosts are judged as written in the URL the
browser requests (Chromium has already turned 2130706433 or 0x7f.1 into 127.0.0.1); a public name
that *resolves* to a private address is not looked up here.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

from browser.options import BrowserPolicy

PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(n)
    for n in ("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "0.0.0.0/8", "::1/128",
              "fc00::/7", "::/128")
)  # fmt: skip
_WEB = frozenset({"http", "https", "ws", "wss"})


def _host(url: str) -> str | None:
    parts = urlsplit(url.strip())
    if parts.scheme.lower() not in _WEB:
        return None
    return (parts.hostname or "").lower().strip("[]") or None


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_private_host(host: str) -> bool:
    """127/8, 10/8, 172.16/12, 192.168/16, 0/8, ::1, fc00::/7, and the names `localhost` and `*.localhost`."""
    host = host.lower().strip("[]").rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    address = _address(host)
    return address is not None and any(address in net for net in PRIVATE_NETWORKS)


def is_public_url(url: str) -> bool:
    """A web URL whose host is neither private nor link-local (a name counts as public)."""
    host = _host(url)
    if host is None or is_private_host(host):
        return False
    address = _address(host)
    return address is None or not address.is_link_local


def is_private_url(url: str) -> bool:
    host = _host(url)
    return host is not None and is_private_host(host)


def names_private(urls: Iterable[str]) -> bool:
    """Whether the task itself targets a private address (its own URLs name one)."""
    return any(is_private_url(u) for u in urls)


def for_task(policy: BrowserPolicy, task_urls: Iterable[str]) -> BrowserPolicy:
    """The run's policy with private addresses allowed when (and only when) the task names one."""
    if policy.private_network or not names_private(task_urls):
        return policy
    return policy.model_copy(update={"private_network": True})


class PrivateNetworkGuard:
    """Remembers whether the run has been on a public page, and refuses private addresses after it."""

    def __init__(self, *, allow_private: bool = False) -> None:
        self.allow_private = allow_private
        self.public_seen = False

    def refusal(self, url: str, *, from_url: str = "") -> str | None:
        """Why a request to `url` (made by a frame showing `from_url`) is refused, or None."""
        if self.allow_private or not is_private_url(url):
            return None
        if self.public_seen or is_public_url(from_url):
            host = _host(url)
            return f"refused {host}: a private address, reached from a public page (the task names none)"
        return None

    def passed(self, url: str, *, navigation: bool) -> None:
        """A request that was let through: a navigation to a public page marks the run as public."""
        if navigation and is_public_url(url):
            self.public_seen = True
