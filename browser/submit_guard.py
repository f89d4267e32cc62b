"""No form submission leaves the page while `no_submit` (or a blocked "submit") is in force.

Two layers, because either alone has holes:
- an init script in every frame cancels `submit` events in the capture phase (clicks on submit
  buttons, Enter in a field, requestSubmit) and replaces HTMLFormElement.prototype.submit; each
  attempt is logged in the page synchronously, and the driver drains that log right after every
  action (DRAIN_SCRIPT), so the action that tried to submit is the one reported as blocked;
- the session's context route aborts every request whose method changes state (POST, PUT, PATCH,
  DELETE), which also stops fetch/XHR posts and anything the script layer missed.
"""

from __future__ import annotations

from playwright.async_api import Error, Page

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

INIT_SCRIPT = """
(() => {
  if (window.__waypostSubmitGuard) { window.__waypostSubmitGuard.on = true; return; }
  const guard = { on: true };
  Object.defineProperty(window, "__waypostSubmitGuard", { value: guard, enumerable: false });
  const report = (how, form) => {
    try {
      const label = form ? (form.getAttribute("action") || form.id || "form") : "form";
      (window.__waypostSubmitLog = window.__waypostSubmitLog || []).push(how + ": " + label);
    } catch (e) { /* reporting must never let the submission through */ }
  };
  // A GET search form sends a query, not the person's data; the route guard still refuses any
  // request that carries a personal value Waypost typed.
  const isSearch = (form) => !!form && (form.method || "get").toLowerCase() === "get"
    && (form.getAttribute("role") === "search" || !!form.querySelector("input[type=search]"));
  window.addEventListener("submit", (event) => {
    if (!guard.on || isSearch(event.target)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    report("submit event", event.target);
  }, true);
  const proto = HTMLFormElement.prototype;
  const submit = proto.submit, requestSubmit = proto.requestSubmit;
  proto.submit = function () {
    return guard.on && !isSearch(this) ? report("form.submit()", this) : submit.call(this);
  };
  proto.requestSubmit = function (...args) {
    if (guard.on && !isSearch(this)) return report("form.requestSubmit()", this);
    return requestSubmit.apply(this, args);
  };
})();
"""

#: Turns the script layer off in a document that already has it (a later step allows submitting).
#: The page could do the same, which is why the route layer, not this script, is the guarantee.
OFF_SCRIPT = "() => { if (window.__waypostSubmitGuard) window.__waypostSubmitGuard.on = false; }"

DRAIN_SCRIPT = (
    "() => { const log = window.__waypostSubmitLog || []; window.__waypostSubmitLog = []; return log; }"
)


def is_unsafe_method(method: str) -> bool:
    return method.upper() in UNSAFE_METHODS


async def drain_attempts(page: Page) -> list[str]:
    """Submit attempts the init script stopped in any frame of `page` since the last drain."""
    attempts: list[str] = []
    for frame in page.frames:
        try:
            attempts.extend(str(a) for a in await frame.evaluate(DRAIN_SCRIPT))
        except Error:
            continue  # a frame that navigated away took its log with it; the route layer still held
    return attempts
