"""Browser endpoints of a grid: where a run's browser comes from when it is not launched here.

`ws://` / `wss://` is Playwright's own protocol (a Playwright server, the official Docker image, a
Selenium Grid or Moon on Kubernetes, browserless): each connection gets a browser of its own.
`http://` / `https://` attaches over the Chrome DevTools Protocol to one running Chromium, where each
run gets a fresh context. Either way a run gets its own context: nothing is shared between runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Literal
from urllib.parse import urlsplit

from browser.options import LaunchOptions

#: A Playwright server launches the browser for the connection with these options (JSON).
LAUNCH_OPTIONS_HEADER = "x-playwright-launch-options"
PROBE_S = 5.0

EndpointKind = Literal["playwright", "cdp"]


class EndpointError(ValueError):
    """An endpoint that is malformed or cannot be reached; the message says which and why."""


def endpoint_kind(url: str) -> EndpointKind:
    scheme = urlsplit(url).scheme.lower()
    if scheme in {"ws", "wss"}:
        return "playwright"
    if scheme in {"http", "https"}:
        return "cdp"
    raise EndpointError(
        f"browser endpoint {url!r}: expected ws:// or wss:// (a Playwright server) or http(s):// (CDP)"
    )


def _host_port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    if not parts.hostname:
        raise EndpointError(f"browser endpoint {url!r} names no host")
    try:
        port = parts.port
    except ValueError as exc:
        raise EndpointError(f"browser endpoint {url!r}: {exc}") from exc
    secure = parts.scheme.lower() in {"wss", "https"}
    return parts.hostname, port or (443 if secure else 80)


def endpoint_options(url: str, base: LaunchOptions) -> LaunchOptions:
    """`base` (viewport, headless) with its browser taken from `url` instead of a local launch."""
    fields = {"cdp_url": None, "ws_endpoint": None, "user_data_dir": None, "executable": None}
    if endpoint_kind(url) == "cdp":
        return base.model_copy(update={**fields, "cdp_url": url})
    launch = json.dumps({"headless": base.headless})
    headers = {**base.ws_headers, LAUNCH_OPTIONS_HEADER: launch}
    return base.model_copy(update={**fields, "ws_endpoint": url, "ws_headers": headers})


async def reachable(url: str, within_s: float = PROBE_S) -> bool:
    """The endpoint accepts a connection now (a TCP handshake: cheap, launches no browser)."""
    host, port = _host_port(url)
    try:
        async with asyncio.timeout(within_s):
            _, writer = await asyncio.open_connection(host, port)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


async def check_endpoints(urls: list[str]) -> None:
    """EndpointError naming every endpoint that is malformed or does not answer."""
    for url in urls:
        endpoint_kind(url)
        _host_port(url)
    answers = await asyncio.gather(*(reachable(url) for url in urls))
    down = [url for url, ok in zip(urls, answers, strict=True) if not ok]
    if down:
        raise EndpointError(
            "browser endpoint not reachable: "
            + ", ".join(down)
            + " (is the Playwright server or browser running there?)"
        )
