"""Which URLs the browser may load: scheme rules plus an optional domain allow-list.

Refused unless allowed: file:, chrome:, javascript:, data:, about: (except about:blank) and any other
scheme that is not http(s)/ws(s)/blob, and link-local hosts (169.254.0.0/16, fe80::/10: the cloud
metadata range). The session applies `check` to navigate actions and, through a
context route, to every request the page makes, so a click cannot reach a refused URL either.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from urllib.parse import urlsplit

WEB_SCHEMES = frozenset({"http", "https", "ws", "wss"})


class UrlPolicy:
    """Answers `check(url)` with None (allowed) or the reason it is refused."""

    def __init__(self, allowed_schemes: Iterable[str] = (), allowed_domains: Iterable[str] = ()) -> None:
        self.allowed_schemes = frozenset(s.lower().rstrip(":") for s in allowed_schemes)
        self.allowed_domains = tuple(d.lower().lstrip(".").removeprefix("*.") for d in allowed_domains if d)

    def check(self, url: str) -> str | None:
        stripped = url.strip()
        parts = urlsplit(stripped)
        scheme = parts.scheme.lower()
        if not scheme:
            return f"refused {url!r}: not an absolute URL"
        if scheme == "about" and stripped.lower() == "about:blank":
            return None
        if scheme == "blob":
            return self.check(stripped[len("blob:") :])
        if scheme not in WEB_SCHEMES and scheme not in self.allowed_schemes:
            return f"refused {scheme}: URL (scheme not allowed by policy)"
        if scheme in WEB_SCHEMES and _link_local(parts.hostname or ""):
            return f"refused {parts.hostname}: link-local address (cloud metadata range)"
        if scheme in WEB_SCHEMES and self.allowed_domains:
            host = (parts.hostname or "").lower()
            if not any(host == d or host.endswith("." + d) for d in self.allowed_domains):
                return f"refused {host or url!r}: domain not in the allow-list"
        return None


def _link_local(host: str) -> bool:
    """169.254.0.0/16 and fe80::/10: where cloud metadata services answer; never a page to load."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_link_local
    except ValueError:
        return False
