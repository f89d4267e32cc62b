"""The window's demo site, and the same site served again at an address an earlier session used.

A plan records the address of the demo site it was made beside (ui/site_record.py). When a run from
another session is resumed and that address differs from this session's (its port was busy at
launch), the site is started there too, for the rest of the session.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from app.demo.server import DemoSite
from ui.site_record import SiteUnavailable


class DemoSites:
    """Implements ui.site_record.SiteKeeper over one main DemoSite and any revived addresses."""

    def __init__(self, main: DemoSite) -> None:
        self.main = main
        self._revived: dict[str, DemoSite] = {}

    @property
    def base_url(self) -> str:
        return self.main.base_url

    def serve(self, address: str) -> None:
        if address == self.main.base_url or address in self._revived:
            return
        parts = urlsplit(address)
        if parts.scheme != "http" or parts.hostname != "127.0.0.1" or parts.port is None:
            raise SiteUnavailable(f"{address} is not an address of the bundled demo site")
        try:
            site = DemoSite(parts.port, fallback=False).start()
        except OSError as exc:
            raise SiteUnavailable(
                f"This run used the demo site at {address}, and port {parts.port} is now taken by another "
                f"program ({exc.strerror or exc}). Close that program and resume again."
            ) from exc
        self._revived[address] = site

    def close(self) -> None:
        for site in self._revived.values():
            site.stop()
        self._revived.clear()
