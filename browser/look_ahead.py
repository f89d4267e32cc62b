"""Looking at the page a gated action will act on, before anyone approves it.

A person deciding at a gate should see what will be touched: the page, with a box around each element
the step's actions will act on. `look` reads that page, either the step's own start page opened in a
tab of its own (closed afterwards, with any popup it opened; the run's tab is left as it was) or, when
the step acts where the run already is, the active tab. It asks the caller which actions to mark (from
a fresh observation, so a goal step's first decision can be read off the page), finds each action's
element as performing it would (browser/targets.py, same purpose), reads its box, and takes the masked
picture (browser/capture.py). It types nothing, clicks nothing; opening the tab is a plain GET of the
plan's own URL under the session's URL policy and routes, as a research read is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from playwright.async_api import Error, Page, ViewportSize
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browser.capture import capture
from browser.matching import Purpose
from browser.models import Action, Contract, Observation, PageCapture, Target
from browser.navigation import open_url
from browser.observe import observe
from browser.session import BrowserSession
from browser.targets import resolve

#: How long one element may take to be found on a page that has loaded.
FIND_MS = 1_500
#: How long the step's page may take to open: the question waits for the picture, and a person can
#: answer without one (a slow page then shows as "did not open" with the page the run is on).
OPEN_MS = 5_000
_PURPOSE: dict[str, Purpose] = {"fill": "fill", "check": "check", "select": "select", "upload": "upload"}


class LookRefused(Exception):
    """The page could not be opened for a look (the URL policy refused it, or it did not load)."""


class ElementBox(Contract):
    """Where an element is, in CSS pixels of the page's viewport (the picture's own pixels)."""

    x: float
    y: float
    width: float
    height: float


class Marked(Contract):
    """One chosen action's element on the page looked at."""

    #: Its position among the chosen actions.
    position: int
    #: The element's accessible name when found, else how the target reads ("label "Email"").
    label: str
    box: ElementBox | None = None
    #: ok, or why there is no box: not_found, ambiguous, hidden.
    found: str = "ok"


class Look(Contract):
    capture: PageCapture
    viewport_width: int | None = None
    viewport_height: int | None = None
    actions: list[Action]
    marks: list[Marked]


Chooser = Callable[[Observation], Sequence[Action]]


async def look(
    session: BrowserSession,
    url: str | None,
    choose: Chooser,
    path: Path | None,
    *,
    redact: Callable[[str], str] = lambda s: s,
    secrets: Sequence[str] = (),
    timeout_ms: float | None = None,
) -> Look:
    """The page at `url` in a tab of its own (the active tab when None), its chosen actions' elements
    boxed, and its picture at `path` (None: no picture, the state only, for a caller that may
    already hold a picture of this very state)."""
    if url is None:
        return await _look_at(session.page, choose, path, redact, secrets, scroll=False)
    reason = session.url_policy.check(url)
    if reason is not None:
        raise LookRefused(reason)
    page = await session.new_tab()
    popups: list[Page] = []

    def opened(popup: Page) -> None:
        popups.append(popup)

    page.on("popup", opened)
    try:
        try:
            response = await open_url(page, url, wait_until="load", timeout_ms=float(timeout_ms or OPEN_MS))
        except (PlaywrightTimeout, Error) as exc:
            if not session.alive:
                raise
            raise LookRefused(f"{url} did not open: {str(exc).splitlines()[0][:200]}") from exc
        if response is not None and response.status >= 400:
            raise LookRefused(f"HTTP {response.status} for {url}")
        return await _look_at(page, choose, path, redact, secrets, scroll=True)
    finally:
        for tab in [*popups, page]:
            if not tab.is_closed():
                await tab.close()


async def _look_at(
    page: Page,
    choose: Chooser,
    path: Path | None,
    redact: Callable[[str], str],
    secrets: Sequence[str],
    *,
    scroll: bool,
) -> Look:
    actions = list(choose(await observe(page, redact=redact)))
    marks = await _mark(page, actions, redact)
    first = next((m for m in marks if m.box is not None), None)
    viewport = page.viewport_size
    if scroll and first is not None and first.box is not None and not _in_view(first.box, viewport):
        target = _target(actions[first.position])
        found = await resolve(page, target, FIND_MS) if target is not None else None
        if found is not None and found.ok and found.locator is not None:
            await found.locator.scroll_into_view_if_needed(timeout=FIND_MS)  # the tab is ours alone
            marks = await _mark(page, actions, redact)
    shot = await capture(page, with_screenshot=path is not None, path=path, redact=redact, secrets=secrets)
    return Look(
        capture=shot,
        viewport_width=viewport["width"] if viewport else None,
        viewport_height=viewport["height"] if viewport else None,
        actions=actions,
        marks=marks,
    )


def _target(action: Action) -> Target | None:
    target = getattr(action, "target", None)
    return target if isinstance(target, Target) else None


def _in_view(box: ElementBox, viewport: ViewportSize | None) -> bool:
    return viewport is None or (box.y >= 0 and box.y + box.height <= viewport["height"])


async def _mark(page: Page, actions: list[Action], redact: Callable[[str], str]) -> list[Marked]:
    marks = []
    for position, action in enumerate(actions):
        target = _target(action)
        if target is None:
            continue
        found = await resolve(page, target, FIND_MS, _PURPOSE.get(action.kind))
        label = redact(target.describe())
        if not found.ok or found.locator is None:
            marks.append(Marked(position=position, label=label, found=str(found.status)))
            continue
        name = found.resolved.name if found.resolved is not None else None
        label = redact(name) if name else label
        try:
            box = await found.locator.bounding_box(timeout=FIND_MS)
        except (PlaywrightTimeout, Error):
            box = None
        if box is None or box["width"] <= 0 or box["height"] <= 0:
            marks.append(Marked(position=position, label=label, found="hidden"))
            continue
        marks.append(Marked(position=position, label=label, box=ElementBox.model_validate(box)))
    return marks
