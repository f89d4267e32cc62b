"""One coroutine per action kind; browser/actions.py wraps them with guards, timing and redaction.

Each gets the session, its (already validated) action and the timeout in ms, and may raise
Playwright's TimeoutError / Error, which the wrapper turns into typed outcomes.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from playwright.async_api import ElementHandle, Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browser.click_facts import javascript_refusal, read_facts
from browser.matching import THRESHOLD, Purpose, normalise, similarity
from browser.models import (
    ActionOutcome,
    CheckAction,
    ClickAction,
    DoneAction,
    DownloadAction,
    DownloadInfo,
    ExtractAction,
    FillAction,
    NavigateAction,
    OutcomeStatus,
    PressAction,
    ScrollAction,
    SelectAction,
    Target,
    UploadAction,
    WaitAction,
)
from browser.navigation import open_url
from browser.observe import INDEX_ATTR
from browser.request_guard import IS_SEARCH_FIELD
from browser.session import BrowserSession
from browser.targets import Resolution, native_locator, resolve
from common.secrecy import REDACTED, FieldFacts

OK = OutcomeStatus.OK
SENSITIVE_MARK = "data-waypost-sensitive"
_IS_SENSITIVE = """e => (e.type || "").toLowerCase() === "password" || e.hasAttribute("data-sensitive")
  || e.hasAttribute("data-waypost-sensitive")
  || /^cc-/.test((e.getAttribute("autocomplete") || "").toLowerCase())"""
_FIELD_FACTS = """e => ({input_type: e.type || "", autocomplete: e.getAttribute("autocomplete") || "",
  name: e.getAttribute("name") || "", id: e.id || "",
  label: ((e.labels && e.labels[0]) ? e.labels[0].innerText : "") || e.getAttribute("aria-label") || ""})"""
_OPTIONS = "e => Array.from(e.options || []).map(o => ({value: o.value, label: (o.label || o.text).trim()}))"
_TABLE_ROWS = """e => {
  const t = e.tagName === "TABLE" ? e : (e.closest("table") || e.querySelector("table"));
  if (!t) return null;
  return Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.innerText.replace(/\\s+/g, " ").trim()));
}"""


def _miss(kind: Any, resolution: Resolution) -> ActionOutcome:
    return ActionOutcome(
        kind=kind, status=resolution.status, message=resolution.message, candidates=resolution.candidates
    )


async def _locate(
    session: BrowserSession, target: Target, limit_ms: float, purpose: Purpose | None = None
) -> Resolution:
    return await resolve(session.page, target, limit_ms, purpose)


async def navigate(session: BrowserSession, action: NavigateAction, limit_ms: float) -> ActionOutcome:
    reason = session.url_policy.check(action.url)
    if reason is not None:
        return ActionOutcome(kind="navigate", status=OutcomeStatus.BLOCKED, message=reason)
    nav_timeout = float(action.timeout_ms or session.navigation_timeout_ms)
    with session.quarantine.own(action.url):  # Waypost's own navigation may leave a quarantine
        response = await open_url(
            session.page, action.url, wait_until=action.wait_until, timeout_ms=nav_timeout
        )
    status = response.status if response is not None else None
    if status is not None and status >= 400:  # the server answered with an error page: not opened
        return ActionOutcome(
            kind="navigate", status=OutcomeStatus.ERROR, message=f"HTTP {status} for {action.url}"
        )
    return ActionOutcome(kind="navigate", status=OK, message=f"HTTP {status}" if status else "")


async def click(session: BrowserSession, action: ClickAction, limit_ms: float) -> ActionOutcome:
    found = await _locate(session, action.target, limit_ms)
    if not found.ok or found.locator is None:
        return _miss("click", found)
    refused = javascript_refusal(await read_facts(found.locator, limit_ms))
    if refused is not None:  # it would run the page's script: never clicked
        blocked = OutcomeStatus.BLOCKED
        return ActionOutcome(kind="click", status=blocked, message=refused, resolved=found.resolved)
    mark = session.sent.mark()
    try:
        await found.locator.click(button=action.button, click_count=action.click_count, timeout=limit_ms)
    except PlaywrightTimeout:
        if not session.sent.since(mark):
            raise
        # The press went out and the site is slow to answer: the click's own time does not decide the
        # outcome; what it sent is awaited within the call's deadline (browser/sent_requests.py).
    return ActionOutcome(kind="click", status=OK, resolved=found.resolved)


async def fill(session: BrowserSession, action: FillAction, limit_ms: float) -> ActionOutcome:
    found = await _locate(session, action.target, limit_ms, "fill")
    if not found.ok or found.locator is None:
        return _miss("fill", found)
    value = action.value
    if session.vault.has_placeholder(value):
        # One element, in one document: if its frame navigates away after the check, the handle dies
        # with the document and nothing is typed into whatever loaded there.
        field = await found.locator.element_handle(timeout=limit_ms)
        facts = FieldFacts.model_validate(await field.evaluate(_FIELD_FACTS))
        refused = session.vault.refusal(value, await _frame_url(field), facts)
        if refused is not None:  # before any keystroke: the reason goes into the receipt
            return ActionOutcome(kind="fill", status=OutcomeStatus.BLOCKED, message=refused)
        value = session.vault.resolve(value)
        await session.typed_in(value, secret=True)
        # Marked before typing so observations, DOM hashes and screenshots hide it from now on.
        await field.evaluate(f"e => e.setAttribute('{SENSITIVE_MARK}', '')")
        await field.fill(value, timeout=limit_ms)
        return ActionOutcome(kind="fill", status=OK, resolved=found.resolved)
    if not await found.locator.evaluate(IS_SEARCH_FIELD):
        await session.typed_in(value)  # a personal value: under no_submit it never leaves the browser
    await found.locator.fill(value, timeout=limit_ms)
    return ActionOutcome(kind="fill", status=OK, resolved=found.resolved)


async def _frame_url(field: ElementHandle) -> str:
    """The URL of the document the field is in, as the browser knows it (a frame of another origin
    inside the declared page is that other origin): what a secret's binding is checked against."""
    frame = await field.owner_frame()
    return frame.url if frame is not None else ""


