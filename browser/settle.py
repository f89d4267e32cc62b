"""When is a page settled: loaded, and its DOM quiet for a moment.

A target absent from a settled page is not coming: resolution says `not_found` at once instead of
waiting out the action's timeout. A page still loading or still changing keeps the full wait, so an
element a script adds a moment later is still found. A page that never stops changing (a ticking
clock) never counts as settled and simply gets the timeout.
"""

from __future__ import annotations

from playwright.async_api import Error, Frame

#: The DOM must stay unchanged this long, after the load event, to count as settled.
QUIET_MS = 300

_SETTLED_JS = """quietMs => new Promise(resolve => {
  let timer = null;
  const observer = new MutationObserver(() => arm());
  function arm() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (document.readyState === "complete") { observer.disconnect(); resolve(true); } else arm();
    }, quietMs);
  }
  observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  arm();
})"""


async def settled(frame: Frame, quiet_ms: int = QUIET_MS) -> bool:
    """Returns once the frame is loaded and quiet (True), or False when it navigated meanwhile.

    It never returns while the page keeps changing: callers race it against their own timeout."""
    try:
        return bool(await frame.evaluate(_SETTLED_JS, quiet_ms))
    except Error:  # navigated or detached while waiting: not a settled page
        return False
