"""Under `no_submit`, once a value other than a search query was typed, the page's network is
quarantined rather than scanned: nothing it sends leaves (docs/architecture.md, "Security model").

A scan by content (browser/request_guard.py) can be beaten by any encoding it does not know: the
value reversed, hex-encoded, split in chunks, base64 behind a prefix. So from the first such value
on, the session's route refuses every request a page, a frame or a dedicated worker makes, and the
socket guard every WebSocket message and connection; the worker guard keeps workers paused. What
Waypost itself starts goes on: its own navigations (`own()`, after the content scan, which stays as a
second line). The quarantine lasts until the session closes, and closing runs no page script
(`silence`): unload, pagehide and visibilitychange handlers would otherwise send the value with
`fetch(..., {keepalive: true})` or a beacon, which no route sees (measured on Chromium 156).

WebRTC never passes any route (a TURN username crosses UDP), so under `no_submit` every frame's
`RTCPeerConnection` is replaced, before the page's own script runs, by one that refuses
(`NO_WEBRTC`): a page cannot keep the real one from before, and frames it makes inherit the script.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

from playwright.async_api import BrowserContext, Error, Page

REFUSED = "request refused: the page's network is quarantined since a value was typed (no_submit)"

#: Init script under no_submit: no frame of the page can open a WebRTC connection.
NO_WEBRTC = """
(() => {
  const refuse = function () {
    throw new DOMException("WebRTC is off while nothing may be submitted", "NotAllowedError");
  };
  for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection"]) {
    try { Object.defineProperty(window, name, { value: refuse, writable: false, configurable: false }); }
    catch (e) { /* already replaced in this document */ }
  }
})();
"""


def _key(url: str) -> str:
    """A URL as Chromium sends it, near enough to match Waypost's own navigation: no fragment, a
    lower-case scheme and host, and "/" for an empty path."""
    parts = urlsplit(url.strip())
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, ""))


class Quarantine:
    """One session's quarantine: off until `start()`, then on until the session closes."""

    def __init__(self) -> None:
        self.on = False
        self._own: list[str] = []

    def start(self) -> None:
        self.on = True

    @contextlib.contextmanager
    def own(self, url: str) -> Iterator[None]:
        """While Waypost itself navigates to `url`, that navigation may leave."""
        key = _key(url)
        self._own.append(key)
        try:
            yield
        finally:
            self._own.remove(key)

    def refuses(self, url: str, navigation: bool) -> bool:
        return self.on and not (navigation and _key(url) in self._own)


async def silence(context: BrowserContext, pages: list[Page]) -> None:
    """Turns script off in every frame of `pages` (each out-of-process frame has its own session),
    so closing them runs none of their unload, pagehide or visibilitychange handlers."""
    for page in pages:
        for frame in page.frames:
            try:
                cdp = await context.new_cdp_session(page if frame == page.main_frame else frame)
            except Error:
                continue  # a frame in its page's process: the page's session covers it
            with contextlib.suppress(Error):  # gone meanwhile: it runs nothing any more
                await cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