async def select(session: BrowserSession, action: SelectAction, limit_ms: float) -> ActionOutcome:
    found = await _locate(session, action.target, limit_ms, "select")
    if not found.ok or found.locator is None:
        return _miss("select", found)
    options: list[dict[str, str]] | None = found.info.get("options")  # read while resolving
    if options is None:  # not a <select> (a listbox role, say): ask the element itself
        options = await found.locator.evaluate(_OPTIONS, None)
    if not options:
        return ActionOutcome(
            kind="select", status=OutcomeStatus.ERROR, message="not a <select>", resolved=found.resolved
        )
    wanted = [action.value] if isinstance(action.value, str) else action.value
    chosen: list[str] = []
    for want in wanted:
        value = _pick_option(want, options)
        if value is None:
            return ActionOutcome(
                kind="select",
                status=OutcomeStatus.NOT_FOUND,
                message=f"no option {want!r}",
                candidates=[o["label"] for o in options][:25],
                resolved=found.resolved,
            )
        chosen.append(value)
    await found.locator.select_option(value=chosen, timeout=limit_ms)
    return ActionOutcome(kind="select", status=OK, resolved=found.resolved, value=", ".join(chosen))


def _pick_option(want: str, options: list[dict[str, str]]) -> str | None:
    """Exact value, then label ignoring case/whitespace, then the unique near-miss label."""
    for o in options:
        if o["value"] == want:
            return o["value"]
    for o in options:
        if normalise(o["label"]) == normalise(want):
            return o["value"]
    scored = sorted(((similarity(want, o["label"]), o["value"]) for o in options), reverse=True)
    if scored and scored[0][0] >= THRESHOLD and (len(scored) == 1 or scored[1][0] < scored[0][0]):
        return scored[0][1]
    return None


async def check(session: BrowserSession, action: CheckAction, limit_ms: float) -> ActionOutcome:
    found = await _locate(session, action.target, limit_ms, "check")
    if not found.ok or found.locator is None:
        return _miss("check", found)
    await found.locator.set_checked(action.checked, timeout=limit_ms)
    return ActionOutcome(kind="check", status=OK, resolved=found.resolved)


async def press(session: BrowserSession, action: PressAction, limit_ms: float) -> ActionOutcome:
    if action.target is None:
        await session.page.keyboard.press(action.key)
        return ActionOutcome(kind="press", status=OK)
    found = await _locate(session, action.target, limit_ms)
    if not found.ok or found.locator is None:
        return _miss("press", found)
    await found.locator.press(action.key, timeout=limit_ms)
    return ActionOutcome(kind="press", status=OK, resolved=found.resolved)


async def scroll(session: BrowserSession, action: ScrollAction, limit_ms: float) -> ActionOutcome:
    if action.target is not None:
        found = await _locate(session, action.target, limit_ms)
        if not found.ok or found.locator is None:
            return _miss("scroll", found)
        await found.locator.scroll_into_view_if_needed(timeout=limit_ms)
        return ActionOutcome(kind="scroll", status=OK, resolved=found.resolved)
    dx = {"left": -action.amount, "right": action.amount}.get(action.direction, 0)
    dy = {"up": -action.amount, "down": action.amount}.get(action.direction, 0)
    position = await session.page.evaluate(
        "([dx, dy]) => { window.scrollBy(dx, dy); return [window.scrollX, window.scrollY]; }", [dx, dy]
    )
    return ActionOutcome(kind="scroll", status=OK, value=f"{position[0]},{position[1]}")


