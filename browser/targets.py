"""Resolving a Target to exactly one Playwright locator, or saying precisely why not.

The order, as a person reads a page (each step runs only when the ones before found nothing):
1. an element index from the last observation (exact, or `not_found`: observe again);
2. the exact accessible name: role+name, and for a label Playwright's label rules (`for=`,
   wrapping `<label>`, `aria-labelledby`, `aria-label`); also text, placeholder or a selector;
3. for a label: a label or text right before the control in the same container, with no tie to it
   (`<p><label>Username</label><input></p>`, browser/nearby.py);
4. for a label: the placeholder, when that is the only caption the field has;
5. the case-insensitive substring form of 2 (`title`/`aria-label` of icons are accessible names);
6. fuzzy matching over a fresh scan of the page (browser/matching.py).
When a step finds several, they are narrowed: fit for the action (a fill never lands on a radio),
then visible over hidden, then inside an open dialog over the page behind it. Still several is
`ambiguous` with the candidates: a click never guesses. None at all gives the closest names; an
absent target waits for a late element only while the page is still loading or changing
(browser/settle.py), so on a settled page `not_found` comes back at once. Each step costs one page
round trip, all frames at once; the usual target is found by step 2 alone.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error, Frame, Locator, Page

from browser.matching import Purpose, fits, fuzzy_match, similarity
from browser.models import ElementInfo, OutcomeStatus, ResolvedTarget, Target
from browser.nearby import NEAR_ATTR, near_label
from browser.observe import INDEX_ATTR, SCAN_ATTR, scan
from browser.settle import settled

_DESCRIBE_ALL = """els => els.map(e => {
  const tag = e.tagName.toLowerCase();
  const type = tag === "input" ? (e.type || "text").toLowerCase() : null;
  const label = e.labels && e.labels.length ? e.labels[0].innerText : null;
  const text = e.getAttribute("aria-label") || label
    || (tag === "input" ? (["button", "submit", "reset"].includes(type) ? e.value : "")
        : (tag === "select" || tag === "textarea" ? "" : e.innerText))
    || e.getAttribute("placeholder") || e.getAttribute("title") || "";
  const r = e.getBoundingClientRect();
  const visible = (r.width > 0 || r.height > 0)
    && (!e.checkVisibility || e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }));
  return {
    tag, type, id: e.id || null, name: e.getAttribute("name"), role: e.getAttribute("role"),
    idx: e.getAttribute("data-wp-idx"), text: (text || "").replace(/\\s+/g, " ").trim().slice(0, 60),
    visible,
    dialog: !!e.closest("dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]"),
    options: tag === "select"
      ? Array.from(e.options).map(o => ({value: o.value, label: (o.label || o.text).trim()})) : null,
  };
})"""

Info = dict[str, Any]


@dataclass
class Resolution:
    status: OutcomeStatus
    locator: Locator | None = None
    resolved: ResolvedTarget | None = None
    message: str = ""
    candidates: list[str] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)  # what _DESCRIBE_ALL said of the element

    @property
    def ok(self) -> bool:
        return self.status is OutcomeStatus.OK and self.locator is not None


@dataclass
class _Match:
    frame: Frame
    locator: Locator
    info: Info


def native_locator(frame: Frame, target: Target, exact: bool) -> Locator:
    if target.selector is not None:
        return frame.locator(target.selector)
    if target.role is not None:
        role: Any = target.role
        if target.name is None:
            return frame.get_by_role(role)
        return frame.get_by_role(role, name=target.name, exact=exact)
    if target.label is not None:
        return frame.get_by_label(target.label, exact=exact)
    if target.placeholder is not None:
        return frame.get_by_placeholder(target.placeholder, exact=exact)
    if target.text is not None:
        return frame.get_by_text(target.text, exact=exact)
    return frame.locator(f'[{INDEX_ATTR}="{target.index}"]')


def _resolved(match: _Match, how: str, score: float = 1.0) -> ResolvedTarget:
    info, frame = match.info, match.frame
    selector = None
    if info.get("id"):
        selector = f"{info['tag']}#{info['id']}"
    elif info.get("name"):
        selector = f"{info['tag']}[name={json.dumps(info['name'])}]"
    index = int(info["idx"]) if str(info.get("idx") or "").isdigit() else None
    text = str(info.get("text") or "")
    return ResolvedTarget(
        description=f"{how}: {info['tag']}" + (f' "{text}"' if text else ""),
        selector=selector,
        role=info.get("role"),
        name=text or None,
        index=index,
        frame_url=None if frame == frame.page.main_frame else frame.url,
        score=round(score, 3),
    )


def _label(info: Info) -> str:
    where = f"#{info['id']}" if info.get("id") else ""
    index = f" [index {info['idx']}]" if info.get("idx") else ""
    return f'{info["tag"]}{where} "{info["text"]}"{index}'


def _found(match: _Match, how: str, score: float = 1.0) -> Resolution:
    return Resolution(OutcomeStatus.OK, match.locator, _resolved(match, how, score), info=match.info)


async def _all(page: Page, make: Any, frames: list[Frame] | None = None) -> list[_Match]:
    """Every element `make(frame)` finds in any frame, with its description: the frames are asked
    at once (one round trip for the page, not one per frame) and answer in `page.frames` order."""
    scope = page.frames if frames is None else frames
    locators: list[Locator] = [make(frame) for frame in scope]
    answers = await asyncio.gather(
        *(loc.evaluate_all(_DESCRIBE_ALL) for loc in locators), return_exceptions=True
    )
    found: list[_Match] = []
    for frame, loc, infos in zip(scope, locators, answers, strict=True):
        if isinstance(infos, Error):
            continue  # a detached frame or a selector this frame cannot parse
        if isinstance(infos, BaseException):
            raise infos  # not a page problem (cancellation, a bug): never swallowed
        found.extend(_Match(frame, loc.nth(i), info) for i, info in enumerate(infos))
    return found


def _narrow(found: list[_Match], purpose: Purpose | None) -> list[_Match]:
    """Fit for the action beats unfit, visible beats hidden, inside the open dialog beats the page."""
    if len(found) > 1 and purpose is not None:
        fit = [m for m in found if fits(purpose, str(m.info["tag"]), m.info.get("type"), m.info.get("role"))]
        found = fit or found
    if len(found) > 1:
        visible = [m for m in found if m.info.get("visible")]
        found = visible or found
    if len(found) > 1:
        in_dialog = [m for m in found if m.info.get("dialog")]
        found = in_dialog or found
    return found


def _closest_anywhere(target: Target, elements: list[ElementInfo], limit: int = 5) -> list[str]:
    query = target.name or target.label or target.text or target.placeholder or ""
    ranked = sorted(elements, key=lambda e: similarity(query, e.name or e.placeholder or ""), reverse=True)
    out: list[str] = []
    for e in ranked:
        text = f'{e.role or e.tag} "{e.name or e.placeholder or ""}"'
        if text not in out:
            out.append(text)
        if len(out) >= limit:
            break
    return out


async def _fuzzy(page: Page, target: Target, purpose: Purpose | None) -> Resolution:
    scans = await scan(page, SCAN_ATTR)
    elements = [e for s in scans for e in s.elements]
    result = fuzzy_match(target, elements, purpose=purpose)
    if result.matched:
        element = result.best[0]
        frame = next(s.frame for s in scans if element in s.elements)
        found = await _all(page, lambda f: f.locator(f'[{SCAN_ATTR}="{element.index}"]'), [frame])
        if len(found) == 1:
            return _found(found[0], f"near match {element.name!r} for {target.describe()}", result.score)
    if result.ambiguous:
        return Resolution(
            OutcomeStatus.AMBIGUOUS,
            message=f"{len(result.best)} elements match {target.describe()} equally",
            candidates=[f'{e.role or e.tag} "{e.name}"' for e in result.best],
        )
    candidates = [c for c in result.closest if c] or _closest_anywhere(target, elements)
    return Resolution(
        OutcomeStatus.NOT_FOUND, message=f"nothing matches {target.describe()}", candidates=candidates
    )


async def resolve(
    page: Page, target: Target, timeout_ms: float, purpose: Purpose | None = None
) -> Resolution:
    """Finds one element for `target`, waiting up to `timeout_ms` for it to appear when absent.

    `purpose` (fill/check/select/upload) settles ties among loose matches: a fill meant for
    "Email" lands on the email box, not on the "By email" radio button.
    """
    if target.index is not None:
        found = await _all(page, lambda f: native_locator(f, target, True))
        if len(found) == 1:
            return _found(found[0], target.describe())
        message = f"no element with index {target.index}; observe the page again"
        return Resolution(OutcomeStatus.NOT_FOUND, message=message)
    fuzzy: Resolution | None = None
    for attempt in range(2):
        async for how, make in _tries(page, target):
            found = _narrow(await _all(page, make), purpose)
            if len(found) == 1:
                return _found(found[0], how)
            if len(found) > 1:
                return Resolution(
                    OutcomeStatus.AMBIGUOUS,
                    message=f"{len(found)} elements match {target.describe()}; use an index or a selector",
                    candidates=[_label(m.info) for m in found[:8]],
                )
        fuzzy = await _fuzzy(page, target, purpose) if target.selector is None else None
        if fuzzy is not None and fuzzy.status is not OutcomeStatus.NOT_FOUND:
            return fuzzy
        if attempt == 0 and not await _appeared(page, target, timeout_ms):
            break
    if fuzzy is not None:
        return fuzzy
    return Resolution(OutcomeStatus.NOT_FOUND, message=f"no element matches {target.describe()}")


async def _tries(page: Page, target: Target) -> AsyncIterator[tuple[str, Callable[[Frame], Locator]]]:
    """The ways to find a target, in the order of the module docstring; each is asked only when
    the ones before it found nothing."""
    described = target.describe()
    yield described, lambda f: native_locator(f, target, True)
    if target.selector is not None:
        return
    if target.label is not None:
        mark = await near_label(page.frames, target.label)
        if mark is not None:
            yield f"text before the field: {described}", lambda f: f.locator(f'[{NEAR_ATTR}="{mark}"]')
        label = target.label
        yield f"placeholder for {described}", lambda f: f.get_by_placeholder(label, exact=True)
    yield f"loose match for {described}", lambda f: native_locator(f, target, False)


async def _appeared(page: Page, target: Target, timeout_ms: float) -> bool:
    """Absent now: give a late element the actionability timeout to show up in the main frame,
    unless the page settles first (browser/settle.py): then it is not coming."""
    locator = native_locator(page.main_frame, target, False).first
    arrival = asyncio.ensure_future(_arrives(locator, timeout_ms))
    quiet = asyncio.ensure_future(settled(page.main_frame))
    try:
        done, _ = await asyncio.wait({arrival, quiet}, return_when=asyncio.FIRST_COMPLETED)
        if arrival in done:
            return arrival.result()
        if quiet.result():
            return await _present(locator)  # one last look, then it is absent for good
        return await arrival  # navigated meanwhile: the new page gets the rest of the wait
    finally:
        for task in (arrival, quiet):
            task.cancel()
        await asyncio.gather(arrival, quiet, return_exceptions=True)


async def _arrives(locator: Locator, timeout_ms: float) -> bool:
    try:
        await locator.wait_for(state="attached", timeout=timeout_ms)
    except Error:  # includes Playwright's TimeoutError: it never came
        return False
    return True


async def _present(locator: Locator) -> bool:
    try:
        return await locator.count() > 0
    except Error:  # navigating right now
        return False
