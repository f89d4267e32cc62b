"""Which search engine research uses, in a sentence a person reads before the first run.

Why: research sends its queries to a search engine, and the default for the CLI is a public one.
The window says which engine this session uses, whether queries leave the machine, and where to
change it (File › Settings › Search).
"""

from __future__ import annotations

from collections.abc import Mapping
from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit

CHANGE = "To change: File › Settings › Search."


def _is_local(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def search_words(provider: str, url: str | None, demo_base: str | None = None) -> str:
    """E.g. "Research searches the bundled demo site (offline: only its pages). Change it in …"."""
    where = url or ""
    if provider == "local":
        return f"Research searches the files in {where or 'a local folder'} (offline). {CHANGE}"
    if provider == "searxng":
        host = urlsplit(where).netloc or "(no address set)"
        leaves = "on this computer" if _is_local(urlsplit(where).hostname or "") else "your queries go there"
        return f"Research searches your SearXNG instance at {host} ({leaves}). {CHANGE}"
    from executor.research.defaults import DEFAULT_SEARCH_URL  # a constant; read after first paint

    template = where or DEFAULT_SEARCH_URL
    if demo_base and template.startswith(demo_base + "/"):
        return f"Research searches the bundled demo site (offline: nothing leaves this computer). {CHANGE}"
    host = urlsplit(template).hostname or template
    if _is_local(host):
        return f"Research searches a search page on this computer ({urlsplit(template).netloc}). {CHANGE}"
    return f"Research searches {host}, a public search engine: your queries are sent there. {CHANGE}"


def search_note(settings: Mapping[str, Any], demo_base: str | None) -> str:
    """The window's line under the task box, from its settings values."""
    url = settings.get("search_url")
    return search_words(
        str(settings.get("search_provider") or "browser"), str(url) if url else None, demo_base
    )