async def wait(session: BrowserSession, action: WaitAction, limit_ms: float) -> ActionOutcome:
    page = session.page
    if action.target is not None:
        await _wait_locator(page, action.target).wait_for(state=action.state, timeout=limit_ms)
    elif action.text is not None:
        await page.get_by_text(action.text).first.wait_for(state="visible", timeout=limit_ms)
    elif action.url_contains is not None:
        needle = action.url_contains
        await page.wait_for_url(lambda url: needle in url, timeout=limit_ms, wait_until="commit")
    elif action.load_state is not None:
        await page.wait_for_load_state(action.load_state, timeout=limit_ms)
    return ActionOutcome(kind="wait", status=OK)


def _wait_locator(page: Page, target: Target) -> Locator:
    """Waiting needs no unique match: the first element the target describes, appearing or going."""
    if target.index is not None:
        return page.locator(f'[{INDEX_ATTR}="{target.index}"]').first
    return native_locator(page.main_frame, target, exact=False).first


async def extract(session: BrowserSession, action: ExtractAction, limit_ms: float) -> ActionOutcome:
    page = session.page
    locator: Locator | None = None
    outcome = ActionOutcome(kind="extract", status=OK)
    if action.target is not None:
        found = await _locate(session, action.target, limit_ms)
        if not found.ok or found.locator is None:
            return _miss("extract", found)
        locator = found.locator
        outcome.resolved = found.resolved
    if action.what == "text":
        outcome.value = await (locator or page.locator("body")).inner_text(timeout=limit_ms)
    elif action.what == "table":
        rows = await (locator or page.locator("table").first).evaluate(_TABLE_ROWS, None, timeout=limit_ms)
        if rows is None:
            return ActionOutcome(kind="extract", status=OutcomeStatus.NOT_FOUND, message="no table there")
        outcome.table = rows
    else:
        assert locator is not None  # the model validator requires a target for attributes
        assert action.attribute is not None
        if action.attribute.lower() == "value" and await locator.evaluate(_IS_SENSITIVE):
            outcome.value = REDACTED
        else:
            outcome.value = await locator.get_attribute(action.attribute, timeout=limit_ms)
    return outcome


async def download(session: BrowserSession, action: DownloadAction, limit_ms: float) -> ActionOutcome:
    found = await _locate(session, action.target, limit_ms)
    if not found.ok or found.locator is None:
        return _miss("download", found)
    async with session.page.expect_download(timeout=limit_ms) as info:
        await found.locator.click(timeout=limit_ms)
    dl = await info.value
    name = _safe_name(action.save_as or dl.suggested_filename)
    path = _unique(session.downloads_dir / name)
    await dl.save_as(path)
    with path.open("rb") as saved:  # hashed as it is read: a download may be larger than memory
        digest = hashlib.file_digest(saved, "sha256").hexdigest()
    return ActionOutcome(
        kind="download",
        status=OK,
        resolved=found.resolved,
        download=DownloadInfo(
            path=str(path),
            sha256=digest,
            size=path.stat().st_size,
            suggested_filename=dl.suggested_filename,
        ),
    )


def _safe_name(name: str) -> str:
    """Downloads stay inside the downloads folder: no separators, no dot-files, no traversal."""
    cleaned = re.sub(r"[^A-Za-z0-9._ -]", "_", Path(name).name).strip(" .")
    return cleaned or "download"


def _unique(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    candidate, n = path, 1
    while candidate.exists():
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        n += 1
    return candidate


async def upload(session: BrowserSession, action: UploadAction, limit_ms: float) -> ActionOutcome:
    missing = [f for f in action.files if not Path(f).is_file()]  # noqa: ASYNC240 (a stat, no I/O wait)
    if missing:
        return ActionOutcome(kind="upload", status=OutcomeStatus.ERROR, message=f"no such file: {missing}")
    found = await _locate(session, action.target, limit_ms, "upload")
    if not found.ok or found.locator is None:
        return _miss("upload", found)
    await found.locator.set_input_files(action.files, timeout=limit_ms)
    return ActionOutcome(kind="upload", status=OK, resolved=found.resolved)


async def done(session: BrowserSession, action: DoneAction, limit_ms: float) -> ActionOutcome:
    """Touches nothing: whether the task succeeded is the executor's call, carried in the action."""
    return ActionOutcome(kind="done", status=OK, value=action.summary)
