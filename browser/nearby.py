"""The control a person reads a loose label as belonging to: `<p><label>Username</label><input></p>`.

Many real forms never tie their labels to their inputs (no `for=`, no nesting, no aria): the text
just sits right before the field in the same container. This finds, for a label text, the first
form control that follows an element whose own text is exactly that label, looking in the element's
parent and then its grandparent only (a caption far away does not count). The controls found are
marked with an attribute so Playwright can address them; the marks of an earlier call are removed.
"""

from __future__ import annotations

import asyncio
import itertools

from playwright.async_api import Error, Frame

NEAR_ATTR = "data-wp-near"

_FIND_JS = """([query, token, attr]) => {
  const norm = (s) => (s || "").replace(/\\s+/g, " ").trim().replace(/[\\s:*]+$/, "").toLowerCase();
  const want = norm(query);
  const CONTROL = "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset])"
    + ":not([type=image]), textarea, select, [contenteditable=''], [contenteditable=true], [role=textbox],"
    + " [role=combobox], [role=searchbox], [role=spinbutton], [role=checkbox], [role=radio], [role=switch]";
  document.querySelectorAll(`[${attr}]`).forEach((e) => e.removeAttribute(attr));
  if (!want) return 0;
  const found = [];
  const texts = document.querySelectorAll("label, span, div, p, td, th, dt, b, strong, em, legend, font");
  for (const el of texts) {
    if (el.querySelector(CONTROL) || norm(el.textContent) !== want) continue;
    let scope = el.parentElement;
    for (let depth = 0; scope && depth < 2; depth++, scope = scope.parentElement) {
      const next = Array.from(scope.querySelectorAll(CONTROL))
        .find((c) => el.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING);
      if (next) { if (!found.includes(next)) found.push(next); break; }
    }
  }
  found.forEach((c) => c.setAttribute(attr, token));
  return found.length;
}"""

_tokens = itertools.count(1)


async def near_label(frames: list[Frame], label: str) -> str | None:
    """Marks, in every frame, the controls that follow `label` text in the same container; returns
    the mark's value (address them with `[data-wp-near="<mark>"]`), or None when there is none."""
    token = str(next(_tokens))
    counts = await asyncio.gather(
        *(frame.evaluate(_FIND_JS, [label, token, NEAR_ATTR]) for frame in frames), return_exceptions=True
    )
    found = 0
    for count in counts:
        if isinstance(count, Error):
            continue  # a detached or navigating frame has no controls to offer
        if isinstance(count, BaseException):
            raise count
        found += int(count)
    return token if found else None
