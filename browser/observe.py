"""Observation for the models: interactive elements with stable indices plus compact page text.

One evaluate per frame (main frame first, then child frames in Playwright's order) walks the DOM and
open shadow roots. Indices run across frames, so `Target(index=i)` names one element of the page;
the element carries a `data-wp-idx` marker until the next observation. Password and sensitive
values never leave the page, and the whole rendering stays under `max_chars`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Error, Frame, Page

from browser.models import ElementInfo, Observation

INDEX_ATTR = "data-wp-idx"
SCAN_ATTR = "data-wp-scan"
DEFAULT_MAX_CHARS = 12_000
MAX_ELEMENTS_PER_FRAME = 2_000  # bounds what one evaluate sends back on huge pages
_ELEMENT_SHARE = 0.7  # of the budget, at most, goes to element lines; the rest to page text
_SCRIPT = Path(__file__).with_name("_observe.js").read_text(encoding="utf-8")


@dataclass
class FrameScan:
    frame: Frame
    label: str
    elements: list[ElementInfo]
    text: str
    truncated: bool = False


async def scan(page: Page, attr: str = INDEX_ATTR, max_text: int = DEFAULT_MAX_CHARS) -> list[FrameScan]:
    """Marks and lists the interactive elements of every frame; frames that vanish are skipped."""
    scans: list[FrameScan] = []
    start = 0
    for position, frame in enumerate(page.frames):
        label = "" if frame == page.main_frame else f"f{position}"
        try:
            raw: dict[str, Any] = await frame.evaluate(
                _SCRIPT,
                {
                    "start": start,
                    "attr": attr,
                    "maxText": max_text,
                    "maxName": 80,
                    "maxElements": MAX_ELEMENTS_PER_FRAME,
                },
            )
        except Error:
            continue  # detached or still navigating: nothing stable to show
        elements = [ElementInfo.model_validate({**e, "frame": label}) for e in raw["elements"]]
        start += len(elements)
        scans.append(
            FrameScan(
                frame=frame,
                label=label,
                elements=elements,
                text=str(raw["text"]),
                truncated=bool(raw["truncated"]),
            )
        )
    return scans


def _redacted(element: ElementInfo, redact: Callable[[str], str]) -> ElementInfo:
    fields = ("name", "value", "placeholder", "href", "context")
    update: dict[str, object] = {f: redact(v) for f in fields if isinstance(v := getattr(element, f), str)}
    update["options"] = [redact(o) for o in element.options]
    return element.model_copy(update=update)


def _without_element_lines(text: str, elements: list[ElementInfo]) -> str:
    """Drops text lines that only repeat an element's name or option: the element list has them."""
    known = {e.name for e in elements} | {o for e in elements for o in e.options}
    return "\n".join(line for line in text.splitlines() if line not in known)


def build_observation(
    url: str,
    title: str,
    scans: list[FrameScan],
    max_chars: int = DEFAULT_MAX_CHARS,
    redact: Callable[[str], str] = lambda s: s,
) -> Observation:
    """Fits elements and text into `max_chars`: hidden elements go first, then the tail."""
    elements = [_redacted(e, redact) for s in scans for e in s.elements]
    truncated = any(s.truncated for s in scans)
    element_budget = int(max_chars * _ELEMENT_SHARE)

    def size(items: list[ElementInfo]) -> int:
        return sum(len(e.render()) + 1 for e in items)

    if size(elements) > element_budget:
        elements = [e for e in elements if e.visible]
        truncated = True
    while elements and size(elements) > element_budget:
        elements.pop()
    texts = []
    for s in scans:
        body = _without_element_lines(s.text, s.elements)
        if body:
            texts.append(body if not s.label else f"--- frame {s.label} ({s.frame.url}) ---\n{body}")
    text = redact("\n".join(texts))
    header = len(url) + len(title) + 40
    text_budget = max(0, max_chars - size(elements) - header)
    if len(text) > text_budget:
        text = text[:text_budget]
        truncated = True
    observation = Observation(
        url=redact(url), title=redact(title), elements=elements, text=text, truncated=truncated
    )
    observation.token_estimate = len(observation.render()) // 4
    return observation


async def observe(
    page: Page, max_chars: int = DEFAULT_MAX_CHARS, redact: Callable[[str], str] = lambda s: s
) -> Observation:
    scans = await scan(page, INDEX_ATTR, max_chars)
    return build_observation(page.url, await page.title(), scans, max_chars, redact)
