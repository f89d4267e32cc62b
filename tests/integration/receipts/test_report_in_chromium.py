"""Receipts against a real headless Chromium: real screenshots, a real trace, the report rendered.

Pages come from set_content (no server, no network); the report must load nothing at all.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from receipts.attest import OWN_LABEL, TrustedKey
from receipts.interface import Capture
from receipts.keys import InstallKey
from receipts.layout import RunFolder
from receipts.recorder import JsonlRecorder
from receipts.redaction import Redactor
from receipts.report import export_report
from receipts.verify import verify

pytestmark = pytest.mark.browser

SECRET = "Chromium-typed-S3cret!"
FORM = """<!doctype html><title>Login <script>alert(1)</script></title>
<h1>Sign in</h1><label>User <input id=user></label>
<label>Password <input id=pw type=password></label>
<button id=go onclick="this.textContent='Sent'">Go</button>"""


def _chromium() -> str:
    exe = os.environ.get("WAYPOST_BROWSER") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        pytest.skip("no Chromium on this machine (apt-get install -y chromium)")
    return exe


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        launched = await pw.chromium.launch(
            executable_path=_chromium(), args=["--no-sandbox", "--disable-gpu"]
        )
        yield launched
        await launched.close()


async def capture(page: Page) -> Capture:
    html = await page.content()
    shot = await page.screenshot(mask=[page.locator("input[type=password]")])
    return Capture(page.url, await page.title(), hashlib.sha256(html.encode()).hexdigest(), shot)


async def record_login(browser: Browser, run_dir: Path) -> None:
    context = await browser.new_context(viewport={"width": 800, "height": 500})
    await context.tracing.start(screenshots=True, snapshots=True)
    page = await context.new_page()
    await page.set_content(FORM)
    signer = InstallKey(run_dir.parent / "data" / "key.pem")
    rec = await JsonlRecorder.open(run_dir, redactor=Redactor([SECRET]), signer=signer)
    steps: list[tuple[dict[str, object], str, str | None]] = [
        ({"kind": "fill", "target": {"label": "User"}, "value": "qa"}, "#user", "qa"),
        ({"kind": "fill", "target": {"label": "Password"}, "value": SECRET}, "#pw", SECRET),
        ({"kind": "click", "target": {"role": "button", "name": "Go"}}, "#go", None),
    ]
    for action, selector, text in steps:
        # The cheap part first: a screenshot only when the last after-shot does not show this state.
        dom_hash = hashlib.sha256((await page.content()).encode()).hexdigest()
        if rec.needs_before_shot(page.url, dom_hash):
            before = await capture(page)
        else:
            before = Capture(page.url, await page.title(), dom_hash, None)
        if text is None:
            await page.locator(selector).click()
        else:
            await page.locator(selector).fill(text)
        after = await capture(page)
        record = await rec.record_action(action=action, outcome={"status": "ok"}, before=before, after=after)
        assert record.before.shot is not None
    await context.tracing.stop(path=RunFolder(run_dir).trace)
    await rec.finish("SUCCESS", final_state=await capture(page))
    await context.close()


async def test_secret_typed_in_chromium_is_in_no_file_not_even_the_trace(
    browser: Browser, tmp_path: Path
) -> None:
    run_dir = tmp_path / "run_login"
    await record_login(browser, run_dir)
    report = verify(run_dir)
    assert report.ok, report.summary()
    export_report(run_dir)
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path.name
    with zipfile.ZipFile(RunFolder(run_dir).trace) as zf:
        for name in zf.namelist():
            assert SECRET.encode() not in zf.read(name), f"trace member {name}"


async def test_report_loads_nothing_and_enlarges_on_click(browser: Browser, tmp_path: Path) -> None:
    run_dir = tmp_path / "run_login"
    await record_login(browser, run_dir)
    own = InstallKey(tmp_path / "data" / "key.pem").public()
    assert own is not None
    report_path = export_report(run_dir, trusted=[TrustedKey(own, OWN_LABEL)])
    page = await browser.new_page(viewport={"width": 1200, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("dialog", lambda d: errors.append(f"dialog {d.message}"))
    await page.goto(report_path.as_uri())
    assert [u for u in requests if not u.startswith(("file://", "data:"))] == []
    assert errors == []
    assert await page.title() == "Waypost run run_login"
    thumbs = page.locator("a.thumb")
    assert await thumbs.count() >= 4
    box = await thumbs.first.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 50
    background = await thumbs.first.evaluate("e => getComputedStyle(e).backgroundImage")
    assert background.startswith('url("data:image/png;base64,')
    lightbox = page.locator(".lightbox:target")
    assert await lightbox.count() == 0
    await thumbs.first.click()
    await lightbox.wait_for(state="visible")
    await lightbox.locator("a.big").click()
    await lightbox.wait_for(state="detached")
    assert "Receipts verified" in await page.locator(".verify").inner_text()
    await page.close()
