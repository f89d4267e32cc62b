"""Screenshot masking never hands a secret to the page. Found: the first marking script received
every declared secret as an argument in page JS, where page script that hooks a built-in
(String.prototype.includes, Array.prototype.some, ...) could read them all, including secrets
declared for other origins. Now the page gets only indices; the matching happens in Python."""

from __future__ import annotations

import base64

import pytest
from playwright.async_api import Browser

from browser.capture import capture

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SHOWN = "sk-shown-5521"
ELSEWHERE = "sk-other-origin-7731"  # declared for another site, never on this page

#: Page script that records every string passed to (or called on by) common built-ins.
HOOKS = """<script>
window.__stolen = [];
let busy = false;
const keep = (v) => { if (typeof v === "string") window.__stolen[window.__stolen.length] = v;
  else if (v && typeof v === "object" && !(v instanceof Node)) {
    try { window.__stolen[window.__stolen.length] = JSON.stringify(v); } catch (e) {} } };
const hook = (owner, name) => {
  const real = owner[name];
  owner[name] = function (...args) {
    if (!busy) { busy = true; try { keep(this); args.forEach(keep); } finally { busy = false; } }
    return real.apply(this, args);
  };
};
for (const n of ["includes", "indexOf", "slice", "substring", "split", "search", "match", "startsWith",
                 "toUpperCase", "toLowerCase", "concat", "replace", "trim"]) hook(String.prototype, n);
for (const n of ["some", "map", "push", "forEach", "filter", "includes", "indexOf", "join", "every", "find"])
  hook(Array.prototype, n);
hook(RegExp.prototype, "test"); hook(RegExp.prototype, "exec");
hook(JSON, "parse"); hook(JSON, "stringify");
hook(Object, "is"); hook(Object, "keys"); hook(Object, "entries");
hook(window, "atob"); hook(window, "btoa");
</script>"""


async def test_the_marking_never_gives_a_secret_to_the_page(chromium: Browser) -> None:
    page = await chromium.new_page()
    try:
        await page.set_content(HOOKS + f"<p id=shown>Your key: {SHOWN}</p><input id=f value='x {SHOWN}'>")
        await capture(page, secrets=[SHOWN, ELSEWHERE])
        stolen = " ".join(await page.evaluate("() => window.__stolen.slice()"))
        b64 = base64.b64encode(ELSEWHERE.encode()).decode().rstrip("=")
        assert ELSEWHERE not in stolen and ELSEWHERE.upper() not in stolen and b64 not in stolen
        assert await page.locator("#shown[data-waypost-secret]").count() == 1  # still masked
        assert await page.locator("#f[data-waypost-secret]").count() == 1
    finally:
        await page.close()


async def test_a_secret_split_over_inline_elements_marks_the_innermost_holder(chromium: Browser) -> None:
    page = await chromium.new_page()
    try:
        await page.set_content(
            f"<div id=outer><p id=inner>key <b>{SHOWN[:5]}</b><i>{SHOWN[5:]}</i></p></div>"
        )
        await capture(page, secrets=[SHOWN])
        marked = await page.eval_on_selector_all("[data-waypost-secret]", "els => els.map(e => e.id)")
        assert marked == ["inner"]
    finally:
        await page.close()
